/**
 * Google Benchmark's console output (`--benchmark_format=console`, the default, with stderr: the context
 * lines come on stderr, the table on stdout), read into the rows google-benchmark-run.ts builds a run
 * from, so it gives the JSON's names, testbed and metrics to the printed precision.
 *
 * As Google Benchmark 1.7 prints it (src/reporter.cc PrintBasicContext, src/console_reporter.cc):
 * - context: the date, `Running ./micro_bench`, `Run on (2 X 2596.14 MHz CPU s)`, `CPU Caches:` with
 *   `  L1 Data 32 KiB (x2)` lines, `Load Average: …`, `--benchmark_context` pairs, and the warnings
 *   `***WARNING*** CPU scaling is enabled…` and `***WARNING*** Library was built as DEBUG…` (printed
 *   exactly when the library is a debug build, so with the context present and no such line it is a
 *   release build);
 * - the table: `Benchmark  Time  CPU  Iterations UserCounters...` between dashed lines, the name column
 *   as wide as the longest name (`%-*s`), times printed by FormatTime (`%10.3f` below 1, `%10.2f` below
 *   10, `%10.1f` below 100, `%10.0f` below 1e9, else `%10.4e`) then the unit, the iterations, then the
 *   counters as `name=value` (or, with --benchmark_counters_tabular, one column each). Counters are
 *   printed by HumanReadableNumber with 6 significant digits and a prefix (k, M, G… of 1000, or of 1024
 *   for a kIs1024 counter, which 1.7 prints with the same letters and later versions with `K`), `/s` for a
 *   rate; `bytes_per_second` (SetBytesProcessed) is the one counter known to be kIs1024;
 * - aggregate rows `<name>_mean`, `_median`, `_stddev`, `_cv` (in %) after the repetitions of their
 *   benchmark, their Iterations column being the number of repetitions; `<family>_BigO` (the coefficient
 *   and the complexity, in the family's time unit) and `<family>_RMS` (in %);
 * - `ERROR OCCURRED: '…'` (or `SKIPPED: '…'`) in place of the numbers of a failed repetition.
 */
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { isTimeUnit, type TimeUnit } from "../benchmark";
import { buildGbenchRun, gbenchDateOf, type GbenchContext, type GbenchRow } from "./google-benchmark-run";

/** The table header: `%-*s %13s %15s %12s` of Benchmark, Time, CPU, Iterations, then counters. */
const HEADER = /^Benchmark +Time +CPU +Iterations(?: (.*))?$/;
const RUN_ON = /^Run on \((\d+) X (\d+(?:\.\d+)?) MHz CPU ?s?\)$/;
const CACHE = /^ {2}L(\d+) (\S+) (\d+) (KiB|MiB)(?: \(x\d+\))?$/;
const DEBUG_WARNING = "***WARNING*** Library was built as DEBUG";
const SCALING_WARNING = "***WARNING*** CPU scaling is enabled";
/** A time as FormatTime prints it. */
const TIME = /^\d+(?:\.\d+)?(?:e[+-]\d+)?$/;
const COUNTER_VALUE = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|Zi|Yi|[kKMGTPEZYmunpfazy])?(\/s|s)?$/;
const BIG_PREFIXES = "kMGTPEZY";
const SMALL_PREFIXES = "munpfazy";

interface Table {
  /** The name column's width: the header's "Time" ends 14 characters after it. */
  nameWidth: number;
  /** Counter columns of a tabular table; null for `name=value` counters. */
  counterColumns: string[] | null;
}

interface ReadState {
  rows: GbenchRow[];
  /** Repetitions read so far per benchmark, failed ones included. */
  repetitions: Map<string, number>;
  lastIteration: string | null;
  /** The aggregate rows being read: their benchmark and the repetitions they are over. */
  aggregateBlock: { base: string; repetitions: number } | null;
  /** The time unit of the last benchmark row: a BigO row is printed in its family's unit. */
  lastUnit: TimeUnit | null;
}

