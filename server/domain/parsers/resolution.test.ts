import { describe, expect, it } from "vitest";
import { FORMAT_IDS, type EndpointResult, type FormatId } from "../run";
import { fixtureUploads } from "./fixtures/fixture-uploads";
import { readFixture } from "./fixtures/read-fixture";
import { FORMATS } from "./formats";
import { parseUpload } from "./index";
import {
  ARTILLERY_SKETCH_GAMMA,
  INTERPOLATED_PERCENTILE_FORMATS,
  latencyResolutionMs,
  RECIPROCAL_RATE_FORMATS,
} from "./resolution";

/** One stored latency statistic of a parsed fixture, with what is needed to check it against its step. */
interface Statistic {
  where: string;
  format: FormatId;
  metric: string;
  valueMs: number;
  /** The percentile (0..100) for a percentile metric, else null. */
  percentile: number | null;
  /** How many samples the result was computed from, when it keeps a histogram of them. */
  samples: number | null;
}

function statisticsOf(where: string, format: FormatId, result: EndpointResult): Statistic[] {
  const samples = result.histogram ? result.histogram.reduce((sum, bucket) => sum + bucket.count, 0) : null;
  const at = `${where} › ${result.name}`;
  const statistics: Statistic[] = Object.entries(result.latency.percentiles).map(([key, valueMs]) => ({
    where: at,
    format,
    metric: `p${key}`,
    valueMs,
    percentile: Number(key),
    samples,
  }));
  for (const metric of ["mean", "min", "max"] as const) {
    const valueMs = result.latency[`${metric}Ms`];
    if (valueMs !== null) statistics.push({ where: at, format, metric, valueMs, percentile: null, samples });
  }
  return statistics;
}

/** Every stored latency statistic of every fixture upload, parsed by the real parsers. */
function fixtureStatistics(): Statistic[] {
  return fixtureUploads().flatMap((upload) => {
    const files = upload.files.map(({ path, name }) => ({ name, text: readFixture(path) }));
    const { run, format } = parseUpload({ files });
    return [run.aggregate, ...run.endpoints].flatMap((result) => statisticsOf(upload.title, format, result));
  });
}

/** Whether `value` is a whole multiple of `step`, within floating-point error of the ms conversion. */
function isMultipleOf(valueMs: number, stepMs: number): boolean {
  const steps = valueMs / stepMs;
  return Math.abs(steps - Math.round(steps)) < 1e-6;
}

/**
 * Whether a percentile our parser interpolated (stats/percentile.ts: rank = p/100 × (n − 1), value =
 * lower + (upper − lower) × fraction) can come from samples on the `step` grid: with fraction 0 it is a
 * sample; otherwise lower = value − k × step × fraction is on the grid for some gap of k steps.
 */
function isInterpolationOfGrid(valueMs: number, stepMs: number, percentile: number, samples: number): boolean {
  const rank = (percentile / 100) * (samples - 1);
  const fraction = rank - Math.floor(rank);
  if (fraction < 1e-9) return isMultipleOf(valueMs, stepMs);
  const maxGap = Math.ceil(valueMs / stepMs / fraction) + 1;
  for (let gap = 0; gap <= maxGap; gap++) {
    const lowerMs = valueMs - gap * stepMs * fraction;
    if (lowerMs >= -1e-9 && isMultipleOf(lowerMs, stepMs)) return true;
  }
  return false;
}

/**
 * How artillery's summary shows a whole-ms sample as a quantile: the representative γ^key × 2 / (1 + γ)
 * of its DDSketch key ⌈log_γ(sample)⌉ (DDSketch's logarithmic mapping, @artilleryio/sketches-js), rounded
 * to 0.1 ms (ssms.js summarizeHistogram). A 0 ms sample is DDSketch's zero bucket.
 */
function artilleryQuantileShowing(sampleMs: number): number {
  if (sampleMs === 0) return 0;
  const key = Math.ceil(Math.log(sampleMs) / Math.log(ARTILLERY_SKETCH_GAMMA));
  return Math.round(ARTILLERY_SKETCH_GAMMA ** key * (2 / (1 + ARTILLERY_SKETCH_GAMMA)) * 10) / 10;
}

