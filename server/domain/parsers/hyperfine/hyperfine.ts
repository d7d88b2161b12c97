/**
 * hyperfine's exported files (checked on hyperfine 1.15.0): `--export-json` and `--export-csv`. Its
 * Markdown table and console output, which print the same results rounded: `hyperfine-text.ts`.
 *
 * One benchmark per result (per command, and per parameter value of a `--parameter-scan` or `-L`); its
 * time per operation is one timed run of the command, wall clock.
 * - JSON: `times` (seconds) are the samples; `exit_codes` give the failures (non-zero, or null when a
 *   signal ended the run); `user` and `system` (mean seconds) are custom metrics in ms, lower is better;
 *   `mean`, `stddev`, `median`, `min`, `max` are used only when `times` is missing.
 * - CSV: the same summary without samples, run count or exit codes (`stddev` is written 0 for a single run,
 *   so a 0 with min = max is read as "no spread known").
 * Dropped: the JSON's `memory_usage_byte` (newer hyperfine), the parameters as numbers.
 *
 * Identity: the name is the result's name as hyperfine prints it in its console and Markdown table, so
 * the four formats of one invocation make the same series. That is the command as run (parameters
 * substituted), followed by hyperfine's list of the parameters the command did not use
 * (`sleep 0.1 (n = 2)`, its `command_with_unused_parameters`), which the JSON and CSV do not write: it is
 * recovered here (`hyperfineNames`). There is no group: the command template (`gzip -c -{level}
 * data.txt`) is in neither printed format, so a group from it would split one benchmark into two series
 * by the format CI uploads. The parameters are kept in the full name (`gzip -c -1 data.txt [level = 1]`).
 * The files state no hardware and no hyperfine version: the testbed and tool version stay null.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { CustomMetric, ParsedRun } from "../../run";
import { benchmarkMetric, benchmarkResult, benchmarkRun, toMs, type BenchmarkInput } from "../benchmark";
import { readCsvTable, requireColumns } from "../csv-table";
import { parseWire } from "../wire";
import { MAX_BENCHMARKS, benchmarkLimit } from "../validate";

export const HYPERFINE_TOOL = "hyperfine";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{"results": [{"command": …, "mean": …}, …]}`: the first result's keys are the marker. */
export function isHyperfineJson(value: Record<string, unknown>): boolean {
  const [first] = Array.isArray(value.results) ? (value.results as unknown[]) : [];
  return isRecord(first) && "command" in first && "mean" in first;
}

const CSV_COLUMNS = ["command", "mean", "stddev", "median", "user", "system", "min", "max"] as const;

/** The header `command,mean,stddev,median,user,system,min,max[,parameter_<name>…]`. */
export function isHyperfineCsv(start: string): boolean {
  const header = start.slice(0, 4096).split(/\r?\n/, 1)[0] ?? "";
  return header === CSV_COLUMNS.join(",") || header.startsWith(`${CSV_COLUMNS.join(",")},parameter_`);
}

/** A time in seconds as hyperfine writes it: 10^9 s is beyond any command's run (and any histogram). */
const seconds = z.number().nonnegative().max(1e9, "seconds beyond any command's run time");

const jsonResultSchema = z.object({
  command: z.string(),
  mean: seconds,
  // null when only one run was made.
  stddev: seconds.nullish(),
  median: seconds.optional(),
  user: seconds.optional(),
  system: seconds.optional(),
  min: seconds,
  max: seconds,
  times: z.array(seconds).optional(),
  // null where a signal ended the run.
  exit_codes: z.array(z.number().int().nullable()).optional(),
  parameters: z.record(z.string(), z.string()).optional(),
});

const jsonSchema = z.object({ results: z.array(jsonResultSchema) });

export function parseHyperfineJson(document: unknown): ParsedRun {
  const { results } = parseWire(jsonSchema, document, "hyperfine --export-json file");
  benchmarkLimit(results.length, `results[${MAX_BENCHMARKS}]`);
  const names = hyperfineNames(
    results.map((result) => ({ command: result.command, parameters: Object.entries(result.parameters ?? {}) })),
  );
  const benchmarks = results.map((result, index) => {
    const { times, exit_codes: exitCodes } = result;
    if (times && exitCodes && times.length !== exitCodes.length) {
      const message = `${exitCodes.length} exit codes for ${times.length} times: expected one per timed run`;
      throw new InputError(
        "malformed",
        `Not a valid hyperfine --export-json file (results[${index}].exit_codes: ${message})`,
        [{ path: `results[${index}].exit_codes`, message }],
      );
    }
    const input: BenchmarkInput = {
      name: names[index] ?? result.command,
      fullName: fullNameOf(names[index] ?? result.command, Object.entries(result.parameters ?? {})),
      failures: exitCodes ? exitCodes.filter((code) => code !== 0).length : null,
      metrics: cpuMetrics(secondsToMs(result.user), secondsToMs(result.system)),
    };
    if (times && times.length > 0) input.samplesMs = times.map((time) => toMs(time, "s"));
    else {
      input.summary = {
        meanMs: toMs(result.mean, "s"),
        minMs: toMs(result.min, "s"),
        maxMs: toMs(result.max, "s"),
        stdDevMs: result.stddev === null || result.stddev === undefined ? null : toMs(result.stddev, "s"),
        percentiles: result.median === undefined ? {} : { "50": toMs(result.median, "s") },
        samples: exitCodes?.length ?? null,
      };
    }
    return benchmarkResult(input);
  });
  return benchmarkRun("hyperfine-json", HYPERFINE_TOOL, benchmarks);
}

