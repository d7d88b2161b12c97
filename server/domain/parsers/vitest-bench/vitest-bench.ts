/**
 * vitest bench (checked on vitest 4.1.12, tinybench 2.9): the `--outputJson` report and the console's
 * tables. Times are ms per operation, `hz` operations per second.
 * - JSON `{files: [{filepath, groups: [{fullName, benchmarks: [...]}]}]}`: each benchmark's `samples` is
 *   an empty list in vitest 4, so its summary is kept as written: mean, sd, min, max and the percentiles
 *   median, p75, p99, p995, p999 (as "50", "75", "99", "99.5", "99.9"), with `sampleCount` samples; a
 *   `samples` list that is filled (another version) is used as the samples instead.
 * - Console: one table per group (`name hz min max mean p75 p99 p995 p999 rme samples`) under its
 *   `✓ <file> > <group> <time>ms` line, numbers rounded to 4 decimals below 100 and 2 from 100 on, hz with
 *   thousands separators. It prints no median and no sd. The `BENCH  Summary` (ratios) is dropped;
 *   `RUN  v4.1.12` gives the tool version.
 * Dropped from both: `rme` and the other statistics tinybench derives from the samples (variance, sem,
 * moe…), `rank`, `totalTime`.
 *
 * Identity: the group is the describe block as vitest names it, its `fullName` in the JSON and the line
 * above each console table, which starts with the bench file's path from the project root
 * (`micro.bench.js > json`): two files' groups of the same name never share a series. The benchmark is
 * `micro.bench.js > json > stringify 200 records` in both formats. No hardware is stated: testbed null.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { EndpointResult, ParsedRun } from "../../run";
import { benchmarkResult, benchmarkRun, type TimeSummary } from "../benchmark";
import { parseWire } from "../wire";
import { benchmarkLimit } from "../validate";

const TOOL = "vitest";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{"files": [{"filepath": …, "groups": [...]}]}`. */
export function isVitestBenchJson(value: Record<string, unknown>): boolean {
  const [first] = Array.isArray(value.files) ? (value.files as unknown[]) : [];
  return isRecord(first) && "filepath" in first && "groups" in first;
}

/** A time in ms: 10^9 ms (11.6 days) per operation is beyond any benchmark (and any histogram). */
const ms = z.number().nonnegative().max(1e9, "ms beyond any benchmark's time per operation");

const benchmarkSchema = z.object({
  name: z.string(),
  hz: z.number().nonnegative(),
  mean: ms,
  min: ms,
  max: ms,
  sd: ms.optional(),
  median: ms.optional(),
  p75: ms.optional(),
  p99: ms.optional(),
  p995: ms.optional(),
  p999: ms.optional(),
  sampleCount: z.number().int().nonnegative().optional(),
  samples: z.array(ms).optional(),
});

const reportSchema = z.object({
  files: z.array(
    z.object({
      filepath: z.string(),
      groups: z.array(z.object({ fullName: z.string(), benchmarks: z.array(benchmarkSchema) })),
    }),
  ),
});

/** tinybench's percentile fields, by the key Benchtrack stores each under. */
const PERCENTILE_FIELDS = [
  ["50", "median"],
  ["75", "p75"],
  ["99", "p99"],
  ["99.5", "p995"],
  ["99.9", "p999"],
] as const;

export function parseVitestBench(document: unknown): ParsedRun {
  const report = parseWire(reportSchema, document, "vitest bench --outputJson report");
  const count = report.files.reduce((sum, file) => sum + file.groups.reduce((inFile, group) => inFile + group.benchmarks.length, 0), 0);
  benchmarkLimit(count, "files[].groups[].benchmarks");
  const benchmarks = report.files.flatMap((file) =>
    file.groups.flatMap((group) =>
      group.benchmarks.map((benchmark) => {
        const percentiles: Record<string, number> = {};
        for (const [key, field] of PERCENTILE_FIELDS) {
          const value = benchmark[field];
          if (value !== undefined) percentiles[key] = value;
        }
        const samples = benchmark.samples ?? [];
        return benchmarkResult({
          name: benchmark.name,
          group: group.fullName,
          samplesMs: samples.length > 0 ? samples : null,
          summary: {
            meanMs: benchmark.mean,
            minMs: benchmark.min,
            maxMs: benchmark.max,
            stdDevMs: benchmark.sd ?? null,
            percentiles,
            samples: benchmark.sampleCount ?? null,
          },
          opsPerSecond: benchmark.hz,
        });
      }),
    ),
  );
  return benchmarkRun("vitest-bench", TOOL, benchmarks);
}

// ---- console ----

/** The table header vitest prints above each group's rows. */
const TABLE_HEADER =
  /^[ \t]+name[ \t]+hz[ \t]+min[ \t]+max[ \t]+mean[ \t]+p75[ \t]+p99[ \t]+p995[ \t]+p999[ \t]+rme[ \t]+samples[ \t]*$/;
