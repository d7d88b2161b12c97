import Link from "next/link";
import type { ReactNode } from "react";
import { describeRunTime, formatRunTime } from "@/components/history/run-time";
import { MISSING } from "@/server/domain/format";
import { resultKindsOf, wordsOf } from "@/server/domain/result-kind";
import { RunResultCells, RunResultHeaders } from "@/components/history/run-results";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { describeFailingSeries } from "./gate";
import { EndpointsTable } from "./overview-endpoints";
import { ProjectUploadHint } from "./project-upload-hint";
import { pagePaths } from "@/server/domain/urls";

type Overview = RouterOutputs["project"]["overview"];
type SeriesGate = Overview["gates"][number];

/** The project overview: endpoints with their latest numbers, sparkline and trend; the recent runs. */
export function ProjectOverview({ overview, baseUrl, now }: { overview: Overview; baseUrl: string; now: number }) {
  const slug = overview.project.slug;
  if (overview.recentRuns.length === 0) return <ProjectUploadHint baseUrl={baseUrl} slug={slug} />;
  const allRuns = (
    <Link href={pagePaths.runs(slug)} className="text-sm text-accent hover:underline">
      All runs →
    </Link>
  );
  const kind = resultKindsOf(overview.endpoints);
  const words = wordsOf(kind);
  return (
    <div className="space-y-6">
      <OverviewBanners overview={overview} />
      <Section
        title={words.nounsTitle}
        actions={
          <span className="text-xs text-text-muted">
            Latest run; {kind === "benchmark" ? "mean time/op" : kind === "mixed" ? "p95 (benchmarks: mean time/op)" : "p95"} sparkline and trend
            over its series (same tool, label, branch and testbed)
          </span>
        }
      >
        <EndpointsTable overview={overview} kind={kind} />
      </Section>
      <Section title="Recent runs" actions={allRuns}>
        <RecentRunsTable overview={overview} now={now} />
      </Section>
    </div>
  );
}

function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section>
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="text-base font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** What needs attention first: the default branch failing the gate, an upload schedule that stopped, and incidents still being triaged. */
function OverviewBanners({ overview }: { overview: Overview }) {
  const { freshness, openRegressions, activeIncidents, awaitingReturn, project } = overview;
  const noun = wordsOf(resultKindsOf(overview.endpoints)).noun;
  return (
    <>
      <GateFailingBanner overview={overview} />
      {freshness.status === "missing" && (
        <div role="alert" className="rounded-md border border-warn p-3 text-sm" data-testid="missing-data">
          <span className="font-medium text-warn">Missing data: </span>
          {freshness.message}
        </div>
      )}
      {(activeIncidents > 0 || awaitingReturn > 0) && (
        <a
          href={pagePaths.incidents(project.slug)}
          className="block rounded-md border border-bad p-3 text-sm hover:bg-surface-muted"
          data-testid="open-regressions-banner"
        >
          {activeIncidents > 0 ? (
            <>
              <span className="font-medium text-bad">
                {activeIncidents} active incident{activeIncidents === 1 ? "" : "s"}
              </span>{" "}
              ({openRegressions} open regression{openRegressions === 1 ? "" : "s"}) on {project.defaultBranch}: each {noun} they moved
              says so below; review them in the inbox →
            </>
          ) : (
            <>
              <span className="font-medium text-bad">
                {awaitingReturn} regression{awaitingReturn === 1 ? "" : "s"}
              </span>{" "}
              on {project.defaultBranch} of incidents fixed or backed out, not yet seen coming back: review them in the inbox →
            </>
          )}
        </a>
      )}
    </>
  );
}

/** Failing series shown one by one in the banner; more are counted. */
const BANNER_SERIES = 3;

/**
 * "main fails the gate since run <date · commit> (5 runs): <largest changes>", one line per series of the
 * default branch whose latest runs fail the CI gate, from the first run of the streak, before any incident
 * exists (change-point detection needs 6 runs after a step); its incidents linked once there are. It goes
 * once the series' latest run passes or is inconclusive.
 */
