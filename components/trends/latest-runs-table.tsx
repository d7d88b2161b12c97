import Link from "next/link";
import { formatMs, formatPct, MISSING } from "@/server/domain/format";
import { formatThroughput, wordsOf } from "@/server/domain/series-kind";
import type { SeriesKinds } from "@/server/domain/series-kind";
import { formatRunTime } from "@/components/charts/time-axis";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { pagePaths } from "@/server/domain/urls";

type LatestRun = RouterOutputs["endpoint"]["trends"]["latest"][number];

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
  kind: SeriesKinds;
}) {
  const words = wordsOf(kind);
  const hasErrorRate = words.hasLoad || runs.some((run) => (run.errorRate ?? 0) > 0);
  const time = words.hasLoad ? "" : " time/op";
  return (
    <Table label="Latest runs" className="rounded-none border-0">
      <thead>
        <tr>
          <Th>Time</Th>
          <Th>Label</Th>
          <Th>Branch</Th>
          <Th numeric>p50{time}</Th>
          <Th numeric>p95{time}</Th>
          <Th numeric>p99{time}</Th>
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
            <Td numeric>{formatMs(run.p50Ms)}</Td>
            <Td numeric data-testid="latest-run-p95">
              {formatMs(run.p95Ms)}
            </Td>
            <Td numeric>{formatMs(run.p99Ms)}</Td>
            <Td numeric>{formatThroughput(run.throughput, kind)}</Td>
            {hasErrorRate && <Td numeric>{formatPct(run.errorRate)}</Td>}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
