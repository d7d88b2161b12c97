import Link from "next/link";
import { formatMs, formatPct, MISSING } from "@/server/domain/format";
import { formatThroughput, metricShortName, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { formatRunTime } from "@/components/charts/time-axis";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { pagePaths } from "@/server/domain/urls";

type LatestRun = RouterOutputs["endpoint"]["trends"]["latest"][number];
type TimeColumn = { name: string; field: "meanMs" | "p50Ms" | "p95Ms" | "p99Ms" };

const LOAD_TIMES: readonly TimeColumn[] = [
  { name: "p50", field: "p50Ms" },
  { name: "p95", field: "p95Ms" },
  { name: "p99", field: "p99Ms" },
];
const BENCHMARK_TIMES: readonly TimeColumn[] = [{ name: "mean", field: "meanMs" }, ...LOAD_TIMES];

/**
 * The latest runs of the endpoint, newest first, each linked to its run report (keyboard access to
 * runs); a benchmark's time per operation in its unit, its ops/s, and no error rate unless a sample failed.
 */
export function LatestRunsTable({
  projectSlug,
  runs,
  kind,
}: {
  projectSlug: string;
  runs: readonly LatestRun[];
  kind: ResultKinds;
}) {
  const words = wordsOf(kind);
  const hasErrorRate = words.hasLoad || runs.some((run) => (run.errorRate ?? 0) > 0);
  // A benchmark's gate metric, its mean time/op, first; then the percentiles its tool wrote (vitest writes no p95).
  const times = words.hasLoad
    ? LOAD_TIMES
    : BENCHMARK_TIMES.filter((time) => runs.some((run) => run[time.field] !== null));
  return (
    <Table label="Latest runs" className="rounded-none border-0">
      <thead>
        <tr>
          <Th>Time</Th>
          <Th>Label</Th>
          <Th>Branch</Th>
          {times.map((time) => (
            <Th key={time.field} numeric>
              {words.hasLoad ? time.name : metricShortName(time.name, kind)}
            </Th>
          ))}
          <Th numeric>{words.hasLoad ? "Throughput" : words.throughputUnit}</Th>
          {hasErrorRate && <Th numeric>Error rate</Th>}
        </tr>
      </thead>
      <tbody data-testid="latest-runs">
        {runs.map((run) => (
          <tr key={run.runId} className="hover:bg-surface-muted" data-run-id={run.runId}>
            <Td>
              <Link
                href={pagePaths.run(projectSlug, run.runId)}
                className="text-accent hover:underline"
                data-testid="latest-run-link"
              >
                {formatRunTime(run.time)}
              </Link>
            </Td>
            <Td>
              {run.label ?? MISSING}
              {run.round !== null && <span className="text-text-muted"> · r{run.round}</span>}
            </Td>
            <Td className="max-w-56 truncate" title={run.branch ?? undefined}>
              {run.branch ?? MISSING}
              {run.commitShort && <span className="text-text-muted ml-1.5 font-mono text-xs">{run.commitShort}</span>}
            </Td>
            {times.map((time) => (
              <Td key={time.field} numeric data-testid={time.field === "p95Ms" ? "latest-run-p95" : undefined}>
                {formatMs(run[time.field])}
              </Td>
            ))}
            <Td numeric>{formatThroughput(run.throughput, kind)}</Td>
            {hasErrorRate && <Td numeric>{formatPct(run.errorRate)}</Td>}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
