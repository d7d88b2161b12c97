import type { ReactNode } from "react";
import { formatDuration, formatNumber, formatRelativeTime } from "@/server/domain/format";
import { cn } from "@/components/lib/cn";
import { Badge } from "@/components/ui/badge";
import { wordsOf } from "@/server/domain/result-kind";
import { formatUtcTimestamp } from "./display";
import type { RunReportData } from "./types";
import { GradeBadge } from "@/components/sla/grade-badge";
import { OutsideShareHidden, useShareHref } from "@/components/share/share-context";
import { ShareButton } from "@/components/share/share-button";
import { CompareWith } from "./compare-with";
import { RunAdminActions } from "./run-admin-actions";

const LINK = "text-accent underline-offset-2 hover:underline";
/** How a run's note shows its kind (the trend charts mark them the same way). */
const ANNOTATION_GLYPH: Record<RunReportData["annotations"][number]["kind"], string> = {
  note: "✎",
  deploy: "▲",
  change: "⚙",
};

function Fact({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-xs text-text-muted">{label}</dt>
      <dd className="mt-0.5 truncate text-sm">{children}</dd>
    </div>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className={LINK} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function KeyValues({ title, entries }: { title: string; entries: RunReportData["run"]["config"] }) {
  if (entries.length === 0) return null;
  return (
    <div className="min-w-0">
      <h2 className="text-xs text-text-muted">{title}</h2>
      <ul className="mt-1 flex flex-wrap gap-1.5" aria-label={title}>
        {entries.map(({ key, value }) => (
          <li key={key} className="max-w-full truncate rounded border border-border bg-surface-muted px-1.5 py-0.5 font-mono text-xs">
            <span className="text-text-muted">{key}=</span>
            {typeof value === "number" ? formatNumber(value, 3) : String(value)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Who, what, when and where of the run, with `lead` (the gate's outcome) right under its title: the first things a reader of a report wants settled. */
export function RunHeader({ report, now, lead }: { report: RunReportData; now: number; lead?: ReactNode }) {
  const { run, links } = report;
  // Through a share link, the raw upload and the JSON carry its token (it opens them: services/access/auth.ts).
  const shareHref = useShareHref();
  const started = formatUtcTimestamp(run.startedAt);
  const host = [
    run.host.name,
    run.host.cpus !== null ? `${formatNumber(run.host.cpus, 0)} CPUs` : null,
    run.host.memoryGb !== null ? `${formatNumber(run.host.memoryGb, 1)} GB` : null,
  ].filter((part): part is string => part !== null);

  return (
    <header className="rounded-lg border border-border bg-surface p-4" data-testid="run-header">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <p className="text-xs text-text-muted">Run report</p>
          <h1 className="text-xl font-semibold break-words">{run.title}</h1>
          <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
            <Badge tone="accent" title="Tool and version">
              {run.tool}
              {run.toolVersion ? ` ${run.toolVersion}` : ""}
            </Badge>
            <Badge title="The format the upload was read as">format: {run.format}</Badge>
            {run.protocol && <Badge title="Protocol">{run.protocol}</Badge>}
            <GradeBadge grade={report.grade} />
          </div>
          {lead}
        </div>
        <nav aria-label="Run data" className="flex flex-wrap gap-2 text-sm">
          {/* Its comparisons are outside a share link (a comparison's link opens that one only). */}
          <OutsideShareHidden>
            <CompareWith compare={report.compare} />
          </OutsideShareHidden>
          <ShareButton
            project={report.project.slug}
            target={{ run: run.id }}
            what="this run"
            className="rounded-md border border-border px-2.5 py-1 hover:border-accent"
          />
          <a href={shareHref(links.raw)} className="rounded-md border border-border px-2.5 py-1 hover:border-accent" download>
            Download raw
          </a>
          <a href={shareHref(links.json)} className="rounded-md border border-border px-2.5 py-1 hover:border-accent">
            View JSON
          </a>
        </nav>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-4">
        <Fact label="Started" className="col-span-2 sm:col-span-1 [&>dd]:whitespace-normal">
          {started ? (
            <time dateTime={run.startedAt ?? undefined} title={started}>
              <span className="tabular-nums">{started}</span>{" "}
              <span className="text-text-muted">({formatRelativeTime(run.startedAt, now)})</span>
            </time>
          ) : (
            "—"
          )}
        </Fact>
        <Fact label="Duration">{formatDuration(run.durationSeconds)}</Fact>
        <Fact label="Commit">
          {run.git.commitShort === null ? (
            "—"
          ) : run.git.commitUrl ? (
            <ExternalLink href={run.git.commitUrl}>
              <code title={run.git.commit ?? undefined}>{run.git.commitShort}</code>
            </ExternalLink>
          ) : (
            <code title={run.git.commit ?? undefined}>{run.git.commitShort}</code>
          )}
        </Fact>
        <Fact label="Branch">{run.git.branch ? <code title={run.git.branch}>{run.git.branch}</code> : "—"}</Fact>
        {run.git.pullRequest !== null && (
          <Fact label="Pull request">
            {run.git.pullRequestUrl ? (
              <ExternalLink href={run.git.pullRequestUrl}>#{run.git.pullRequest}</ExternalLink>
            ) : (
              `#${run.git.pullRequest}`
            )}
          </Fact>
        )}
        {run.buildUrl && (
          <Fact label="CI build">
            <ExternalLink href={run.buildUrl}>open build</ExternalLink>
          </Fact>
        )}
        {run.testbed && (
          <Fact label="Testbed" className="[&>dd]:whitespace-normal">
            <span title="The hardware the numbers were measured on: runs on another testbed are another series" data-testid="run-testbed">
              {run.testbed}
            </span>
          </Fact>
        )}
        {host.length > 0 && <Fact label="Host">{host.join(" · ")}</Fact>}
        {run.appVersion && <Fact label="App version">{run.appVersion}</Fact>}
      </dl>

      {(run.config.length > 0 || run.attributes.length > 0) && (
        <div className="mt-4 grid gap-3 sm:grid-cols-2">
          <KeyValues title={wordsOf(run.kind).hasLoad ? "Load configuration" : "Configuration"} entries={run.config} />
          <KeyValues title="Environment attributes" entries={run.attributes} />
        </div>
      )}

      {run.notes.length > 0 && (
        <div role="note" className="mt-4 rounded-md border border-border bg-surface-muted px-3 py-2 text-xs" data-testid="run-notes">
          <p className="font-semibold text-warn">Notes from the {run.format} parser</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-4 text-text-muted">
            {run.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      )}
      {(report.annotations.length > 0 || report.isPinnedBaseline) && (
        <ul className="mt-3 flex flex-wrap gap-2 text-xs" data-testid="run-annotations">
          {report.isPinnedBaseline && <li className="rounded border border-accent px-1.5 py-0.5 text-accent">📌 pinned baseline</li>}
          {report.annotations.map((annotation) => (
            <li key={annotation.id} className="rounded border border-border px-1.5 py-0.5" title={annotation.createdAt}>
              {ANNOTATION_GLYPH[annotation.kind]} {annotation.text}
            </li>
          ))}
        </ul>
      )}
      <RunAdminActions project={report.project.slug} runId={run.id} label={run.label} />
    </header>
  );
}