/** The whole-ms sample behind a quantile artillery wrote, or null when no whole-ms sample shows as it. */
function artillerySampleShownAs(valueMs: number): number | null {
  for (let sampleMs = Math.floor(valueMs * 0.97); sampleMs <= Math.ceil(valueMs * 1.03) + 1; sampleMs++) {
    if (Math.abs(artilleryQuantileShowing(sampleMs) - valueMs) < 1e-9) return sampleMs;
  }
  return null;
}

/** How far the next quantile artillery can show lies above `valueMs` (whole-ms samples only). */
function artilleryGapAbove(valueMs: number, sampleMs: number): number {
  let next = sampleMs + 1;
  while (artilleryQuantileShowing(next) <= valueMs + 1e-9) next++;
  return artilleryQuantileShowing(next) - valueMs;
}

describe("every stored latency statistic of every fixture agrees with its format's resolution", () => {
  const statistics = fixtureStatistics();
  const isArtilleryQuantile = (s: Statistic) =>
    (s.format === "artillery-json" || s.format === "artillery-console") && s.percentile !== null;
  const isInterpolated = (s: Statistic) => INTERPOLATED_PERCENTILE_FORMATS.has(s.format) && s.percentile !== null;
  /** A time stored as 1000 / a printed rate: the rate, and the rate's step the time's step stands for. */
  const printedRate = (s: Statistic, stepMs: number) => {
    const rate = 1000 / s.valueMs;
    return { rate, rateStep: (stepMs * rate * rate) / 1000 };
  };

  it("reads statistics from every format that has fixtures", () => {
    const formats = new Set(statistics.map((s) => s.format));
    // vegeta-hist and Valgrind's files (instruction counts) hold no latency statistic; JMeter could not run
    // and benchtrack/v1 is no tool's output (fixtures README); github-action-benchmark's and Bencher's
    // formats restate numbers another tool measured (full precision, as written) and keep their examples
    // beside their parsers (github-action-benchmark/examples, bencher/examples).
    const withoutStatistics = FORMAT_IDS.filter((format) => !formats.has(format));
    expect(withoutStatistics.sort()).toEqual([
      "bencher-bmf",
      "benchtrack",
      "cachegrind",
      "callgrind",
      "custom-bigger-is-better",
      "custom-smaller-is-better",
      "jmeter-csv",
      "jmeter-xml",
      "vegeta-hist",
    ]);
  });

  it("sits on the step the rule claims (a multiple of it, or explained otherwise)", () => {
    const offGrid = statistics.flatMap((s) => {
      const stepMs = latencyResolutionMs(s.format, s.metric, s.valueMs);
      if (stepMs === 0) return [];
      // A sketch representative of a whole-ms sample: not a multiple of anything, and never finer than 1 ms.
      if (isArtilleryQuantile(s)) return artillerySampleShownAs(s.valueMs) === null || stepMs < 1 ? [s] : [];
      // pytest-benchmark prints a group in its smallest value's unit: a larger value may sit on a finer
      // grid (0.0001 of a unit 1000 or 10^6 times smaller) than its own unit's, which the rule claims.
      if (s.format === "pytest-benchmark-text") return [1, 1e-3, 1e-6, 1e-9].some((f) => isMultipleOf(s.valueMs, stepMs * f)) ? [] : [s];
      if (RECIPROCAL_RATE_FORMATS.has(s.format)) {
        // 1000 / a printed rate: the rate is a multiple of its own step.
        const { rate, rateStep } = printedRate(s, stepMs);
        return isMultipleOf(rate, rateStep) ? [] : [s];
      }
      if (isInterpolated(s)) {
        // Interpolated between two stepped samples: not a multiple of the step, but made of such samples.
        if (s.samples === null || s.percentile === null) return [s];
        return isInterpolationOfGrid(s.valueMs, stepMs, s.percentile, s.samples) ? [] : [s];
      }
      return isMultipleOf(s.valueMs, stepMs) ? [] : [s];
    });
    expect(offGrid).toEqual([]);
  });

  it("claims the data's own step: the last digit each step claims is used, artillery's buckets are matched", () => {
    // Per format, statistic and step, some value is not a multiple of ten steps (e.g. Locust p50s below
    // 100 ms that are not multiples of 10), so no rule is coarser than the data. artillery's quantiles are
    // checked on the whole-ms samples behind them, and each one's step against the distance to the next
    // quantile artillery could have shown: about one sample, or one sketch bucket where a bucket holds several.
    const groups = new Map<string, number[]>();
    const tooCoarse: (Statistic & { stepMs: number; gapMs: number })[] = [];
    const tooFine: (Statistic & { stepMs: number; gapMs: number })[] = [];
    for (const s of statistics) {
      const stepMs = latencyResolutionMs(s.format, s.metric, s.valueMs);
      if (stepMs === 0 || isInterpolated(s)) continue;
      let [valueMs, groupStepMs] = [s.valueMs, stepMs];
      if (isArtilleryQuantile(s)) {
        const sampleMs = artillerySampleShownAs(s.valueMs) ?? Number.NaN;
        const gapMs = artilleryGapAbove(s.valueMs, sampleMs);
        if (stepMs > Math.max(1, gapMs) * 1.05 + 0.1) tooCoarse.push({ ...s, stepMs, gapMs });
        // Where the sample's sketch bucket holds other whole-ms samples too, the bucket is the step.
        const sharesBucket = [sampleMs - 1, sampleMs + 1].some((m) => artilleryQuantileShowing(m) === s.valueMs);
        if (sharesBucket && stepMs < gapMs * 0.9 - 0.1) tooFine.push({ ...s, stepMs, gapMs });
        [valueMs, groupStepMs] = [sampleMs, 1];
      }
      // A reciprocal of a printed rate: the rate's last digit is the one to be used.
      if (RECIPROCAL_RATE_FORMATS.has(s.format)) {
        const { rate, rateStep } = printedRate(s, stepMs);
        [valueMs, groupStepMs] = [rate, rateStep];
      }
      const key = `${s.format} ${s.percentile === null ? s.metric : "percentiles"} step ${groupStepMs} ms`;
      groups.set(key, [...(groups.get(key) ?? []), valueMs / groupStepMs]);
    }
    expect(tooCoarse).toEqual([]);
    expect(tooFine).toEqual([]);
    const unusedDigit = [...groups].filter(([, steps]) => steps.every((n) => isMultipleOf(n, 10)));
    expect(unusedDigit).toEqual([]);
    expect(groups.size).toBeGreaterThan(10);
  });

  it("claims full precision only where the data is finer than 1 µs", () => {
    const groups = new Map<string, number[]>();
    for (const s of statistics) {
      if (latencyResolutionMs(s.format, s.metric, s.valueMs) !== 0) continue;
      const key = `${s.format} ${s.percentile === null ? s.metric : "percentiles"}`;
      groups.set(key, [...(groups.get(key) ?? []), s.valueMs]);
    }
    const stepped = [...groups].filter(([, values]) => values.every((valueMs) => isMultipleOf(valueMs, 0.001)));
    expect(stepped).toEqual([]);
  });
});

