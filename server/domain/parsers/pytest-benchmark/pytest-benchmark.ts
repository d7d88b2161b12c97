/**
 * pytest-benchmark (checked on 3.2.2 with pytest 7.2): its JSON (`--benchmark-json=<file>`, or a file
 * --benchmark-save keeps) and pytest's console output with its tables. Both are read into the same
 * benchmarks and built into a run by pytest-benchmark-run.ts: a benchmark is `group > name` with its
 * parameters (`sort > test_sort[100]`), the same whichever output is uploaded.
 *
 * JSON, kept: every round of each benchmark (`stats.data`, its time per iteration, checked to average to
 * `stats.mean`) as samples of time per operation; without `data` (a saved file without
 * --benchmark-save-data), pytest-benchmark's min, max, mean, stddev and median; `stats.ops`; numeric
 * `extra_info` values as metrics of unknown direction; the testbed from machine_info (system, machine,
 * CPU brand; never `node`, the host name); python_implementation and python_version as attributes; git
 * commit and branch from commit_info (the upload's metadata overrides them) and `dirty` as the attribute
 * git_dirty; `datetime` (when the file was written, at the session's end) as the start; the plugin's
 * version. Dropped: options, params (already in the name), iqr/q1/q3/outliers (percentiles come from the
 * samples), iterations per round, the rest of machine_info and commit_info.
 *
 * Console, kept: per benchmark the columns the run printed (min, max, mean, stddev, median as p50,
 * rounds as the sample count, OPS scaled to ops/s), the plugin's version, the Python version, the
 * session's duration. Dropped: IQR and outliers, the ratios to the best, and the testbed (the console
 * names only the OS: pass testbed= to match the JSON's). A group is told apart by its name only when
 * grouped by group (pytest-benchmark's default --benchmark-group-by).
 */
export { parsePytestBenchmark } from "./pytest-benchmark-json";
export { parsePytestBenchmarkText } from "./pytest-benchmark-text";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{machine_info, commit_info, benchmarks: [...], datetime, version}`. */
export function isPytestBenchmarkJson(value: Record<string, unknown>): boolean {
  return (
    Array.isArray(value.benchmarks) && isRecord(value.machine_info) && ("datetime" in value || "commit_info" in value)
  );
}

/**
 * pytest's header line of the plugin (`benchmark: 3.2.2 (defaults: timer=…`), or, when pytest ran
 * quiet (-q), the labels line of a table (`Name (time in us)   Min …`).
 */
export function isPytestBenchmarkText(start: string): boolean {
  if (/^benchmark: \S+ \(defaults: /m.test(start.slice(0, 64 * 1024))) return true;
  return /^Name \(time in [a-z]*s\) +[A-Z]/m.test(start.slice(0, 4 * 1024 * 1024));
}
