/**
 * The pytest-benchmark parsers' public face: `PYTEST_BENCHMARK_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import {
  isPytestBenchmarkJson,
  isPytestBenchmarkText,
  parsePytestBenchmark,
  parsePytestBenchmarkText,
} from "./pytest-benchmark";

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

/** pytest-benchmark: --benchmark-json and its console table. */
export const PYTEST_BENCHMARK_TOOL: ToolDescriptor = {
  tool: "pytest-benchmark",
  formats: [
    {
      info: {
        id: "pytest-benchmark",
        extension: ".json",
        title: "pytest-benchmark --benchmark-json",
        command: "pytest --benchmark-json=pytest-benchmark.json",
        upload: "body",
        keeps:
          "one benchmark per test as `group > name[params]`, every round (stats.data, time per iteration) as samples with exact percentiles, OPS, numeric extra_info as metrics (direction unknown), the testbed from machine_info (system, machine, CPU brand; never the host name), Python implementation and version as attributes, git commit, branch and dirty from commit_info, the plugin's version; a saved file without data keeps pytest-benchmark's min/max/mean/stddev/median",
        drops:
          "options, IQR/quartiles/outlier counts (percentiles come from the rounds), iterations per round, the host name and the rest of machine_info; `datetime` is when the file was written (the session's end), kept as the start",
        resolution: "full precision: perf_counter times as Python writes them",
        checkedOn: "real output",
        recipe: `pytest --benchmark-json=pytest-benchmark.json\ncurl --data-binary @pytest-benchmark.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parsePytestBenchmark },
      markers: {
        json: isPytestBenchmarkJson,
      },
      // stats.data are perf_counter differences divided by the iterations, written as Python floats (repr).
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "pytest-benchmark-text",
        extension: ".txt",
        title: "pytest-benchmark console table",
        command: "pytest > pytest-benchmark.txt 2>&1",
        upload: "body",
        keeps:
          "one benchmark per table row as `group > name[params]` (the JSON's names): the columns printed (min, max, mean, stddev, median as p50), Rounds as the sample count, OPS scaled to ops/s, the plugin's and Python's versions, the session's duration",
        drops:
          "IQR, outliers and the ratios to the best, the rounds themselves (no percentiles beyond the median), the testbed (the console names only the OS: pass testbed= to match the JSON's); groups match the JSON's only with the default --benchmark-group-by=group",
        resolution:
          "4 decimals (`{:,.4f}`) in the group's time unit, which pytest-benchmark picks from the group's smallest value: at most 0.0001 of the value's own unit (s, ms, us, ns)",
        checkedOn: "real output",
        recipe: `pytest 2>&1 | tee pytest-benchmark.txt\ncurl --data-binary @pytest-benchmark.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parsePytestBenchmarkText },
      markers: {
        text: isPytestBenchmarkText,
      },
      latency: { rule: (_stat, valueMs) => pytestTablePrintStepMs(valueMs) },
    },
  ],
};
