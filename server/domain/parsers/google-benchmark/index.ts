/**
 * The google-benchmark parsers' public face: `GOOGLE_BENCHMARK_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import {
  isGoogleBenchmarkConsole,
  isGoogleBenchmarkJson,
  parseGoogleBenchmarkConsole,
  parseGoogleBenchmarkJson,
} from "./google-benchmark";

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

/** Google Benchmark: its JSON and its console output. */
export const GOOGLE_BENCHMARK_TOOL: ToolDescriptor = {
  tool: "google-benchmark",
  formats: [
    {
      info: {
        id: "google-benchmark-json",
        extension: ".json",
        title: "Google Benchmark JSON",
        command: "./bench --benchmark_repetitions=5 --benchmark_out=gbench.json --benchmark_out_format=json",
        upload: "body",
        keeps:
          "one benchmark per instance (`BM_Sort/1000`), its repetitions (iteration rows) as samples of real time per operation, the mean CPU time as cpu_time (ms, lower), items_per_second and bytes_per_second (higher) and user counters (direction unknown) as their means, failed repetitions (SkipWithError), a Complexity() fit as run metrics (`BM_Sort_BigO` coefficient in ms per N-unit, `BM_Sort_RMS` in %), the date, the testbed from CPU count, MHz and caches (never the host name), library_build_type (a note when it is debug); with --benchmark_report_aggregates_only, the mean, median and stddev rows",
        drops:
          "aggregate rows where the repetitions are there (they are checked against them, not counted again), cv, statistics added with ComputeStatistics, iterations per repetition, labels, host name, executable, load average",
        resolution: "full precision: the doubles Google Benchmark computed",
        checkedOn: "real output",
        recipe: `curl --data-binary @gbench.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseGoogleBenchmarkJson },
      markers: {
        json: isGoogleBenchmarkJson,
      },
      // The JSON writer prints the doubles Google Benchmark computed (fixture: `59.87551667193106`).
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "google-benchmark-console",
        extension: ".txt",
        title: "Google Benchmark console output",
        command: "./bench --benchmark_repetitions=5 > gbench.txt 2>&1",
        upload: "body",
        keeps:
          "as the JSON, to the printed precision: the same benchmark names, repetitions as samples, cpu_time, counters (`items_per_second=1.23G/s` read with its prefix), the Complexity() fit, the date, and the same testbed (`Run on (2 X 2596.14 MHz CPU s)` and the caches; stderr must be captured) and build type (the DEBUG warning)",
        drops:
          "as the JSON; counters declared kIs1024 other than bytes_per_second are read in powers of 1000 when printed with M, G… (the console does not say); without stderr, the date, testbed and build type",
        resolution:
          "each repetition as printed in its unit (`%.3f` below 1, `%.2f` below 10, `%.1f` below 100, then whole units: 1 ns steps from 100 ns in the default ns; a benchmark in µs or ms is coarser); the mean over the repetitions full precision (a printed _mean, read without its repetitions, keeps the print's step, which the rule cannot tell)",
        checkedOn: "real output",
        recipe: `./bench --benchmark_repetitions=5 2>&1 | tee gbench.txt\ncurl --data-binary @gbench.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseGoogleBenchmarkConsole },
      markers: {
        text: isGoogleBenchmarkConsole,
      },
      // Repetitions are printed (min, max; percentiles interpolate between them); the mean over them is ours.
      latency: {
        rule: (stat, valueMs) => (stat === "mean" ? 0 : gbenchConsolePrintStepMs(valueMs)),
        interpolatedPercentiles: true,
      },
    },
  ],
};