function GateFailingBanner({ overview }: { overview: Overview }) {
  const { project } = overview;
  const failing = overview.gates.filter((series) => series.failing !== null);
  if (failing.length === 0) return null;
  const shown = failing.slice(0, BANNER_SERIES);
  return (
    <div role="alert" className="space-y-1.5 rounded-md border border-bad p-3 text-sm" data-testid="gate-failing-banner">
      {shown.map((series) => (
        <FailingSeriesLine key={series.key} slug={project.slug} branch={project.defaultBranch} series={series} showSeries={overview.gates.length > 1} />
      ))}
      {failing.length > shown.length && (
        <p className="text-text-muted">
          and {failing.length - shown.length} more series on {project.defaultBranch} fail the gate
        </p>
      )}
    </div>
  );
}

function FailingSeriesLine({ slug, branch, series, showSeries }: { slug: string; branch: string; series: SeriesGate; showSeries: boolean }) {
  const words = describeFailingSeries(series);
  const since = series.failing?.since ?? { runId: series.latest.runId };
  return (
    <p className="break-words" data-testid="gate-failing-series" data-series={series.key}>
      <span className="font-medium text-bad">{branch} fails the gate</span> since run{" "}
      <Link href={pagePaths.run(slug, since.runId)} className="whitespace-nowrap text-accent hover:underline" data-testid="gate-failing-since">
        {words.since}
      </Link>{" "}
      ({words.runs}){showSeries && <span className="text-text-muted"> on {series.key}</span>}
      {words.changes.length > 0 ? (
        <>
          : {words.changes.join("; ")}
          {words.more > 0 && ` and ${words.more} more`}
        </>
      ) : (
        words.reason && <>: {words.reason}</>
      )}
      {series.incidents.map((incident) => (
        <span key={incident.number}>
          {" "}
          ·{" "}
          <Link
            href={pagePaths.incident(slug, incident.number)}
            className="whitespace-nowrap text-accent hover:underline"
            data-testid="gate-failing-incident"
          >
            incident #{incident.number}
          </Link>
        </span>
      ))}
      {words.triaged.map((triage) => (
        <span key={triage.key} className="text-text-muted" data-testid="gate-failing-triaged">
          {" "}
          · since the latest run,{" "}
          {triage.incident !== null ? (
            <Link href={pagePaths.incident(slug, triage.incident)} className="text-accent hover:underline">
              incident #{triage.incident}
            </Link>
          ) : (
            "a change marker"
          )}{" "}
          {triage.text}
        </span>
      ))}
      {series.incidents.length === 0 && series.triagedSince.length === 0 && words.changes.length > 0 && (
        <span className="text-text-muted"> · no incident yet: change-point detection confirms a step after 6 runs</span>
      )}
    </p>
  );
}

function RecentRunsTable({ overview, now }: { overview: Overview; now: number }) {
  const kind = resultKindsOf(overview.recentRuns);
  return (
    <Table label="Recent runs">
      <thead>
        <tr>
          <Th>Time (UTC)</Th>
          <Th>Label</Th>
          <Th numeric>Round</Th>
          <Th>Branch</Th>
          <Th>Tool</Th>
          <RunResultHeaders kind={kind} />
        </tr>
      </thead>
      <tbody data-testid="recent-runs">
        {overview.recentRuns.map((run) => (
          <tr key={run.id} className="hover:bg-surface-muted">
            <Td title={describeRunTime(run.startedAt, now)}>
              <Link href={pagePaths.run(overview.project.slug, run.id)} className="text-accent hover:underline">
                {formatRunTime(run.startedAt)}
              </Link>
            </Td>
            <Td>{run.label ?? MISSING}</Td>
            <Td numeric>{run.round ?? MISSING}</Td>
            <Td className="max-w-[14rem] truncate" title={run.gitBranch ?? undefined}>
              {run.gitBranch ?? MISSING}
            </Td>
            <Td>{run.tool}</Td>
            <RunResultCells run={run} kind={kind} />
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
