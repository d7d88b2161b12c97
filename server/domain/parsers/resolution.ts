/**
 * The latency resolution of each ingest format: the smallest change a stored latency statistic can show,
 * given how the tool recorded and printed it and how OUR parser turned that into a number. A comparison
 * must never call a change smaller than this significant: Locust's p50 going 9 → 10 ms is one step of its
 * histogram, not a measured +11%.
 *
 * A resolution has two sources, and the coarser wins:
 * - recording: the tool keeps each latency on a grid before any statistic is taken (Locust rounds it into
 *   its histogram, autocannon and wrk count whole ms/µs, artillery's sketch keeps ~2% buckets of whole-ms
 *   times, JMeter writes whole ms);
 * - printing: a text report writes a fixed number of decimals in a unit chosen by magnitude (wrk `%.2f`
 *   us/ms/s/m, hey `%4.4f` seconds, vegeta Go durations rounded to the unit below the value's own).
 * The value decides the step where the tool switches grids or units by magnitude; on a switch the coarser
 * step is returned (a stored value exactly on the edge may have been printed in either unit).
 *
 * Where OUR parser computes a statistic from per-request samples (hey and ghz CSV rows, JMeter JTL
 * samples), two cases differ:
 * - percentiles interpolate between two ranks (`stats/percentile.ts`), so a stored p95 of whole-ms
 *   samples can read 12.35: not a multiple of 1 ms, yet it only moves when a whole-ms sample moves, so
 *   its resolution is still the sample's step (`INTERPOLATED_PERCENTILE_FORMATS` names these formats);
 * - the mean of n samples moves in steps of step/n and their rounding averages out (Sheppard's
 *   corrections: rounding to a step h adds variance h²/12 per sample and, for a spread wider than a step,
 *   no bias to the mean), so it is not confined to the grid: such means are full precision (0), and the
 *   sampling noise is the statistics' business, not the format's.
 */
import { metricDefinition } from "../metrics";
import type { FormatId } from "../run";

/** Which latency statistic a metric name is; null for anything else (throughput, errorRate, metrics.*). */
type LatencyStat = "percentile" | "mean" | "min" | "max";

/** A format's rule: the step (ms) of a statistic of about `valueMs`; 0 when stored at full precision. */
type ResolutionRule = (stat: LatencyStat, valueMs: number) => number;

/**
 * Formats whose stored percentiles OUR parser interpolates between the ranks of stepped samples: not
 * multiples of the step, but only as informative as it (see the header).
 */
export const INTERPOLATED_PERCENTILE_FORMATS: ReadonlySet<FormatId> = new Set([
  "hey-csv",
  "ghz-csv",
  "jmeter-csv",
  "jmeter-xml",
  "google-benchmark-console",
  "go-bench-text",
  "go-bench-json",
]);

/**
 * Formats whose stored time is the reciprocal of a printed rate (benchmark.js prints ops/s; its mean time
 * per operation is 1000 / hz ms): not a multiple of any step, but 1000 / value is a multiple of the
 * rate's printed step. Their rule's step is that rate step seen in ms at the value (see the rule).
 */
export const RECIPROCAL_RATE_FORMATS: ReadonlySet<FormatId> = new Set(["benchmarkjs-text"]);

/**
 * artillery's summaries come from a DDSketch built with relativeAccuracy 0.01 (artillery
 * packages/core/lib/ssms.js `_aggregateHistograms`): a quantile is its bucket's representative value, and
 * representatives are spaced by the factor γ = (1 + α)/(1 − α) (DDSketch's logarithmic key mapping;
 * Masson, Rim & Lee, "DDSketch", PVLDB 12(12), 2019).
 */
export const ARTILLERY_SKETCH_RELATIVE_ACCURACY = 0.01;
export const ARTILLERY_SKETCH_GAMMA =
  (1 + ARTILLERY_SKETCH_RELATIVE_ACCURACY) / (1 - ARTILLERY_SKETCH_RELATIVE_ACCURACY);

const FULL_PRECISION: ResolutionRule = () => 0;

