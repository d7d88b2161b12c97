"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useProjectAccess } from "@/components/providers/project-access";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ImprovementsTable } from "@/components/changes/improvements-table";
import { IMPROVEMENTS_LISTED } from "@/server/schemas/regressions";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { resultKindsOf, wordsOf } from "@/server/domain/result-kind";
import { pagePaths } from "@/server/domain/urls";
import { BulkTriage } from "./bulk-triage";
import { inboxFilterTabs, type InboxFilter } from "./display";
import { IncidentRow, inboxGrid } from "./incident-row";
import { SignInToTriage } from "./sign-in-to-triage";

/**
 * The incidents inbox (/projects/:p/incidents?state=…): one row per incident — the regressions one
 * step opened at one run — under a state filter with counts, triaged in bulk by its triagers; then the
 * lasting improvements, which open no incident. Reads incident.inbox and change.improvements
 * (prefetched by the page) and reads them again after each change.
 */
export function IncidentInbox({ project, filter }: { project: string; filter: InboxFilter }) {
  const trpc = useTRPC();
  // Triage controls (selection, bulk actions) for those who may triage (access.mine).
  const canTriage = useProjectAccess(project).can("triage");
  const { data: inbox } = useSuspenseQuery(trpc.incident.inbox.queryOptions({ project, state: filter }));
  const { data: improvements } = useSuspenseQuery(trpc.change.improvements.queryOptions({ project }));
  const { data: info } = useSuspenseQuery(trpc.project.get.queryOptions({ project }));
  const [selected, setSelected] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<number[]>([]);
  const { incidents, counts } = inbox;
  const listed = incidents.map((incident) => incident.number);
  // Only what is listed can stay selected (a triaged incident may leave the filter).
  const selectedListed = listed.filter((number) => selected.includes(number)).sort((a, b) => a - b);

  // A link to one regression (/incidents#regression-<id>, as webhooks send it; older ones say /regressions) opens its incident's
  // regressions, once, on arrival; later the reader's choices stand.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current) return;
    const anchor = window.location.hash.slice(1);
    const id = /^regression-(.+)$/.exec(anchor)?.[1];
    const holder =
      id &&
      incidents.find((incident) => incident.regressions.some((regression) => regression.id === decodeURIComponent(id)));
    if (!holder) return;
    const frame = requestAnimationFrame(() => {
      arrived.current = true;
      setExpanded((current) => (current.includes(holder.number) ? current : [...current, holder.number]));
      requestAnimationFrame(() => document.getElementById(anchor)?.scrollIntoView({ block: "center" }));
    });
    return () => cancelAnimationFrame(frame);
  }, [incidents]);

  const kind = info.hasOnlyBenchmarks
    ? "benchmark"
    : resultKindsOf(
        incidents.flatMap((incident) =>
          incident.regressions.map((regression) => regression.endpoint?.protocol ?? null),
        ),
      );
  const words = wordsOf(kind);
  const tabs = inboxFilterTabs(counts);
  const current = tabs.find((tab) => tab.filter === filter)!;

  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-xl font-semibold">Incidents</h1>
        <p className="text-text-muted text-sm">
          Each incident is one step detected in the history on <code>{inbox.project.defaultBranch}</code>: the
          regressions it opened at one run, across {words.nouns} and metrics, triaged as one. Newest first.
        </p>
      </div>
      <nav aria-label="Incident state" className="flex flex-wrap gap-1 text-sm whitespace-nowrap">
        {tabs.map((tab) => (
          <Link
            key={tab.filter}
            href={pagePaths.incidents(project, tab.filter === "active" ? undefined : `state=${tab.filter}`)}
            aria-current={tab.filter === filter ? "page" : undefined}
            className="border-border text-text-muted hover:text-text aria-[current=page]:border-accent aria-[current=page]:bg-surface aria-[current=page]:text-text rounded-md border px-2.5 py-1"
            data-testid="incident-filter"
          >
            {tab.label} <span className="tabular-nums opacity-80">{tab.count}</span>
          </Link>
        ))}
      </nav>

      <Card
        title={`${current.label} incidents (${incidents.length}${incidents.length < current.count ? ` of ${current.count}, newest` : ""})`}
        actions={canTriage ? undefined : <SignInToTriage />}
        data-testid="incidents"
      >
        {incidents.length === 0 ? (
          <EmptyState
            title={
              filter === "active"
                ? "No active incidents"
                : `No ${filter === "all" ? "" : `${current.label.toLowerCase()} `}incidents`
            }
          >
            Each upload on {inbox.project.defaultBranch} is checked: a lasting step up in {words.latency} (at least 6
            runs on each side) opens an incident here.{" "}
            {filter === "active" && tabs.at(-1)!.count > 0 && (
              <Link href={pagePaths.incidents(project, "state=all")} className="text-accent hover:underline">
                See all {tabs.at(-1)!.count}.
              </Link>
            )}
          </EmptyState>
        ) : (
          // Flush with the card's edges: the rows are the card's body.
          <div className="-m-4">
            {canTriage && (
              <div className="border-border border-b p-4">
                <BulkTriage
                  project={project}
                  numbers={listed}
                  selected={selectedListed}
                  statesOf={new Map(incidents.map((incident) => [incident.number, incident.state]))}
                  onSelectAll={(all) => setSelected(all ? listed : [])}
                  onDone={() => setSelected([])}
                />
              </div>
            )}
            <div
              className={`border-border bg-surface-muted text-text-muted border-b px-4 py-2 text-xs font-semibold max-sm:hidden ${inboxGrid(canTriage)}`}
              aria-hidden="true"
            >
              {canTriage && <span />}
              <span>Incident</span>
              <span>What moved</span>
              <span>First run</span>
              <span>Opened · last change</span>
            </div>
            <ul aria-label={`${current.label} incidents, newest first`}>
              {incidents.map((incident) => (
                <IncidentRow
                  key={incident.id}
                  slug={project}
                  incident={incident}
                  selectable={canTriage}
                  selected={selectedListed.includes(incident.number)}
                  onSelect={(on) =>
                    setSelected((now) =>
                      on
                        ? [...now.filter((number) => number !== incident.number), incident.number]
                        : now.filter((number) => number !== incident.number),
                    )
                  }
                  expanded={expanded.includes(incident.number)}
                  onExpand={(open) =>
                    setExpanded((now) =>
                      open ? [...now, incident.number] : now.filter((number) => number !== incident.number),
                    )
                  }
                />
              ))}
            </ul>
          </div>
        )}
      </Card>

      <Card
        title={improvements.length >= IMPROVEMENTS_LISTED ? `Improvements (the newest ${IMPROVEMENTS_LISTED})` : `Improvements (${improvements.length})`}
        data-testid="improvements"
      >
        {improvements.length === 0 ? (
          <p className="text-text-muted text-sm">No lasting improvements detected.</p>
        ) : (
          <>
            <p className="text-text-muted mb-3 text-sm">
              Steps the good way: they open no incident, and the gate&apos;s baseline starts afresh at each (unless
              it was dismissed as noise).
            </p>
            <ImprovementsTable slug={project} improvements={improvements} />
          </>
        )}
      </Card>
    </div>
  );
}