export function parseGoogleBenchmarkConsole(text: string, source: string): ParsedRun {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  const context: GbenchContext = {
    startedAt: null,
    numCpus: null,
    mhzPerCpu: null,
    caches: [],
    libraryBuildType: null,
    cpuScalingEnabled: null,
    libraryVersion: null,
  };
  let sawContext = false;
  let sawDebugWarning = false;
  let firstLine = true;
  let table: Table | null = null;
  const state: ReadState = {
    rows: [],
    repetitions: new Map(),
    lastIteration: null,
    aggregateBlock: null,
    lastUnit: null,
  };
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const where = `${source}: line ${index + 1}`;
    if (line.trim() === "") continue;
    const header = HEADER.exec(line);
    if (header) {
      table = tableOf(line, header[1], where);
      continue;
    }
    if (table !== null) {
      if (!/^-+$/.test(line)) readRow(line, table, where, state);
      continue;
    }
    // The context, before the table: lines it does not know (the program's own output) are passed over.
    if (firstLine) context.startedAt = gbenchDateOf(line.trim());
    firstLine = false;
    const runOn = RUN_ON.exec(line);
    const cache = CACHE.exec(line);
    if (runOn) {
      sawContext = true;
      context.numCpus = Number(runOn[1]);
      context.mhzPerCpu = Number(runOn[2]);
    } else if (cache) {
      const size = Number(cache[3]) * (cache[4] === "MiB" ? 1024 * 1024 : 1024);
      context.caches.push({ level: Number(cache[1]), type: cache[2] ?? "", sizeBytes: size });
    } else if (line.startsWith(DEBUG_WARNING)) sawDebugWarning = true;
    else if (line.startsWith(SCALING_WARNING)) context.cpuScalingEnabled = true;
  }
  if (table === null) {
    throw new InputError(
      "malformed",
      `Google Benchmark console: no "Benchmark  Time  CPU  Iterations" table in ${source}`,
      [{ path: `${source}: line ${lines.length}`, message: "expected the table of Google Benchmark's console output" }],
    );
  }
  if (sawDebugWarning) context.libraryBuildType = "debug";
  else if (sawContext) context.libraryBuildType = "release";
  return buildGbenchRun("google-benchmark-console", state.rows, context, printedMeanTolerance);
}

function tableOf(line: string, counters: string | undefined, where: string): Table {
  const nameWidth = line.indexOf(" Time") + " Time".length - 14;
  if (nameWidth < "Benchmark".length)
    throw malformed(where, "the header's Time column is not where Google Benchmark puts it");
  const names = counters?.trim().split(/ +/) ?? [];
  const counterColumns = names.length === 0 || (names.length === 1 && names[0] === "UserCounters...") ? null : names;
  return { nameWidth, counterColumns };
}

function readRow(line: string, table: Table, where: string, state: ReadState): void {
  const name = line.slice(0, table.nameWidth).trimEnd();
  const rest = line.slice(table.nameWidth);
  if (name === "" || /^\s/.test(name)) throw malformed(where, "expected a benchmark's name in the first column");
  if (!rest.startsWith(" "))
    throw malformed(where, `the name is wider than the header's Benchmark column (${table.nameWidth} characters)`);
  const body = rest.trim();
  const failed = body.startsWith("ERROR OCCURRED:");
  if (failed || body.startsWith("SKIPPED")) {
    state.rows.push({
      kind: "iteration",
      runName: name,
      where,
      realTime: null,
      cpuTime: null,
      unit: null,
      counters: {},
      failed,
    });
    countRepetition(name, state);
    return;
  }
  const [real, realUnit, cpu, cpuUnit, ...after] = body.split(/ +/);
  if (real === undefined || realUnit === undefined || cpu === undefined || cpuUnit === undefined) {
    throw malformed(where, `"${clip(line)}" is cut short: expected the time, the CPU time and their units`);
  }
  const realTime = timeOf(real, where);
  const cpuTime = timeOf(cpu, where);
  if (realUnit === "%" && after.length === 0) {
    if (!name.endsWith("_RMS"))
      throw malformed(where, "a row in % without iterations should be a complexity fit's _RMS");
    // Both columns are printed `%10.0f`; the JSON keeps the CPU one as `rms` (a fraction).
    state.rows.push({ kind: "complexity", name, where, bigO: null, rms: cpuTime / 100 });
    return;
  }
  if (realUnit !== "%" && !isTimeUnit(realUnit)) {
    if (!name.endsWith("_BigO") || after.length > 0)
      throw malformed(where, `"${realUnit.slice(0, 20)}" is not a time unit (ns, us, ms, s)`);
    if (state.lastUnit === null) throw malformed(where, "a _BigO row before any row of its family");
    const bigO = { realCoefficient: realTime, cpuCoefficient: cpuTime, unit: state.lastUnit, complexity: realUnit };
    state.rows.push({ kind: "complexity", name, where, bigO, rms: null });
    return;
  }
  if (cpuUnit !== realUnit)
    throw malformed(where, `the CPU time's unit "${cpuUnit.slice(0, 20)}" is not the time's "${realUnit}"`);
  const [iterationsText, ...counterTexts] = after;
  if (iterationsText === undefined || !/^\d+$/.test(iterationsText)) {
    throw malformed(where, `"${clip(line)}" is cut short: expected the Iterations column`);
  }
  const iterations = Number(iterationsText);
  const aggregate = aggregateOf(name, iterations, state);
  const unit = realUnit === "%" ? null : realUnit;
  if (aggregate) {
    // A cv row's counters are percentages of their means, not counters.
    const counters = unit === null ? {} : countersOf(counterTexts, table, where);
    const { base, statistic } = aggregate;
    // cv is printed in % of the mean; the JSON holds it as a fraction.
    const [realValue, cpuValue] = unit === null ? [realTime / 100, cpuTime / 100] : [realTime, cpuTime];
    state.rows.push({
      kind: "aggregate",
      runName: base,
      where,
      aggregate: statistic,
      realTime: realValue,
      cpuTime: cpuValue,
      unit,
      repetitions: iterations,
      counters,
    });
    state.aggregateBlock = { base, repetitions: iterations };
    if (unit !== null) state.lastUnit = unit;
    return;
  }
  if (unit === null) throw malformed(where, "a row in % that is not the _cv of the benchmark above it");
  state.rows.push({
    kind: "iteration",
    runName: name,
    where,
    realTime,
    cpuTime,
    unit,
    counters: countersOf(counterTexts, table, where),
    failed: false,
  });
  countRepetition(name, state);
  state.lastUnit = unit;
}

