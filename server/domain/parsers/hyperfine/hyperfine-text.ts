/**
 * hyperfine's two printed formats (checked on hyperfine 1.15.0): the `--export-markdown` table and the
 * console output (`--style basic`, what CI captures; colours, if any, are stripped). Both print each
 * result rounded in one unit, chosen by its mean in the console and by the first result's mean for the
 * whole Markdown table: `s` with 3 decimals, `ms` with 1, `µs` with 1 (the resolution rule: `index.ts`).
 * Names and the rest of the model: `hyperfine.ts`.
 * - Markdown: `| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |`, the mean as `138.9 ± 5.7` (no
 *   `±` for a single run), the command between backticks with `|` escaped. No run count, user or system
 *   time. `Relative` (the speed ratio to the fastest) is dropped.
 * - Console: `Benchmark N: <name>`, `  Time (mean ± σ):  … ± …  [User: …, System: …]` and
 *   `  Range (min … max):  … … …  N runs`; a single run prints `  Time (abs ≡):  …` and no range (its
 *   min and max are that run). `Warning:` lines, the `Summary` block (ratios) and anything the commands
 *   printed (`--show-output`) are skipped. A benchmark cut short or failing (hyperfine's `Error:`) is refused.
 * No run's exit codes are printed: failures stay unknown (null).
 */
import { InputError } from "../../input-error";
import type { EndpointResult, ParsedRun } from "../../run";
import { benchmarkResult, benchmarkRun, isTimeUnit, toMs } from "../benchmark";
import { cpuMetrics, HYPERFINE_TOOL } from "./hyperfine";
import { benchmarkLimit } from "../validate";

/** hyperfine's Markdown header: `| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |`. */
const MARKDOWN_HEADER = /^\| Command \| Mean \[[^\]|]+\] \| Min \[[^\]|]+\] \| Max \[[^\]|]+\] \| Relative \|[ \t]*$/;

export function isHyperfineMarkdown(start: string): boolean {
  return MARKDOWN_HEADER.test(start.slice(0, 4096).split(/\r?\n/, 1)[0] ?? "");
}

export function parseHyperfineMarkdown(text: string, source: string): ParsedRun {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let index = lines.findIndex((line) => line.trim() !== "");
  const header = index === -1 ? undefined : splitRow(lines[index] ?? "");
  const where = (lineIndex: number) => `${source}: line ${lineIndex + 1}`;
  if (!header || !MARKDOWN_HEADER.test(lines[index]?.trimEnd() ?? "")) {
    throw malformed(
      "Markdown table",
      where(Math.max(index, 0)),
      "expected hyperfine's header `| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |`",
    );
  }
  const units = header.slice(1, 4).map((cell, column) => unitOfHeader(cell, where(index), column));
  index++;
  if (!/^\|(\s*:?-+:?\s*\|){5}\s*$/.test(lines[index] ?? "")) {
    throw malformed("Markdown table", where(index), "expected the table's divider `|:---|---:|---:|---:|---:|`");
  }
  const benchmarks: EndpointResult[] = [];
  for (index++; index < lines.length && (lines[index] ?? "").startsWith("|"); index++) {
    const at = where(index);
    const cells = splitRow(lines[index] ?? "");
    if (cells.length !== 5)
      throw malformed(
        "Markdown table",
        at,
        `expected 5 cells (Command, Mean, Min, Max, Relative), found ${cells.length}`,
      );
    const [command = "", meanCell = "", minCell = "", maxCell = ""] = cells;
    const name = /^`.*`$/s.test(command) ? command.slice(1, -1) : command;
    if (name === "") throw malformed("Markdown table", at, "the Command cell is empty");
    const mean = /^([\d.]+)(?: ± ([\d.]+))?$/.exec(meanCell);
    if (!mean?.[1]) throw malformed("Markdown table", at, `"${clip(meanCell)}" is not a mean such as \`138.9 ± 5.7\``);
    const [meanUnit, minUnit, maxUnit] = units as [Unit, Unit, Unit];
    benchmarks.push(
      benchmarkResult({
        name,
        summary: {
          meanMs: printedMs(mean[1], meanUnit, at),
          stdDevMs: mean[2] === undefined ? null : printedMs(mean[2], meanUnit, at),
          minMs: printedMs(minCell, minUnit, at),
          maxMs: printedMs(maxCell, maxUnit, at),
          samples: null,
        },
      }),
    );
  }
  if (benchmarks.length === 0)
    throw malformed("Markdown table", where(index), "the table has no rows: no result to read");
  return benchmarkRun("hyperfine-markdown", HYPERFINE_TOOL, benchmarks);
}