describe("latencyResolutionMs, hand-computed", () => {
  it.each([
    // Locust: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (stats.py _log_response_time).
    ["locust-json", "p50", 99, 1],
    ["locust-json", "p50", 100, 10],
    ["locust-csv", "p95", 990, 10],
    ["locust-csv", "p95", 1_000, 100],
    ["locust-html", "p99", 9_900, 100],
    ["locust-html", "p99", 10_000, 1_000],
    ["locust-json", "p99.9", 60_000, 1_000],
    ["locust-json", "mean", 10_000, 0],
    ["locust-csv", "min", 5.6, 0],
    ["locust-csv", "max", 5_000, 0],
    ["locust-html", "min", 5_000, 1],
    ["locust-html", "mean", 5_000, 0],
    // wrk: "%.2f" in us below 850 µs, ms below 1 s, s below 51 s, then minutes; samples are whole µs.
    // Printed "849.99us", "0.85ms", "999.99ms", "1.00s", "50.99s", "0.85m" (4.1 never prints "999.99us").
    ["wrk-text", "p50", 0.84999, 0.001],
    ["wrk-text", "mean", 0.84999, 0.00001],
    ["wrk-text", "p50", 0.85, 0.01],
    ["wrk-text", "mean", 999.99, 0.01],
    ["wrk-text", "max", 1_000, 10],
    ["wrk-text", "p99", 50_990, 10],
    ["wrk-text", "p99", 51_000, 600],
    // vegeta text: rounded to the unit below the value's own; ns below 1 ms.
    ["vegeta-text", "p50", 0.5, 0],
    ["vegeta-text", "p50", 1, 0.001],
    ["vegeta-text", "mean", 999.999, 0.001],
    ["vegeta-text", "max", 1_000, 1],
    ["vegeta-text", "max", 59_999, 1],
    ["vegeta-text", "max", 60_000, 1_000],
    ["vegeta-text", "max", 3_600_000, 60_000],
    // hey: seconds with 4 decimals everywhere in the text report; the CSV's mean is ours.
    ["hey-text", "p99", 13.8, 0.1],
    ["hey-text", "mean", 5_000, 0.1],
    ["hey-csv", "p99.9", 17.9, 0.1],
    ["hey-csv", "min", 1.6, 0.1],
    ["hey-csv", "mean", 5.4558, 0],
    // ghz CSV: "%4.2f" ms per call; the mean over them is ours.
    ["ghz-csv", "p50", 7.45, 0.01],
    ["ghz-csv", "mean", 8.05, 0],
    // autocannon: whole ms up to 2^18 ms in its HDR histogram, the mean rounded up to 0.01 ms.
    ["autocannon-json", "p99.999", 24, 1],
    ["autocannon-json", "max", 262_143, 1],
    ["autocannon-json", "max", 262_144, 2],
    ["autocannon-json", "max", 600_000, 4],
    ["autocannon-json", "mean", 4.68, 0.01],
    // artillery: whole-ms samples, a ~2% sketch bucket above ~50 ms; the mean printed to 0.1 ms.
    ["artillery-json", "p95", 7, 1],
    ["artillery-json", "p95", 49, 1],
    ["artillery-json", "p95", 100, 100 * (ARTILLERY_SKETCH_GAMMA - 1)],
    ["artillery-console", "p99", 1_000, 1_000 * (ARTILLERY_SKETCH_GAMMA - 1)],
    ["artillery-console", "max", 1_000, 1],
    ["artillery-json", "mean", 8.7, 0.1],
    // JMeter: whole-ms elapsed; interpolated percentiles are still only whole-ms information.
    ["jmeter-csv", "p95", 12.35, 1],
    ["jmeter-xml", "min", 3, 1],
    ["jmeter-csv", "mean", 12.35, 0],
    // hyperfine's Markdown and console: `{:.1}` in µs below 1 ms and in ms below 1 s, `{:.3}` in s.
    ["hyperfine-text", "mean", 0.9999, 0.0001],
    ["hyperfine-text", "min", 1, 0.1],
    ["hyperfine-markdown", "mean", 999.9, 0.1],
    ["hyperfine-markdown", "max", 1_000, 1],
    // vitest bench's console: 4 decimals of ms below 100, 2 from 100 on.
    ["vitest-bench-text", "p99", 99.9999, 0.0001],
    ["vitest-bench-text", "max", 100, 0.01],
    // Full precision (ns or float64 ms on the wire).
    ["hyperfine-json", "p50", 137.0190635, 0],
    ["hyperfine-csv", "mean", 138.91718445, 0],
    ["vitest-bench", "p99.5", 0.135641, 0],
    // pytest-benchmark's table: 4 decimals in its group's unit, at most the value's own (printed "1,028.5860" us → own unit ms).
    ["pytest-benchmark-text", "max", 1.028586, 0.0001],
    ["pytest-benchmark-text", "mean", 0.0019406, 1e-7],
    ["pytest-benchmark-text", "p50", 0.0000005, 1e-10],
    ["pytest-benchmark-text", "min", 1_500, 0.1],
    // Google Benchmark's console: FormatTime in ns ("59.9 ns", "322925 ns", "9.55 ns", "0.021 ns", "2.0000e+09 ns"); the mean is ours.
    ["google-benchmark-console", "min", 0.0000599, 1e-7],
    ["google-benchmark-console", "p50", 0.322925, 1e-6],
    ["google-benchmark-console", "max", 0.00000955, 1e-8],
    ["google-benchmark-console", "min", 0.000000021, 1e-9],
    ["google-benchmark-console", "max", 2_000, 0.1],
    ["google-benchmark-console", "mean", 0.0000599, 0],
    ["pytest-benchmark", "mean", 0.00194060373227, 0],
    ["google-benchmark-json", "p50", 0.00005987551667193106, 0],
    ["k6-summary", "p95", 21.747, 0],
    ["k6-ndjson", "p99.9", 40, 0],
    ["ghz", "p99", 20.3, 0],
    ["vegeta-json", "p99", 32.769445, 0],
    ["benchtrack", "p50", 10, 0],
  ] as const)("%s %s of %s ms → %s ms", (format, metric, valueMs, expected) => {
    expect(latencyResolutionMs(format, metric, valueMs)).toBeCloseTo(expected, 12);
  });

  // Microbenchmark steps are far below 1e-12 ms: compared as ratios, not to 12 decimals.
  it.each([
    // go test: ns/op printed whole from 1,000 ns, with four significant digits below (prettyPrint).
    ["go-bench-text", "min", 84_016, 1],
    ["go-bench-text", "p50", 1_000, 1],
    ["go-bench-json", "max", 999.9, 0.1],
    ["go-bench-text", "p99", 100, 0.1],
    ["go-bench-text", "p99", 18.4, 0.01],
    ["go-bench-text", "p95", 1.234, 0.001],
    ["go-bench-text", "p90", 0.5, 0.0001],
    ["go-bench-text", "min", 0.0001, 0.0000001],
  ] as const)("%s %s of %s ns → %s ns", (format, metric, valueNs, expectedNs) => {
    expect(latencyResolutionMs(format, metric, valueNs * 1e-6) / (expectedNs * 1e-6)).toBeCloseTo(1, 9);
  });

  it("has Go's mean over its samples at full precision", () => {
    expect(latencyResolutionMs("go-bench-json", "mean", 0.0754612)).toBe(0);
    expect(latencyResolutionMs("go-bench-text", "mean", 1_000)).toBe(0);
  });

  it.each([
    // benchmark.js: the mean is 1000 / hz, hz printed whole from 100 ops/s, to 0.01 below.
    [14_073, 1],
    [1_475, 1],
    [100, 1],
    [99.99, 0.01],
    [1.5, 0.01],
  ] as const)("benchmarkjs-text mean at %s ops/s → the step of %s ops/s, in ms", (hz, rateStep) => {
    const meanMs = 1000 / hz;
    // 1000/hz − 1000/(hz + Δ) ≈ 1000·Δ/hz².
    const expectedMs = (1000 * rateStep) / (hz * hz);
    expect(latencyResolutionMs("benchmarkjs-text", "mean", meanMs) / expectedMs).toBeCloseTo(1, 9);
  });

  it("has 0 for anything that is not a latency statistic, and for unknown formats", () => {
    for (const metric of ["throughput", "errorRate", "metrics.cpu", "p0", "p101", "P95", "median", ""]) {
      expect(latencyResolutionMs("locust-json", metric, 50)).toBe(0);
    }
    expect(latencyResolutionMs("gatling", "p95", 50)).toBe(0);
    expect(latencyResolutionMs("toString", "p95", 50)).toBe(0);
    expect(latencyResolutionMs("locust-json", "p42.5", 50)).toBe(1);
  });

  it("refuses a latency that is no latency (a caller's bug)", () => {
    for (const valueMs of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() => latencyResolutionMs("wrk-text", "p50", valueMs)).toThrow(RangeError);
    }
  });

  it("answers for every format id, and the registry's sentence says full precision exactly where the rule is 0", () => {
    for (const format of FORMAT_IDS) {
      const steps = ["p50", "p99", "mean", "min", "max"].flatMap((metric) =>
        [0.5, 10, 500, 5_000, 50_000].map((valueMs) => latencyResolutionMs(format, metric, valueMs)),
      );
      expect(steps.every((step) => step >= 0)).toBe(true);
      const isFullPrecision = steps.every((step) => step === 0);
      const { resolution } = FORMATS[format];
      const saysFullPrecision =
        resolution.startsWith("full precision") || resolution.startsWith("no latency statistic");
      expect({ format, saysFullPrecision }).toEqual({ format, saysFullPrecision: isFullPrecision });
    }
  });
});