/** A CSV cell holding seconds: Rust prints an f64 as plain decimals (`0.13891718445000004`). */
const secondsCell = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?([eE][+-]?\d+)?$/, "expected seconds, e.g. 0.1389")
  .transform(Number)
  .pipe(seconds);

const csvRowSchema = z.object({
  command: z.string(),
  mean: secondsCell,
  stddev: secondsCell,
  median: secondsCell,
  user: secondsCell,
  system: secondsCell,
  min: secondsCell,
  max: secondsCell,
});

export function parseHyperfineCsv(text: string, source: string): ParsedRun {
  const table = readCsvTable(text, source);
  requireColumns(table, CSV_COLUMNS, source);
  if (table.rows.length === 0) {
    throw new InputError("malformed", `Not a valid hyperfine --export-csv file (${source}: line 2: no result rows)`, [
      { path: `${source}: line 2`, message: "expected one row per command after the header" },
    ]);
  }
  benchmarkLimit(table.rows.length, `${source}: line ${table.rows[MAX_BENCHMARKS]?.line ?? "?"}`);
  const parameterColumns = table.header.filter((column) => column.startsWith("parameter_"));
  const rows = table.rows.map((row) => {
    const where = `${source}: line ${row.line}`;
    const cells = parseWire(csvRowSchema, row.cells, `hyperfine --export-csv row (${where})`, `${where}: `);
    const parameters = parameterColumns.map(
      (column) => [column.slice("parameter_".length), row.cells[column] ?? ""] as const,
    );
    return { cells, parameters };
  });
  const names = hyperfineNames(rows.map(({ cells, parameters }) => ({ command: cells.command, parameters })));
  const benchmarks = rows.map(({ cells, parameters }, index) => {
    const name = names[index] ?? cells.command;
    // hyperfine writes `stddev.unwrap_or(0.0)`: 0 for a single run, where min = max.
    const noSpreadKnown = cells.stddev === 0 && cells.min === cells.max;
    return benchmarkResult({
      name,
      fullName: fullNameOf(name, parameters),
      summary: {
        meanMs: toMs(cells.mean, "s"),
        minMs: toMs(cells.min, "s"),
        maxMs: toMs(cells.max, "s"),
        stdDevMs: noSpreadKnown ? null : toMs(cells.stddev, "s"),
        percentiles: { "50": toMs(cells.median, "s") },
        samples: null,
      },
      metrics: cpuMetrics(toMs(cells.user, "s"), toMs(cells.system, "s")),
    });
  });
  return benchmarkRun("hyperfine-csv", HYPERFINE_TOOL, benchmarks);
}

/** hyperfine's mean user and system CPU time of a run, as custom metrics in ms (lower is better). */
export function cpuMetrics(userMs: number | undefined, systemMs: number | undefined): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  if (userMs !== undefined) metrics.user = benchmarkMetric(userMs, "ms");
  if (systemMs !== undefined) metrics.system = benchmarkMetric(systemMs, "ms");
  return metrics;
}

function secondsToMs(value: number | undefined): number | undefined {
  return value === undefined ? undefined : toMs(value, "s");
}

function fullNameOf(name: string, parameters: readonly (readonly [string, string])[]): string | null {
  if (parameters.length === 0) return null;
  return `${name} [${parameters.map(([key, value]) => `${key} = ${value}`).join(", ")}]`;
}

/** A result as the JSON and CSV write it: its command (parameters substituted) and its parameters. */
export interface HyperfineCommand {
  command: string;
  /** In the file's order (hyperfine sorts them by name). */
  parameters: readonly (readonly [string, string])[];
}

/**
 * Each result's name as hyperfine prints it (`command_with_unused_parameters`): the command, then
 * ` (name = value, …)` for the parameters its template did not use. The files do not say which those are,
 * so it is worked out:
 * - a parameter with several values: unused by a result when another result with the same other
 *   parameters and another value of it ran the very same command (a used parameter changes the command);
 * - a parameter with one value (no such result to compare with): unused when its value is not in the
 *   command. A value that happens to appear in the command anyway (`-L n 1 'sleep 0.1'`) is taken as used:
 *   the one case where this name differs from the printed one.
 * Linear in results × parameters (a map per parameter), whatever the file holds.
 */
export function hyperfineNames(results: readonly HyperfineCommand[]): string[] {
  // Per parameter, per "the other parameters' values": which values ran each command.
  interface Siblings {
    values: Set<string>;
    /** Command → the values that ran it. */
    commands: Map<string, Set<string>>;
  }
  const siblings = new Map<string, Map<string, Siblings>>();
  const otherKey = (result: HyperfineCommand, parameter: string) =>
    JSON.stringify(result.parameters.filter(([key]) => key !== parameter));
  for (const result of results) {
    for (const [parameter, value] of result.parameters) {
      const byOthers = siblings.get(parameter) ?? new Map<string, Siblings>();
      siblings.set(parameter, byOthers);
      const key = otherKey(result, parameter);
      const bucket = byOthers.get(key) ?? { values: new Set<string>(), commands: new Map<string, Set<string>>() };
      byOthers.set(key, bucket);
      bucket.values.add(value);
      bucket.commands.set(result.command, (bucket.commands.get(result.command) ?? new Set<string>()).add(value));
    }
  }
  return results.map((result) => {
    const unused = result.parameters.filter(([parameter, value]) => {
      const bucket = siblings.get(parameter)?.get(otherKey(result, parameter));
      if (bucket && bucket.values.size > 1) return (bucket.commands.get(result.command)?.size ?? 0) > 1;
      return value !== "" && !result.command.includes(value);
    });
    if (unused.length === 0) return result.command;
    return `${result.command} (${unused.map(([parameter, value]) => `${parameter} = ${value}`).join(", ")})`;
  });
}