/**
 * Locust rounds each response time before counting it in `response_times`: whole ms below 100 ms, 10 ms
 * below 1 s, 100 ms below 10 s, then 1 s (locust/stats.py `StatsEntry._log_response_time`); every
 * percentile is read from those keys (`calculate_response_time_percentile`), so it is a key. Rounding can
 * carry a value up to the next range (99.6 → 100), where the next range's step applies: keys stay multiples
 * of the step of their own magnitude. Checked on every Locust fixture (resolution.test.ts).
 * (A _stats.csv without its "Max Response Time" column gets its max from the "100%" column, a key too; the
 * rule cannot see that case and says full precision for the max.)
 */
function locustHistogramStepMs(valueMs: number): number {
  if (valueMs < 100) return 1;
  if (valueMs < 1_000) return 10;
  if (valueMs < 10_000) return 100;
  return 1_000;
}

/**
 * wrk 4.1 prints a time with `%.2f` in a unit chosen by magnitude (src/units.c `format_time_us`): µs below
 * 0.85 × 1000 µs, ms below 1 s (the µs table stops at ms), s below 0.85 × 60 s, then minutes (the s table
 * stops at m). Checked on the wrk fixtures (`5.17ms`).
 */
function wrkPrintStepMs(valueMs: number): number {
  if (valueMs < 0.85) return 0.01 / 1_000; // "849.99us"
  if (valueMs < 1_000) return 0.01; // "999.99ms"
  if (valueMs < 51_000) return 10; // "50.99s"
  return 600; // "0.85m": a hundredth of a minute
}

/** wrk counts each latency in whole µs (src/wrk.c `time_us`; percentiles and max come from src/stats.c counts). */
const WRK_SAMPLE_STEP_MS = 0.001;

/**
 * vegeta's text report rounds a duration to the unit below its own (lib/reporters.go `round`: ≥ 1 h to
 * the minute, ≥ 1 min to the second, ≥ 1 s to the ms, ≥ 1 ms to the µs) and prints it with Go's
 * Duration.String; below 1 ms it keeps the ns, vegeta's own precision. Checked on the fixture: JSON
 * 1388484 ns is printed `1.388ms`.
 */
function vegetaTextStepMs(valueMs: number): number {
  if (valueMs >= 3_600_000) return 60_000;
  if (valueMs >= 60_000) return 1_000;
  if (valueMs >= 1_000) return 1;
  if (valueMs >= 1) return 0.001;
  return 0;
}

/**
 * autocannon records latencies in an HDR histogram with lowestDiscernibleValue 1 ms and 5 significant
 * digits (lib/histUtil.js `getHistograms`), so each response time lands in a bucket of whole ms up to
 * 2^18 ms, then 2 ms, 4 ms… per doubling (HdrHistogram's sub-bucket count for 5 digits is 2^18).
 * Percentiles, min and max are bucket values (hdr-histogram-percentiles-obj `addPercentiles`,
 * `histAsObj`). Checked on the autocannon fixtures.
 */
function autocannonHistogramStepMs(valueMs: number): number {
  const wholeMsUpTo = 2 ** 18;
  return valueMs < wholeMsUpTo ? 1 : 2 ** (Math.floor(Math.log2(valueMs)) - 17);
}

/**
 * hyperfine 1.15 prints a time in the unit of a mean (src/util/units.rs `format_duration_value`: µs below
 * 1 ms, ms below 1 s, else s; the console takes each benchmark's mean, the Markdown table the first
 * command's) with `{:.1}` in µs and ms and `{:.3}` in s. The rule goes by the value's own size, the unit
 * its mean would pick; a min or max on the other side of 1 ms or 1 s than its mean, or a table whose
 * first command is much faster or slower than the others, was printed in the mean's unit instead
 * (`--time-unit` forces one too). Checked on the fixtures: `138.9 ms` where the JSON has 0.13891718445 s.
 */
function hyperfinePrintStepMs(valueMs: number): number {
  if (valueMs < 1) return 0.0001;
  if (valueMs < 1_000) return 0.1;
  return 1;
}

