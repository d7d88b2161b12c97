import Link from "next/link";
import { formatMs, formatPct, formatRate, MISSING } from "@/server/domain/format";
import { formatRunTime } from "@/components/charts/time-axis";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { pagePaths } from "@/server/domain/urls";

type LatestRun = RouterOutputs["endpoint"]["trends"]["latest"][number];

/** The latest runs of the endpoint, newest first, each linked to its run report (keyboard access to runs). */
export function LatestRunsTable({ projectSlug, runs }: { projectSlug: string; runs: readonly LatestRun[] }) {
  return (
    <Table label="Latest runs" className="rounded-none border-0">
      <thead>
        <tr>
          <Th>Time</Th>
          <Th>Label</Th>
          <Th>Branch</Th>
          <Th numeric>p50</Th>
          <Th numeric>p95</Th>
          <Th numeric>p99</Th>
          <Th numeric>Throughput</Th>
          <Th numeric>Error rate</Th>
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
            <Td numeric>{formatRate(run.throughput)}</Td>
            <Td numeric>{formatPct(run.errorRate)}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
