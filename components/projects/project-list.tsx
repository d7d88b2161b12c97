"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import Link from "next/link";
import { pagePaths } from "@/server/domain/urls";
import { Sparkline } from "@/components/charts/sparkline";
import { describeRunTime } from "@/components/history/run-time";
import { formatMs, formatNumber, formatRelativeTime } from "@/server/domain/format";
import { GradeChip } from "@/components/sla/grade-badge";
import { Badge } from "@/components/ui/badge";
import type { RouterOutputs } from "@/server/api/root";
import { describeCardGate, describeCardSince, describeNamedChange } from "./gate";
import { EmptyState } from "@/components/ui/empty-state";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * The home page's project cards, or `empty` when there is none (the first-upload hint, rendered on the
 * server when it found no project; a plain note if the last one went since). Ages ("3 h ago") are
 * relative to when the list was read (`generatedAt`), so the server HTML and the hydrated page say the same.
 */
export function ProjectList({ empty }: { empty: ReactNode }) {
  const trpc = useTRPC();
  const {
    data: { projects, generatedAt: now },
  } = useSuspenseQuery(trpc.project.list.queryOptions());

  if (projects.length === 0) return empty ?? <EmptyState title="No projects yet" />;

  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="project-list">
      {projects.map((project) => {
        const latestP95 = project.sparkline.at(-1)?.y ?? null;
        return (
          <li key={project.id}>
            <Link
              href={pagePaths.project(project.slug)}
              className="flex h-full flex-col rounded-lg border border-border bg-surface p-4 hover:border-accent"
              data-testid="project-card"
            >
              <div className="flex items-start justify-between gap-2">
                <h2 className="min-w-0 font-semibold break-words">{project.name}</h2>
                <span className="flex shrink-0 items-center gap-1.5">
                  {project.grade && <GradeChip summary={project.grade} />}
                  {project.isDemo && (
                    <Badge tone="warn" title="Loaded by npm run seed:demo from the bundled fixtures">
                      demo data
                    </Badge>
                  )}
                </span>
              </div>
              <CardGateStatus gate={project.gate} defaultBranch={project.defaultBranch} />
              {project.activeIncidents > 0 && (
                <p className="mt-1 text-xs font-medium text-bad" data-testid="active-incidents">
                  {project.activeIncidents} active incident{project.activeIncidents === 1 ? "" : "s"}
                </p>
              )}
              {project.description && <p className="mt-1 line-clamp-2 text-sm text-text-muted">{project.description}</p>}

              {project.lastRun ? (
                <p className="mt-3 text-sm" data-testid="last-run" title={describeRunTime(project.lastRun.startedAt, now)}>
                  <span className="text-text-muted">Last run </span>
                  {formatRelativeTime(project.lastRun.startedAt, now)}
                  {project.lastRun.label && <span className="font-medium"> · {project.lastRun.label}</span>}
                  {project.lastRun.gitBranch && <span className="text-text-muted"> on {project.lastRun.gitBranch}</span>}
                </p>
              ) : (
                <p className="mt-3 text-sm text-text-muted">No runs yet</p>
              )}

              <div className="mt-auto flex items-end justify-between gap-3 pt-3">
                <p className="text-sm text-text-muted" data-testid="run-count">
                  {formatNumber(project.runCount, 0)} {project.runCount === 1 ? "run" : "runs"}
                </p>
                {/* A project of benchmarks has no aggregate p95 (each benchmark is judged on its own): nothing to draw. */}
                {project.sparkline.some((point) => point.y !== null) && (
                  <div className="flex items-end gap-2 text-right">
                    <div className="text-xs text-text-muted">
                      p95
                      <div className="text-sm font-medium text-text tabular-nums">{formatMs(latestP95)}</div>
                    </div>
                    <Sparkline
                      points={project.sparkline}
                      label={`p95 of all endpoints over the last ${project.sparkline.length} runs`}
                    />
                  </div>
                )}
              </div>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

type ProjectCard = RouterOutputs["project"]["list"]["projects"][number];

/** Failing series a card names one by one; more are counted. */
const CARD_FAILING_SERIES = 2;

/**
 * What the CI gate last said about the project's series on its default branch, compactly: a chip per
 * outcome (failing, inconclusive, passing; each series named in its title), then for each failing series
 * since when and its largest change: the short form of the overview's "fails the gate" banner. Text only:
 * the whole card is a link.
 */
function CardGateStatus({ gate, defaultBranch }: { gate: ProjectCard["gate"]; defaultBranch: string }) {
  const chips = describeCardGate(gate, defaultBranch);
  if (chips.length === 0) return null;
  const failing = gate.failing.slice(0, CARD_FAILING_SERIES);
  return (
    <div className="mt-2 space-y-1 text-xs" data-testid="gate-status">
      <p className="flex flex-wrap gap-1.5">
        {chips.map((chip) => (
          <Badge key={chip.testId} tone={chip.tone} title={chip.title}>
            <span data-testid={chip.testId}>{chip.text}</span>
          </Badge>
        ))}
      </p>
      {failing.map((series) => (
        <p key={series.key} className="break-words text-text-muted" data-testid="gate-failing-series" title={series.reason ?? undefined}>
          <span className="font-medium text-text">{series.name}</span>
          {series.failing && <> since {describeCardSince(series.failing)}</>}
          {series.named[0] && <span className="text-bad"> · {describeNamedChange(series.named[0])}</span>}
        </p>
      ))}
      {gate.failing.length > failing.length && <p className="text-text-muted">and {gate.failing.length - failing.length} more failing</p>}
    </div>
  );
}