/**
 * Go prints ns/op, like every `b.ReportMetric` value, with testing's `prettyPrint` (testing/benchmark.go):
 * `%.0f` from 999.95 ns, else four significant digits (`%.1f` from 99.995, `%.2f` from 9.9995 … down to
 * `%.7f`). On the printed value that is whole ns from 1,000 ns and a decade finer per decade below.
 * (Go before prettyPrint printed whole ns from 100 ns; files that old are not told apart.) Checked on
 * the fixtures: `84016 ns/op`, `18.38 ns/lookup`.
 */
function goPrintStepMs(valueMs: number): number {
  const ns = valueMs * 1e6;
  let stepNs = 1;
  let threshold = 1_000;
  // A stored value a float's error under its printed decade (1000 → 999.9999999999) is of that decade.
  while (ns < threshold * (1 - 1e-9) && stepNs > 1e-7 * (1 + 1e-9)) {
    threshold /= 10;
    stepNs /= 10;
  }
  return stepNs * 1e-6;
}

/**
 * benchmark.js prints hz with `hz.toFixed(hz < 100 ? 2 : 0)` (benchmark 2.1.4 `toStringBench`): whole ops/s
 * from 100 ops/s, 0.01 ops/s below. The stored mean 1000 / hz ms moves, for one step Δ of the rate, by
 * 1000·Δ / hz² = Δ · valueMs² / 1000 ms. At exactly 10 ms (100 ops/s, printable either way) the coarser.
 */
function benchmarkjsStepMs(valueMs: number): number {
  const rateStep = valueMs <= 10 ? 1 : 0.01;
  return (rateStep * valueMs * valueMs) / 1000;
}

/** hey prints every time in seconds with `%4.4f` (requester/print.go `print`, `printCSV`): 0.1 ms. */
const HEY_STEP_MS = 0.1;