/** A group's line: ` ✓ micro.bench.js > json 1216ms` (✓ passed, × failed, ↓ skipped). */
const GROUP_LINE = /^ {0,3}[✓×↓] (.+)$/;
const ROW_START = /^ +· /;
/** Colour escapes, if NO_COLOR was not set. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, "g");
/** A printed number: `14,429.03`, `0.0643`, `755`. */
const PRINTED_NUMBER = /^\d{1,3}(?:,\d{3})*(?:\.\d+)?$|^\d+(?:\.\d+)?$/;
const NUMBER_COLUMNS = ["hz", "min", "max", "mean", "p75", "p99", "p995", "p999", "rme", "samples"] as const;
const TIME_COLUMNS = ["min", "max", "mean", "p75", "p99", "p995", "p999"] as const;

/** A vitest bench table header within the first 64 KB (after vitest's notices and npm's warnings). */
export function isVitestBenchText(start: string): boolean {
  const head = start.slice(0, 64 * 1024).replace(ANSI_ESCAPE, "");
  return head.split("\n").some((line) => TABLE_HEADER.test(line.replace(/\r$/, "")));
}

export function parseVitestBenchText(text: string, source: string): ParsedRun {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .map((line) => line.replace(/\r$/, "").replace(ANSI_ESCAPE, ""));
  const benchmarks: EndpointResult[] = [];
  let toolVersion: string | null = null;
  let group: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const at = `${source}: line ${index + 1}`;
    if (line.startsWith(" BENCH  Summary")) break;
    const version = /^ RUN {2}v(\d+\.\d+\.\d+\S*) /.exec(line);
    if (version?.[1] && toolVersion === null) toolVersion = version[1];
    const groupLine = GROUP_LINE.exec(line);
    if (groupLine?.[1] !== undefined) group = groupNameOf(groupLine[1]);
    if (ROW_START.test(line)) throw malformed(at, "a benchmark row with no table header above it");
    if (!TABLE_HEADER.test(line)) continue;
    if (group === null) throw malformed(at, "a table with no `✓ <file> > <group>` line above it");
    const rowsStart = index + 1;
    for (index = rowsStart; ROW_START.test(lines[index] ?? ""); index++) {
      benchmarkLimit(benchmarks.length + 1, `${source}: line ${index + 1}`);
      benchmarks.push(rowResult(lines[index] ?? "", group, `${source}: line ${index + 1}`));
    }
    if (index === rowsStart)
      throw malformed(`${source}: line ${rowsStart + 1}`, `the table of "${clip(group)}" has no rows`);
    index--;
  }
  if (benchmarks.length === 0) throw malformed(`${source}: line 1`, "no benchmark table (`name hz min max mean …`)");
  const run = benchmarkRun("vitest-bench-text", TOOL, benchmarks);
  run.toolVersion = toolVersion;
  return run;
}

/** `micro.bench.js > json 1216ms` → `micro.bench.js > json` (the group's run time is not part of its name). */
function groupNameOf(text: string): string {
  const space = text.lastIndexOf(" ");
  return space > 0 && /^\d+ms$/.test(text.slice(space + 1)) ? text.slice(0, space) : text;
}

/**
 * `   · stringify 200 records  14,429.03  0.0643  …  ±1.19%     7215`, read from the right: the name is
 * padded and may hold spaces, the ten columns after it never do. Older vitest adds `fastest`/`slowest`.
 */
function rowResult(line: string, group: string, at: string): EndpointResult {
  let rest = line.replace(ROW_START, "").trimEnd();
  rest = rest.replace(/ +(?:fastest|slowest)$/, "");
  const cells: string[] = [];
  for (let column = NUMBER_COLUMNS.length - 1; column >= 0; column--) {
    const space = rest.lastIndexOf(" ");
    if (space <= 0)
      throw malformed(at, `expected ${NUMBER_COLUMNS.length} numbers after the name, found ${cells.length}`);
    cells.unshift(rest.slice(space + 1));
    rest = rest.slice(0, space).trimEnd();
  }
  const name = rest;
  const value = (column: (typeof NUMBER_COLUMNS)[number]): number => {
    const cell = cells[NUMBER_COLUMNS.indexOf(column)] ?? "";
    const printed = column === "rme" ? (/^±(.*)%$/.exec(cell)?.[1] ?? "") : cell;
    if (!PRINTED_NUMBER.test(printed)) throw malformed(at, `the ${column} column holds "${clip(cell)}", not a number`);
    return Number(printed.replaceAll(",", ""));
  };
  const samples = value("samples");
  if (!Number.isInteger(samples)) throw malformed(at, `the samples column holds ${samples}, not a count`);
  const times = TIME_COLUMNS.map((column) => value(column));
  if (times.some((time) => time > 1e9)) throw malformed(at, "a time beyond any benchmark's time per operation");
  const summary: TimeSummary = {
    meanMs: value("mean"),
    minMs: value("min"),
    maxMs: value("max"),
    stdDevMs: null,
    percentiles: { "75": value("p75"), "99": value("p99"), "99.5": value("p995"), "99.9": value("p999") },
    samples,
  };
  return benchmarkResult({ name, group, summary, opsPerSecond: value("hz") });
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid vitest bench console output (${where}: ${message})`, [
    { path: where, message },
  ]);
}