type Unit = "s" | "ms" | "µs" | "us";

function unitOfHeader(cell: string, where: string, column: number): Unit {
  const unit = /\[([^\]]+)\]$/.exec(cell)?.[1] ?? "";
  if (unit === "s" || unit === "ms" || unit === "µs" || unit === "us") return unit;
  throw malformed("Markdown table", where, `column ${column + 2} is in "${clip(unit)}": expected s, ms or µs`);
}

/** A table row's cells, trimmed; `\|` inside a cell is a literal `|` (hyperfine escapes it so). */
function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  const body = line.trimEnd();
  for (let i = 1; i < body.length; i++) {
    const char = body.charAt(i);
    if (char === "\\" && body.charAt(i + 1) === "|") {
      cell += "|";
      i++;
    } else if (char === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  if (cell.trim() !== "") cells.push(cell.trim());
  return cells;
}

// ---- console ----

const UNIT = "(s|ms|µs|us)";
const VALUE = String.raw`(\d+(?:\.\d+)?) ${UNIT}`;
const CPU = String.raw`\[User: ${VALUE}, System: ${VALUE}`;
const TIME_MEAN_LINE = new RegExp(String.raw`^ {2}Time \(mean ± σ\): +${VALUE} ± +${VALUE} +${CPU}`);
const TIME_ABS_LINE = new RegExp(String.raw`^ {2}Time \(abs ≡\): +${VALUE} +${CPU}`);
const RANGE_LINE = new RegExp(String.raw`^ {2}Range \(min … max\): +${VALUE} … +${VALUE} +(\d+) runs?\b`);
const BENCHMARK_LINE = /^Benchmark (\d+): (.*)$/;
/** Colour and cursor escapes of `--style full`/`color`. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, "g");

/** A `Benchmark 1: …` line, and hyperfine's `Time` line further on (command output may come between). */
export function isHyperfineText(start: string): boolean {
  const head = start.slice(0, 64 * 1024).replace(ANSI_ESCAPE, "");
  return /^Benchmark 1: /m.test(head) && /^ {2}Time \((?:mean ± σ|abs ≡)\): /m.test(head);
}

interface PrintedBenchmark {
  number: number;
  name: string;
  line: number;
  time?: { meanMs: number; stdDevMs: number | null; userMs: number; systemMs: number; single: boolean };
  range?: { minMs: number; maxMs: number; runs: number };
  error?: string;
}

export function parseHyperfineText(text: string, source: string): ParsedRun {
  const printed: PrintedBenchmark[] = [];
  let current: PrintedBenchmark | undefined;
  let inSummary = false;
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  for (const [index, raw] of lines.entries()) {
    // A progress bar redraws its line after `\r`: the last drawing is what stayed on screen.
    const drawn = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const line = drawn.slice(drawn.lastIndexOf("\r") + 1).replace(ANSI_ESCAPE, "");
    const at = `${source}: line ${index + 1}`;
    const benchmark = BENCHMARK_LINE.exec(line);
    if (benchmark?.[1] !== undefined && benchmark[2] !== undefined) {
      const number = Number(benchmark[1]);
      const expected = (current?.number ?? 0) + 1;
      if (number !== expected) {
        throw malformed(
          "console output",
          at,
          `Benchmark ${number} where Benchmark ${expected} was expected: upload one hyperfine run at a time`,
        );
      }
      benchmarkLimit(number, at);
      current = { number, name: benchmark[2], line: index + 1 };
      printed.push(current);
      inSummary = false;
    } else if (line === "Summary") inSummary = true;
    else if (inSummary) continue;
    else if (line.startsWith("  Time (")) readTimeLine(requireBenchmark(current, at, line), line, at);
    else if (line.startsWith("  Range (")) readRangeLine(requireBenchmark(current, at, line), line, at);
    else if (line.startsWith("Error: ") && current && !current.time) current.error = line.slice("Error: ".length);
  }
  if (printed.length === 0) throw malformed("console output", `${source}: line 1`, "no `Benchmark 1: <command>` line");
  return benchmarkRun(
    "hyperfine-text",
    HYPERFINE_TOOL,
    printed.map((benchmark) => resultOf(benchmark, source)),
  );
}

function requireBenchmark(current: PrintedBenchmark | undefined, at: string, line: string): PrintedBenchmark {
  if (current) return current;
  throw malformed("console output", at, `"${clip(line.trim())}" before any \`Benchmark 1: <command>\` line`);
}

function readTimeLine(benchmark: PrintedBenchmark, line: string, at: string): void {
  if (benchmark.time) throw malformed("console output", at, `a second Time line for Benchmark ${benchmark.number}`);
  const mean = TIME_MEAN_LINE.exec(line);
  if (mean) {
    const [, value, unit, sd, sdUnit, user, userUnit, system, systemUnit] = mean;
    benchmark.time = {
      meanMs: printedMs(value, unit, at),
      stdDevMs: printedMs(sd, sdUnit, at),
      userMs: printedMs(user, userUnit, at),
      systemMs: printedMs(system, systemUnit, at),
      single: false,
    };
    return;
  }
  const abs = TIME_ABS_LINE.exec(line);
  if (!abs) {
    throw malformed(
      "console output",
      at,
      `"${clip(line.trim())}" is not hyperfine's \`Time (mean ± σ): 138.9 ms ± 5.7 ms [User: …, System: …]\``,
    );
  }
  const [, value, unit, user, userUnit, system, systemUnit] = abs;
  benchmark.time = {
    meanMs: printedMs(value, unit, at),
    stdDevMs: null,
    userMs: printedMs(user, userUnit, at),
    systemMs: printedMs(system, systemUnit, at),
    single: true,
  };
}

function readRangeLine(benchmark: PrintedBenchmark, line: string, at: string): void {
  if (benchmark.range) throw malformed("console output", at, `a second Range line for Benchmark ${benchmark.number}`);
  const range = RANGE_LINE.exec(line);
  if (!range) {
    throw malformed(
      "console output",
      at,
      `"${clip(line.trim())}" is not hyperfine's \`Range (min … max): 133.9 ms … 157.1 ms 20 runs\``,
    );
  }
  const [, min, minUnit, max, maxUnit, runs] = range;
  benchmark.range = { minMs: printedMs(min, minUnit, at), maxMs: printedMs(max, maxUnit, at), runs: Number(runs) };
}

function resultOf(benchmark: PrintedBenchmark, source: string): EndpointResult {
  const at = `${source}: line ${benchmark.line}`;
  const { time } = benchmark;
  if (!time) {
    const reason = benchmark.error
      ? `hyperfine stopped: ${clip(benchmark.error)}`
      : "no `Time (mean ± σ)` line follows (cut short?)";
    throw malformed(
      "console output",
      at,
      `Benchmark ${benchmark.number} (${clip(benchmark.name)}) has no result: ${reason}`,
    );
  }
  if (!time.single && !benchmark.range) {
    throw malformed(
      "console output",
      at,
      `Benchmark ${benchmark.number} (${clip(benchmark.name)}) has no \`Range (min … max)\` line (cut short?)`,
    );
  }
  // A single run's min and max are that run.
  const range = benchmark.range ?? { minMs: time.meanMs, maxMs: time.meanMs, runs: 1 };
  return benchmarkResult({
    name: benchmark.name,
    summary: {
      meanMs: time.meanMs,
      stdDevMs: time.stdDevMs,
      minMs: range.minMs,
      maxMs: range.maxMs,
      samples: range.runs,
    },
    metrics: cpuMetrics(time.userMs, time.systemMs),
  });
}

/** A printed number in its printed unit, as ms. */
function printedMs(value: string | undefined, unit: string | undefined, at: string): number {
  const number = Number(value);
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(number)) {
    throw malformed("output", at, `"${clip(value ?? "")}" is not a time such as 138.9`);
  }
  if (unit === undefined || !isTimeUnit(unit))
    throw malformed("output", at, `"${clip(unit ?? "")}" is not a time unit`);
  return toMs(number, unit);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function malformed(what: string, where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid hyperfine ${what} (${where}: ${message})`, [
    { path: where, message },
  ]);
}