/** A repetition, measured or failed: Google Benchmark's aggregates say how many there were of both. */
function countRepetition(name: string, state: ReadState): void {
  state.repetitions.set(name, (state.repetitions.get(name) ?? 0) + 1);
  state.lastIteration = name;
  state.aggregateBlock = null;
}

/**
 * Whether `<base>_<statistic>` is an aggregate row: it follows its benchmark's repetitions and its
 * Iterations column is their number, or it continues such a block; with the aggregates only
 * (--benchmark_display_aggregates_only) a block starts with `_mean` over 2 or more repetitions.
 * A benchmark that merely has an underscore in its name (`BM_Sort_fast` after `BM_Sort`) is not one.
 */
function aggregateOf(name: string, iterations: number, state: ReadState): { base: string; statistic: string } | null {
  const cut = name.lastIndexOf("_");
  if (cut <= 0) return null;
  const base = name.slice(0, cut);
  const statistic = name.slice(cut + 1);
  if (statistic === "") return null;
  const block = state.aggregateBlock;
  if (block && block.base === base && block.repetitions === iterations) return { base, statistic };
  if (base === state.lastIteration && iterations === state.repetitions.get(base) && iterations >= 2)
    return { base, statistic };
  if (statistic === "mean" && !state.repetitions.has(base) && iterations >= 2) return { base, statistic };
  return null;
}

function countersOf(texts: readonly string[], table: Table, where: string): Record<string, number> {
  const counters: Record<string, number> = {};
  if (table.counterColumns !== null) {
    for (const [index, column] of table.counterColumns.entries()) {
      const text = texts[index];
      if (text === undefined) throw malformed(where, `the row is cut short: no value for the counter column ${column}`);
      const value = counterValueOf(column, text);
      if (value === null) throw malformed(where, `"${clip(text)}" is not a value of the counter ${column}`);
      counters[column] = value;
    }
    return counters;
  }
  for (const text of texts) {
    const equals = text.indexOf("=");
    // The first word that is no `name=value` counter starts the benchmark's label (SetLabel), dropped.
    if (equals <= 0) break;
    const key = text.slice(0, equals);
    const value = counterValueOf(key, text.slice(equals + 1));
    if (value === null) break;
    counters[key] = value;
  }
  return counters;
}

/** `1068.93M/s` → 1.06893e9; `99.8293G/s` of bytes_per_second → 99.8293 × 2^30 (see the header). */
function counterValueOf(name: string, text: string): number | null {
  const match = COUNTER_VALUE.exec(text);
  if (!match) return null;
  const mantissa = Number(match[1]);
  const prefix = match[2] ?? "";
  if (prefix === "") return mantissa;
  const iec = prefix.endsWith("i") || prefix === "K" || name === "bytes_per_second";
  const base = iec ? 1024 : 1000;
  const letter = prefix === "K" ? "k" : prefix.charAt(0);
  const big = BIG_PREFIXES.indexOf(letter);
  if (big >= 0) return mantissa * base ** (big + 1);
  return mantissa / base ** (SMALL_PREFIXES.indexOf(letter) + 1);
}

function timeOf(text: string, where: string): number {
  if (!TIME.test(text)) throw malformed(where, `"${clip(text)}" is not a time as Google Benchmark prints it`);
  return Number(text);
}

/**
 * The step FormatTime prints a time with (see the header); Google Benchmark's mean is printed to its
 * step and each repetition to its own, so their means may differ by half of each.
 */
export function printedTimeStep(value: number): number {
  if (value < 1) return 0.001;
  if (value < 10) return 0.01;
  if (value < 100) return 0.1;
  if (value < 1e9) return 1;
  return 10 ** (Math.floor(Math.log10(value)) - 4);
}

function printedMeanTolerance(mean: number, repetitions: readonly number[]): number {
  let coarsest = 0;
  for (const repetition of repetitions) coarsest = Math.max(coarsest, printedTimeStep(repetition));
  return (printedTimeStep(mean) + coarsest) / 2 + Math.abs(mean) * 1e-9;
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid Google Benchmark console output (${where}: ${message})`, [
    { path: where, message },
  ]);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
