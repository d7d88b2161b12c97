import { Td, Th } from "@/components/ui/table";
import { formatMs, formatNumber, formatPct } from "@/server/domain/format";
import { countNouns, resultKindOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";

/** What a run's row needs to say what it measured: its aggregate's numbers, or how many benchmarks it ran. */
export interface RunResultsData {
  protocol: string | null;
  endpointCount: number;
  aggregate: { requests: number | null; p95Ms: number | null; errorRate: number | null } | null;
}

/**
 * A list of runs' (history, overview) result columns: a load test's requests, p95 and error rate of its
 * aggregate; a run of benchmarks has no aggregate numbers (each benchmark is judged on its own), so a
 * list of only benchmark runs has one column counting them, and in a list of both kinds a benchmark
 * run's row says so across the three.
 */
export function RunResultHeaders({ kind }: { kind: ResultKinds }) {
  if (kind === "benchmark") return <Th numeric>Benchmarks</Th>;
  return (
    <>
      <Th numeric>Requests</Th>
      <Th numeric>p95</Th>
      <Th numeric>Error rate</Th>
    </>
  );
}

export function RunResultCells({ run, kind }: { run: RunResultsData; kind: ResultKinds }) {
  if (kind === "benchmark") return <Td numeric>{formatNumber(run.endpointCount, 0)}</Td>;
  if (resultKindOf(run) === "benchmark") {
    return (
      <Td
        colSpan={3}
        className="text-text-muted text-right"
        title="A run of benchmarks: each is judged on its own, so it has no aggregate numbers"
      >
        {countNouns(run.endpointCount, "benchmark")}
      </Td>
    );
  }
  return (
    <>
      <Td numeric>{formatNumber(run.aggregate?.requests, 0)}</Td>
      <Td numeric>{formatMs(run.aggregate?.p95Ms)}</Td>
      <Td numeric>{formatPct(run.aggregate?.errorRate)}</Td>
    </>
  );
}