const RULES: Readonly<Record<FormatId, ResolutionRule>> = {
  // benchtrack/v1 states its numbers itself; nothing says how its writer rounded them.
  benchtrack: FULL_PRECISION,
  // k6 keeps trend values as float64 ms of ns durations and writes them as JSON floats (fixtures:
  // `"p(95)": 21.747017399999994`); NDJSON points likewise (`"value": 4.185122`).
  "k6-summary": FULL_PRECISION,
  "k6-handle-summary": FULL_PRECISION,
  "k6-new-summary": FULL_PRECISION,
  "k6-ndjson": FULL_PRECISION,
  // Percentiles are histogram keys; min, max and total_response_time are the unrounded times.
  "locust-json": (stat, valueMs) => (stat === "percentile" ? locustHistogramStepMs(valueMs) : 0),
  // The percentile columns are int() of those keys (stats.py `StatsCSV._percentile_fields`); min, max and
  // average are written unrounded (`_requests_data_rows`; fixture: `5.600060999995549`).
  "locust-csv": (stat, valueMs) => (stat === "percentile" ? locustHistogramStepMs(valueMs) : 0),
  // As the CSV, but the report rounds min and max to whole ms (stats.py `StatsEntry.to_dict`:
  // proper_round; fixture: 6.0 where the CSV of the same run says 5.600060999995549). The mean is unrounded.
  "locust-html": (stat, valueMs) => {
    if (stat === "percentile") return locustHistogramStepMs(valueMs);
    return stat === "mean" ? 0 : 1;
  },
  // ghz's JSON holds integer ns (runner/reporter.go), its full precision.
  ghz: FULL_PRECISION,
  // `%4.2f` ms per call (printer/template.go `formatMilli`): 10 µs samples; the mean over them is ours.
  "ghz-csv": (stat) => (stat === "mean" ? 0 : 0.01),
  // vegeta's JSON holds integer ns (lib/metrics.go LatencyMetrics), its full precision.
  "vegeta-json": FULL_PRECISION,
  "vegeta-text": (_stat, valueMs) => vegetaTextStepMs(valueMs),
  // A histogram report holds no latency statistic at all (bucket counts only).
  "vegeta-hist": FULL_PRECISION,
  // Fastest/Average/Slowest and the distribution, all `%4.4f` seconds.
  "hey-text": () => HEY_STEP_MS,
  // Rows are `%4.4f` seconds: 0.1 ms samples; the mean over them is ours.
  "hey-csv": (stat) => (stat === "mean" ? 0 : HEY_STEP_MS),
  // The mean is a long double printed `%.2f`; percentiles and max are whole µs printed the same way.
  "wrk-text": (stat, valueMs) =>
    stat === "mean" ? wrkPrintStepMs(valueMs) : Math.max(wrkPrintStepMs(valueMs), WRK_SAMPLE_STEP_MS),
  // The mean is rounded UP to 2 decimals (hdr-histogram-percentiles-obj `histAsObj`: Math.ceil(mean × 100) / 100).
  "autocannon-json": (stat, valueMs) => (stat === "mean" ? 0.01 : autocannonHistogramStepMs(valueMs)),
  "artillery-json": artilleryStepMs,
  // The console prints the same rounded summaries as report.json (fixture: both say p95 8.9 for GetListing).
  "artillery-console": artilleryStepMs,
  // `elapsed`/`t` is whole ms (JMeter's SampleResult times are ms; the parser refuses fractions).
  "jmeter-csv": (stat) => (stat === "mean" ? 0 : 1),
  "jmeter-xml": (stat) => (stat === "mean" ? 0 : 1),
  // Microbenchmarks: each parser's file says what its tool rounds (the rule is filled in with the parser).
  // go test: each sample is ns/op as printed (min, max and the interpolated percentiles are only that
  // precise); the mean over the samples is ours. -json carries the very same text.
  "go-bench-text": (stat, valueMs) => (stat === "mean" ? 0 : goPrintStepMs(valueMs)),

  "go-bench-json": (stat, valueMs) => (stat === "mean" ? 0 : goPrintStepMs(valueMs)),

  // hyperfine's JSON and CSV write each time as a float64 of seconds (the CSV with Rust's shortest
  // round-trip digits: `0.13891718445000004`), measured on a ns clock.
  "hyperfine-json": FULL_PRECISION,

  "hyperfine-csv": FULL_PRECISION,

  "hyperfine-markdown": (_stat, valueMs) => hyperfinePrintStepMs(valueMs),

  "hyperfine-text": (_stat, valueMs) => hyperfinePrintStepMs(valueMs),

  // stats.data are perf_counter differences divided by the iterations, written as Python floats (repr).
  "pytest-benchmark": FULL_PRECISION,

  "pytest-benchmark-text": (_stat, valueMs) => pytestTablePrintStepMs(valueMs),

  // The JSON writer prints the doubles Google Benchmark computed (fixture: `59.87551667193106`).
  "google-benchmark-json": FULL_PRECISION,

  // Repetitions are printed (min, max; percentiles interpolate between them); the mean over them is ours.
  "google-benchmark-console": (stat, valueMs) => (stat === "mean" ? 0 : gbenchConsolePrintStepMs(valueMs)),

  // tinybench's times are performance.now() differences, float64 ms (fixture: `0.0642760000000635`).
  "vitest-bench": FULL_PRECISION,

  // The console prints ms with `toFixed(4)` below 100 and `toFixed(2)` from 100 on (reporters/renderers
  // `formatNumber`): the value itself decides. Fixture: `0.0643` where the JSON has 0.0642760000000635.
  "vitest-bench-text": (_stat, valueMs) => (valueMs < 100 ? 0.0001 : 0.01),

  // Only the mean is stored (1000 / hz): the step of the printed ops/s.
  "benchmarkjs-text": (_stat, valueMs) => benchmarkjsStepMs(valueMs),

  // JMH writes scores and iteration scores as Java doubles (JSONResultFormat.emit: String.valueOf, the
  // shortest round-trip digits). Sample mode's times are whole ns with 10 significant bits
  // (util/SampleBuffer.java): a step of 0.1–0.2%, which this rule, blind to the mode, does not model.
  "jmh-json": FULL_PRECISION,

  // sample.json holds f64 ns totals per sample (serde_json, shortest round-trip); a time per iteration is
  // a total over many iterations divided by their count, so it is not confined to the timer's ns grid.
  "criterion-json": FULL_PRECISION,

  // Nanoseconds are doubles that SimpleJson writes with ToString("r") (round-trip), divided here by the
  // operations of each iteration.
  "benchmarkdotnet-json": FULL_PRECISION,

  // Valgrind's files hold instruction counts (and other events), no time: no latency statistic to round.
  cachegrind: FULL_PRECISION,

  callgrind: FULL_PRECISION,
};

