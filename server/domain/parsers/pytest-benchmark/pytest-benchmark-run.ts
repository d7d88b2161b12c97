/**
 * What pytest-benchmark's JSON and console table have in common: the benchmarks' identity and the run
 * they make (pytest-benchmark.ts says what is kept and dropped).
 */
import { InputError } from "../../input-error";
import type { CustomMetric, FormatId, ParsedRun } from "../../run";
import { benchmarkResult, benchmarkRun, type TimeSummary } from "../benchmark";

export const PYTEST_BENCHMARK_TOOL = "pytest-benchmark";

export interface PytestBenchmark {
  /** The benchmark's group (`@pytest.mark.benchmark(group=…)`); null when it has none. */
  group: string | null;
  /** pytest's name with its parameters: `test_sort[100]`. */
  name: string;
  /** pytest's node id, `test_micro.py::test_sort[100]`, when the file states it. */
  fullName: string | null;
  /** Where it is, for errors: `benchmarks[4]` or `pytest-benchmark.txt: line 30`. */
  where: string;
  samplesMs?: readonly number[];
  summary?: TimeSummary;
  opsPerSecond: number | null;
  metrics: Record<string, CustomMetric>;
}

/**
 * The run of one file's benchmarks. A benchmark is named `group > name` (benchmarkName); where two of
 * one group share a name (`test_x` of two modules), each is named by its node id instead, in both
 * formats, so the names stay the same whichever output is uploaded.
 */
export function buildPytestRun(
  format: Extract<FormatId, "pytest-benchmark" | "pytest-benchmark-text">,
  benchmarks: readonly PytestBenchmark[],
): ParsedRun {
  const counts = new Map<string, number>();
  const keyOf = (benchmark: PytestBenchmark) => `${benchmark.group ?? ""}\u0000${benchmark.name}`;
  for (const benchmark of benchmarks) counts.set(keyOf(benchmark), (counts.get(keyOf(benchmark)) ?? 0) + 1);
  const results = benchmarks.map((benchmark) => {
    const shared = (counts.get(keyOf(benchmark)) ?? 0) > 1;
    if (shared && benchmark.fullName === null) {
      throw new InputError("malformed", `pytest-benchmark: two benchmarks named "${benchmark.name}" in one group`, [
        {
          path: benchmark.where,
          message:
            "the console's short names cannot tell them apart: upload the --benchmark-json file, or run with --benchmark-name=long",
        },
      ]);
    }
    return benchmarkResult({
      name: shared && benchmark.fullName !== null ? benchmark.fullName : benchmark.name,
      group: benchmark.group,
      fullName: benchmark.fullName,
      samplesMs: benchmark.samplesMs ?? null,
      summary: benchmark.summary ?? null,
      opsPerSecond: benchmark.opsPerSecond,
      metrics: benchmark.metrics,
    });
  });
  return benchmarkRun(format, PYTEST_BENCHMARK_TOOL, results);
}

/**
 * The test's name in a node id: `test_micro.py::TestSort::test_sort[a::b]` → `test_sort[a::b]` (the
 * last `::` before the parameters), which is pytest-benchmark's `name`.
 */
export function nameOfNodeId(nodeId: string): string {
  const bracket = nodeId.indexOf("[");
  const head = bracket === -1 ? nodeId : nodeId.slice(0, bracket);
  const separator = head.lastIndexOf("::");
  return separator === -1 ? nodeId : nodeId.slice(separator + 2);
}
