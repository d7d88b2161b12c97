"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatRunTime } from "@/components/history/run-time";
import { cn } from "@/components/lib/cn";
import { useProjectAccess } from "@/components/providers/project-access";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Card } from "@/components/ui/card";
import type { RouterOutputs } from "@/server/api/root";
import { pagePaths } from "@/server/domain/urls";
import { describeEvent, describeReturn, runName } from "./display";
import { IncidentLinks, IncidentNote } from "./incident-notes";
import { IncidentRegressions } from "./incident-regressions";
import { IncidentStateActions } from "./incident-state-actions";
import { IncidentStateBadge } from "./state-badge";

type Incident = RouterOutputs["incident"]["get"]["incident"];

/**
 * One incident's page (/projects/:p/incidents/:number): where the step began and who opened it, whether
 * its series came back, its state with what each state does to the gate (a triager changes it), its note
 * and links, its regressions, and its history. Reads incident.get (prefetched by the page) and reads it
 * again after each change.
 */
export function IncidentView({ project, number }: { project: string; number: number }) {
  const trpc = useTRPC();
  const canTriage = useProjectAccess(project).can("triage");
  const {
    data: { incident },
  } = useSuspenseQuery(trpc.incident.get.queryOptions({ project, number }));
  const run = incident.firstRun;
  const back = describeReturn(incident.state, incident.returned);

  return (
    <div className="space-y-5">
      <div>
        <Link href={pagePaths.incidents(project)} className="text-text-muted hover:text-text text-sm">
          ← Incidents
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold">Incident #{incident.number}</h1>
          <IncidentStateBadge state={incident.state} />
        </div>
        <p className="text-text-muted mt-1 text-sm" data-testid="incident-origin">
          Opened at run{" "}
          <Link href={pagePaths.run(project, run.id)} className="text-accent hover:underline">
            {runName(run)}
          </Link>{" "}
          ({formatRunTime(run.startedAt)} UTC
          {run.gitCommit && (
            <>
              , commit <code>{run.gitCommit.slice(0, 7)}</code>
            </>
          )}
          {run.gitBranch && <> on {run.gitBranch}</>}, {run.tool}
          {run.testbed && <> on {run.testbed}</>}) · by change-point detector v{incident.detectorVersion} on{" "}
          {formatRunTime(incident.createdAt)} UTC
          {incident.stateChangedBy && incident.stateChangedAt && (
            <>
              {" "}
              · state last changed by {incident.stateChangedBy} on {formatRunTime(incident.stateChangedAt)} UTC
            </>
          )}
        </p>
      </div>

      {back && (
        <p
          role="status"
          data-testid="incident-return"
          className={cn(
            "rounded-md border px-3 py-2 text-sm",
            back.tone === "good"
              ? "border-good/40 text-good"
              : back.tone === "warn"
                ? "border-warn/40 text-warn"
                : "border-border text-text-muted",
          )}
        >
          {back.text}
        </p>
      )}

      <div className="grid gap-5 lg:grid-cols-2">
        <Card title="State">
          <IncidentStateActions
            project={project}
            number={incident.number}
            state={incident.state}
            canTriage={canTriage}
          />
        </Card>
        <div className="space-y-5">
          <Card title="Note">
            <IncidentNote project={project} number={incident.number} note={incident.note} canEdit={canTriage} />
          </Card>
          <Card title="Links">
            <IncidentLinks project={project} number={incident.number} links={incident.links} canEdit={canTriage} />
          </Card>
        </div>
      </div>

      <Card
        title={`Regressions (${incident.regressions.length})`}
        actions={
          <span className="text-text-muted text-xs" data-testid="incident-returned">
            {incident.returned.count} of {incident.returned.of} series came back
          </span>
        }
      >
        {incident.regressions.length === 0 ? (
          <p className="text-text-muted text-sm">Its regressions are gone (their runs were deleted).</p>
        ) : (
          <IncidentRegressions
            slug={project}
            regressions={incident.regressions}
            label={`Regressions of incident #${incident.number}, largest first`}
          />
        )}
      </Card>

      <Card title="History">
        <IncidentHistory events={incident.events} />
      </Card>
    </div>
  );
}

/** What happened to the incident, oldest first: who, when, from → to, and the note or links they gave. */
function IncidentHistory({ events }: { events: Incident["events"] }) {
  return (
    <ol className="border-border space-y-3 border-l pl-4" data-testid="incident-history">
      {events.map((event, index) => (
        <li key={index} className="relative text-sm" data-testid="incident-event">
          <span
            aria-hidden="true"
            className="border-surface bg-accent absolute top-1.5 -left-[21px] h-2.5 w-2.5 rounded-full border-2"
          />
          <p>
            <span className="font-medium">{describeEvent(event)}</span>{" "}
            <span className="text-text-muted">
              by {event.by} · <time dateTime={event.at.toISOString()}>{formatRunTime(event.at)} UTC</time>
            </span>
          </p>
          {event.note && (
            <p className="text-text-muted mt-0.5 [overflow-wrap:anywhere] whitespace-pre-wrap">{event.note}</p>
          )}
        </li>
      ))}
    </ol>
  );
}
