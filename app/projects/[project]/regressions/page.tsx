import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatDeltaPct, formatMetricValue } from "@/components/lib/format";
import { StatusActions } from "@/components/regressions/status-actions";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { getDb } from "@/server/db";
import { findProject } from "@/server/services/projects";
import type { RegressionRow } from "@/server/services/regressions";
import { listRegressions, regressionLinksForRows } from "@/server/services/regressions";

export const dynamic = "force-dynamic";

const STATUSES = ["open", "acknowledged", "dismissed", "all"] as const;
type StatusFilter = (typeof STATUSES)[number];

export async function generateMetadata({ params }: { params: Promise<{ project: string }> }): Promise<Metadata> {
  return { title: `Regressions · ${decodeURIComponent((await params).project)}` };
}

function unitOf(metric: string): string | null {
  return metric.startsWith("metrics.") ? null : metric === "errorRate" ? null : metric === "throughput" ? "req/s" : "ms";
}

async function RegressionTable({
  project,
  rows,
  testId,
}: {
  project: { id: string; slug: string; defaultBranch: string };
  rows: RegressionRow[];
  testId: string;
}) {
  const db = await getDb();
  const links = await regressionLinksForRows(db, project, rows);
  return (
    <Table label="Detected changes, newest first">
      <thead>
        <tr>
          <Th>Detected</Th>
          <Th>Endpoint</Th>
          <Th>Metric</Th>
          <Th numeric>Before → after</Th>
          <Th numeric>Δ</Th>
          <Th numeric>p</Th>
          <Th>First run</Th>
          <Th>Status</Th>
          <Th>Links</Th>
        </tr>
      </thead>
      <tbody data-testid={testId}>
        {rows.map((row, index) => {
          const unit = unitOf(row.metric);
          return (
            <tr key={row.id} id={`regression-${row.id}`} data-testid="regression-row">
              <Td className="text-text-muted">{row.createdAt.toISOString().slice(0, 16).replace("T", " ")}</Td>
              <Td className="font-medium">{row.endpoint?.name ?? "All endpoints"}</Td>
              <Td>{row.metric}</Td>
              <Td numeric>
                {formatMetricValue(row.metric, unit, row.beforeValue)} → {formatMetricValue(row.metric, unit, row.afterValue)}
              </Td>
              <Td numeric className={row.kind === "regression" ? "text-bad" : "text-good"}>
                {formatDeltaPct(row.deltaPct / 100)}
              </Td>
              <Td numeric>{row.pValue === null ? "—" : row.pValue < 0.001 ? "< 0.001" : row.pValue.toFixed(3)}</Td>
              <Td>
                <Link href={`/projects/${encodeURIComponent(project.slug)}/runs/${row.firstRunId}`} className="text-accent hover:underline">
                  {[row.firstRun.label, row.firstRun.round !== null ? `#${row.firstRun.round}` : null].filter(Boolean).join(" ") || "run"}
                </Link>{" "}
                <span className="text-xs text-text-muted">
                  {row.firstRun.startedAt.toISOString().slice(0, 10)}
                  {row.firstRun.gitCommit ? ` @ ${row.firstRun.gitCommit.slice(0, 7)}` : ""}
                </span>
              </Td>
              <Td>
                <span className={row.status === "open" ? "font-medium text-bad" : "text-text-muted"}>{row.status}</span>
                {row.statusChangedBy && <span className="block text-xs text-text-muted">by {row.statusChangedBy}</span>}
              </Td>
              <Td>
                <span className="flex flex-col gap-1">
                  <span className="flex gap-2 text-xs">
                    {links[index]!.comparePath && (
                      <Link href={links[index]!.comparePath} className="text-accent hover:underline">
                        before vs after
                      </Link>
                    )}
                    <Link href={links[index]!.trendPath} className="text-accent hover:underline">
                      trend
                    </Link>
                  </span>
                  <StatusActions project={project.slug} id={row.id} status={row.status} />
                </span>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

export default async function RegressionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ project: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const slug = decodeURIComponent((await params).project);
  const db = await getDb();
  const project = await findProject(db, slug);
  if (!project) notFound();
  const requested = (await searchParams).status;
  const status: StatusFilter = STATUSES.includes(requested as StatusFilter) ? (requested as StatusFilter) : "open";
  const filter = status === "all" ? {} : { status };
  const [regressions, improvements] = await Promise.all([
    listRegressions(db, project.id, { ...filter, kind: "regression" }),
    listRegressions(db, project.id, { ...filter, kind: "improvement" }, 50),
  ]);
  const base = `/projects/${encodeURIComponent(project.slug)}/regressions`;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Regressions</h1>
          <p className="text-sm text-text-muted">
            Steps detected in each endpoint&apos;s history on <code>{project.defaultBranch}</code> (change points, per label), newest first.
          </p>
        </div>
        <nav aria-label="Status" className="flex gap-1 text-sm">
          {STATUSES.map((value) => (
            <Link
              key={value}
              href={value === "open" ? base : `${base}?status=${value}`}
              aria-current={value === status ? "page" : undefined}
              className="rounded border border-border px-2 py-0.5 text-text-muted aria-[current=page]:border-accent aria-[current=page]:text-text"
            >
              {value}
            </Link>
          ))}
        </nav>
      </div>
      <Card title={`Regressions (${regressions.length})`}>
        {regressions.length === 0 ? (
          <EmptyState title={status === "open" ? "No open regressions" : `No ${status === "all" ? "" : `${status} `}regressions`}>
            Each upload on {project.defaultBranch} is checked: a lasting step up in latency (at least 6 runs on each side) opens one here.
          </EmptyState>
        ) : (
          <RegressionTable project={project} rows={regressions} testId="regressions" />
        )}
      </Card>
      <Card title={`Improvements (${improvements.length})`}>
        {improvements.length === 0 ? (
          <p className="text-sm text-text-muted">No lasting improvements detected{status === "all" ? "" : ` (${status})`}.</p>
        ) : (
          <RegressionTable project={project} rows={improvements} testId="improvements" />
        )}
      </Card>
    </div>
  );
}
