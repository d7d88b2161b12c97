/**
 * pytest's console output with pytest-benchmark's tables (`pytest … > pytest-benchmark.txt 2>&1`), read
 * into the benchmarks pytest-benchmark-run.ts builds a run from, with the JSON's names.
 *
 * As pytest-benchmark 3.2 prints it (src/pytest_benchmark/table.py `TableResults.display`):
 * - pytest's header: `platform linux -- Python 3.11.2, pytest-7.2.1, …`, then
 *   `benchmark: 3.2.2 (defaults: …)` from the plugin;
 * - `Computing stats ...` progress rewritten in place with bare carriage returns (a line shows what
 *   follows its last `\r`), then per group, sorted by --benchmark-sort (min): a header
 *   ` benchmark 'sort': 3 tests ` centred in dashes (no name for benchmarks without a group; the
 *   group is Python's repr of it), the labels `Name (time in us)`, then the --benchmark-columns in
 *   order (Min, Max, Mean, StdDev, Median, IQR, Outliers, OPS, Rounds, Iterations), a dashed line, one
 *   row per benchmark and a closing dashed line. The time unit (s, ms, us, ns) is chosen per group from
 *   its smallest value, the OPS column may be scaled (`OPS (Kops/s)`, `OPS (Mops/s)`). Numbers are
 *   printed `{:,.4f}`, followed in a group of several benchmarks by their ratio to the best
 *   (` (1.0)`, ` (15.16)`, ` (>1000.0)`), which is dropped; Outliers are `331;257`;
 * - pytest's last line, `=== 8 passed in 5.17s ===`, gives the session's duration.
 * With --benchmark-compare the table also lists saved runs as `name (0001_abc)` and the current one as
 * `name (NOW)`: only the NOW rows are kept. Rows are read from the right (their columns are known from
 * the labels), so a name may hold spaces.
 */
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { toMs, type TimeUnit } from "../benchmark";
import { buildPytestRun, nameOfNodeId, type PytestBenchmark } from "./pytest-benchmark-run";
import { benchmarkLimit } from "../validate";

type Column = "min" | "max" | "mean" | "stddev" | "median" | "iqr" | "outliers" | "ops" | "rounds" | "iterations";

const COLUMN_LABELS: Readonly<Record<string, Column>> = {
  Min: "min",
  Max: "max",
  Mean: "mean",
  StdDev: "stddev",
  Median: "median",
  IQR: "iqr",
  Outliers: "outliers",
  OPS: "ops",
  Rounds: "rounds",
  Iterations: "iterations",
};
/** pytest_benchmark.utils.time_unit: the prefix of `Name (time in <prefix>s)`. */
const TIME_PREFIXES: Readonly<Record<string, TimeUnit>> = { "": "s", m: "ms", u: "us", n: "ns" };
/** pytest_benchmark.utils.operations_unit: the prefix of `OPS (<prefix>ops/s)`. */
const OPS_PREFIXES: Readonly<Record<string, number>> = { "": 1, K: 1e3, M: 1e6 };
/** A number as `{:,.4f}` prints it. */
const NUMBER = /^\d{1,3}(?:,\d{3})*(?:\.\d+)?$/;
const COMPARED_RUN = / \((NOW|\d{4}_[^()\s]*)\)$/;

interface Table {
  group: string | null;
  tests: number;
  unit: TimeUnit;
  opsScale: number;
  columns: Column[];
}

type Row = { name: string; values: Partial<Record<Column, number>>; where: string };

export function parsePytestBenchmarkText(text: string, source: string): ParsedRun {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .map(shownLine);
  const benchmarks: PytestBenchmark[] = [];
  let pythonVersion: string | null = null;
  let pythonImplementation: string | null = null;
  let toolVersion: string | null = null;
  let durationSeconds: number | null = null;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    const group = groupHeaderOf(line);
    if (group !== null) {
      index = readTable(lines, index, group, source, benchmarks);
      continue;
    }
    const platform = /^platform \S+ -- Python (\d+(?:\.\d+)*)(\S*)/.exec(line);
    const plugin = /^benchmark: (\S+) \(defaults: /.exec(line);
    if (platform) {
      pythonVersion = platform[1] ?? null;
      if (/pypy/i.test(platform[2] ?? "")) pythonImplementation = "PyPy";
    } else if (plugin) toolVersion = plugin[1] ?? null;
    else durationSeconds = sessionSecondsOf(line) ?? durationSeconds;
    index++;
  }
  if (benchmarks.length === 0) {
    throw new InputError("malformed", `pytest-benchmark console: no benchmark table in ${source}`, [
      {
        path: `${source}: line ${lines.length}`,
        message:
          "expected a `benchmark …: N tests` table (was pytest run with --benchmark-disable or --benchmark-skip?)",
      },
    ]);
  }
  const run = buildPytestRun("pytest-benchmark-text", benchmarks);
  run.toolVersion = toolVersion;
  run.durationSeconds = durationSeconds;
  if (pythonImplementation !== null) run.environment.attributes.python_implementation = pythonImplementation;
  if (pythonVersion !== null) run.environment.attributes.python_version = pythonVersion;
  return run;
}