/**
 * pytest-benchmark's table prints every time `{:,.4f}` (table.py NUMBER_FMT) in one unit per group: the
 * unit of the group's smallest value of its sort column (utils.time_unit: ns below 1 µs, µs below 1 ms,
 * ms below 1 s, else s; default sort min). A value's own unit is the coarsest it can have been printed
 * in, so the rule says 0.0001 of it; a value above its group's smallest may sit on a finer grid
 * (fixture: a max of `1,028.5860` µs in a µs group), which no rule from the value alone can see. All
 * the table's statistics are printed; none is ours. (A --benchmark-time-unit or a
 * pytest_benchmark_scale_unit hook can print coarser still; the file does not say.)
 */
function pytestTablePrintStepMs(valueMs: number): number {
  if (valueMs < 0.001) return 1e-4 * 1e-6;
  if (valueMs < 1) return 1e-4 * 1e-3;
  if (valueMs < 1_000) return 1e-4;
  return 1e-4 * 1_000;
}

/**
 * Google Benchmark's console prints a time with FormatTime (src/console_reporter.cc): `%.3f` below 1,
 * `%.2f` below 10, `%.1f` below 100, `%.0f` below 1e9, else `%.4e` (5 significant digits), in the
 * benchmark's unit: ns unless the benchmark says Unit(kMicrosecond…), which its values do not show, so
 * the rule is ns's grid (a benchmark in µs or ms is printed 1000× or 10^6× coarser than it says).
 */
function gbenchConsolePrintStepMs(valueMs: number): number {
  const ns = valueMs * 1e6;
  let stepNs: number;
  if (ns < 1) stepNs = 0.001;
  else if (ns < 10) stepNs = 0.01;
  else if (ns < 100) stepNs = 0.1;
  else if (ns < 1e9) stepNs = 1;
  else stepNs = 10 ** (Math.floor(Math.log10(ns)) - 4);
  return stepNs * 1e-6;
}

/**
 * artillery times a request with got's timer, whose timestamps are Date.now(), so each sample is whole ms
 * (@szmarczak/http-timer `timings.phases.firstByte`, which engine_http.js records as http.response_time);
 * the summary rounds min, max, mean and every quantile to 0.1 ms (ssms.js `summarizeHistogram`). Min and
 * max are exact samples (whole ms), the mean is printed to 0.1 ms, a quantile is a sketch representative:
 * it moves by one whole-ms sample, or by one ~2% bucket where buckets are wider than 1 ms (above ~50 ms).
 */
function artilleryStepMs(stat: LatencyStat, valueMs: number): number {
  if (stat === "mean") return 0.1;
  if (stat === "min" || stat === "max") return 1;
  return Math.max(1, valueMs * (ARTILLERY_SKETCH_GAMMA - 1));
}

/** "p95", "p99.9" (any percentile metrics.ts accepts) → "percentile"; "mean", "min", "max" as they are. */
function latencyStatOf(metric: string): LatencyStat | null {
  if (metric === "mean" || metric === "min" || metric === "max") return metric;
  const percentile = metricDefinition(metric)?.percentile;
  return percentile === null || percentile === undefined ? null : "percentile";
}

function isFormatId(format: string): format is FormatId {
  return Object.hasOwn(RULES, format);
}

/** The step (ms) in which `format` writes or records the latency statistic `metric` of about `valueMs`; 0 when written at full precision. */
export function latencyResolutionMs(format: string, metric: string, valueMs: number): number {
  if (!(valueMs >= 0) || !Number.isFinite(valueMs)) {
    // A latency is a finite, non-negative number of ms: anything else is the caller's bug, not data.
    throw new RangeError(`latencyResolutionMs: invalid latency ${valueMs}`);
  }
  const stat = latencyStatOf(metric);
  if (stat === null || !isFormatId(format)) return 0;
  return RULES[format](stat, valueMs);
}