/** What a terminal shows of a line: the text after its last bare `\r` (pytest's progress rewrites). */
function shownLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const carriageReturn = line.lastIndexOf("\r");
  return carriageReturn === -1 ? line : line.slice(carriageReturn + 1);
}

/** `----- benchmark 'sort': 3 tests -----` → its group and count; null for any other line. */
function groupHeaderOf(line: string): { group: string | null; tests: number } | null {
  let start = 0;
  while (line.charCodeAt(start) === 45 /* - */) start++;
  let end = line.length;
  while (end > start && line.charCodeAt(end - 1) === 45) end--;
  const inner = line.slice(start, end);
  if (!inner.startsWith(" benchmark") || !inner.endsWith(" tests ")) return null;
  const match = /^ benchmark(?: (.*))?: (\d+) tests $/.exec(inner);
  if (!match) return null;
  return { group: match[1] === undefined ? null : groupOfRepr(match[1]), tests: Number(match[2]) };
}

/** The group as Python's repr wrote it: `'sort'`, `"it's"` (escapes undone); anything else as printed. */
function groupOfRepr(repr: string): string {
  const quote = repr.charAt(0);
  if (repr.length < 2 || (quote !== "'" && quote !== '"') || !repr.endsWith(quote)) return repr;
  const body = repr.slice(1, -1);
  let group = "";
  for (let i = 0; i < body.length; i++) {
    const char = body.charAt(i);
    if (char !== "\\") {
      group += char;
      continue;
    }
    const next = body.charAt(++i);
    const hexLength = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    const hex = body.slice(i + 1, i + 1 + hexLength);
    const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", "\\": "\\", "'": "'", '"': '"' };
    if (hexLength > 0 && /^[0-9a-fA-F]+$/.test(hex) && hex.length === hexLength) {
      group += String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff));
      i += hexLength;
    } else group += simple[next] ?? `\\${next}`;
  }
  return group;
}

/** Reads the table whose group header is at `start`; returns the index of the line after it. */
function readTable(
  lines: readonly string[],
  start: number,
  header: { group: string | null; tests: number },
  source: string,
  benchmarks: PytestBenchmark[],
): number {
  const where = (index: number) => `${source}: line ${index + 1}`;
  const table = tableOf(lines[start + 1] ?? "", header, where(start + 1));
  if (!/^-+$/.test(lines[start + 2] ?? ""))
    throw malformed(where(start + 2), "expected the dashed line under the table's labels");
  const rows: Row[] = [];
  let index = start + 3;
  for (; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (/^-+$/.test(line)) break;
    rows.push(rowOf(line, table, where(index)));
  }
  const what = header.group === null ? "the benchmark table" : `the table of group "${header.group}"`;
  if (index >= lines.length)
    throw malformed(where(lines.length - 1), `${what} ends before its closing dashed line (cut short?)`);
  if (rows.length !== table.tests) {
    throw malformed(where(index), `${what} has ${rows.length} rows, but its header says ${table.tests} tests`);
  }
  const compared = rows.some((row) => row.name.endsWith(" (NOW)"));
  for (const row of rows) {
    const run = COMPARED_RUN.exec(row.name);
    if (compared && run?.[1] !== "NOW") continue;
    benchmarkLimit(benchmarks.length + 1, where(index));
    benchmarks.push(benchmarkOf(compared ? row.name.slice(0, -" (NOW)".length) : row.name, row, table));
  }
  return index + 1;
}

function tableOf(line: string, header: { group: string | null; tests: number }, where: string): Table {
  const name = /^Name \(time in ([a-z]*)s\) /.exec(line);
  const unit = name ? TIME_PREFIXES[name[1] ?? ""] : undefined;
  if (!name || unit === undefined) {
    throw malformed(
      where,
      'expected the labels line "Name (time in us)  Min  Max …" of pytest-benchmark\'s table (s, ms, us or ns)',
    );
  }
  const labels = line.slice(name[0].length).trim().split(/ +/);
  const columns: Column[] = [];
  let opsScale = 1;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] ?? "";
    const column = COLUMN_LABELS[label];
    if (column === undefined) throw malformed(where, `"${clip(label)}" is not a column pytest-benchmark prints`);
    if (column === "ops" && labels[i + 1]?.startsWith("(")) {
      const scale = /^\(([A-Z]?)ops\/s\)$/.exec(labels[i + 1] ?? "");
      const factor = scale ? OPS_PREFIXES[scale[1] ?? ""] : undefined;
      if (factor === undefined)
        throw malformed(where, `"${clip(labels[i + 1] ?? "")}" is not an OPS unit (ops/s, Kops/s, Mops/s)`);
      opsScale = factor;
      i++;
    }
    columns.push(column);
  }
  return { ...header, unit, opsScale, columns };
}

/** A row, read from the right: each column's value (and a ratio to the best after a number), then the name. */
function rowOf(line: string, table: Table, where: string): Row {
  let end = line.length;
  let tokenStart = end;
  const pop = (): string => {
    while (end > 0 && line.charCodeAt(end - 1) === 32) end--;
    tokenStart = end;
    while (tokenStart > 0 && line.charCodeAt(tokenStart - 1) !== 32) tokenStart--;
    const token = line.slice(tokenStart, end);
    end = tokenStart;
    return token;
  };
  const values: Partial<Record<Column, number>> = {};
  for (const column of [...table.columns].reverse()) {
    const label = Object.keys(COLUMN_LABELS).find((key) => COLUMN_LABELS[key] === column) ?? column;
    let token = pop();
    if (column === "rounds" || column === "iterations") {
      if (!/^\d+$/.test(token)) throw cutShort(where, line, label);
      values[column] = Number(token);
    } else if (column === "outliers") {
      if (!/^\d+;\d+$/.test(token)) throw cutShort(where, line, label);
    } else {
      if (token.startsWith("(") && token.endsWith(")")) token = pop();
      if (!NUMBER.test(token)) throw cutShort(where, line, label);
      values[column] = Number(token.replaceAll(",", ""));
    }
  }
  const name = line.slice(0, tokenStart).trim();
  if (name === "") throw cutShort(where, line, "Name");
  return { name, values, where };
}

function benchmarkOf(printed: string, row: Row, table: Table): PytestBenchmark {
  const { values } = row;
  const ms = (value: number | undefined): number | null => (value === undefined ? null : toMs(value, table.unit));
  const median = ms(values.median);
  // One round has no spread: pytest-benchmark prints 0 for its stddev.
  const hasSpread = values.rounds === undefined || values.rounds >= 2;
  // --benchmark-name=long prints the node id: its name is the test's, as in the JSON.
  const isNodeId = printed.includes("::");
  return {
    group: table.group,
    name: isNodeId ? nameOfNodeId(printed) : printed,
    fullName: isNodeId ? printed : null,
    where: row.where,
    summary: {
      meanMs: ms(values.mean),
      minMs: ms(values.min),
      maxMs: ms(values.max),
      stdDevMs: hasSpread ? ms(values.stddev) : null,
      percentiles: median === null ? {} : { "50": median },
      samples: values.rounds ?? null,
    },
    opsPerSecond: values.ops === undefined ? null : values.ops * table.opsScale,
    metrics: {},
  };
}

/** `=== 8 passed, 1 warning in 5.17s ===` (or `in 65.12s (0:01:05)`) → 5.17. */
function sessionSecondsOf(line: string): number | null {
  if (!line.startsWith("=") || !line.endsWith("=")) return null;
  const inner = line.replace(/^=+ /, "").replace(/ =+$/, "");
  const match = /(?:^| )in (\d+(?:\.\d+)?)s(?: \(\d+:\d{2}:\d{2}\))?$/.exec(inner);
  return match ? Number(match[1]) : null;
}

function cutShort(where: string, line: string, column: string): InputError {
  return malformed(where, `"${clip(line.trim())}" has no value for the ${column} column (cut short?)`);
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid pytest-benchmark console output (${where}: ${message})`, [
    { path: where, message },
  ]);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
