import { ScopedLink } from "@/components/share/share-context";
import { Fragment } from "react";
import { formatDeltaPct } from "@/server/domain/format";
import { INCIDENT_STATE_LABELS } from "@/server/domain/incidents/state";
import { metricDefinition } from "@/server/domain/metrics";
import { formatResultMetric, metricShortName, resultDisplayName, resultKindOf, wordsOf } from "@/server/domain/result-kind";
import { pagePaths } from "@/server/domain/urls";
import { splitIncidentMentions } from "./incident-mentions";
import type { RunReportData } from "./types";

type IncidentStarted = RunReportData["incidentsStarted"][number];

/** "p95 of GET /x +31.0% (10 ms → 13.1 ms)": an incident's largest change, in its series' words. */
function describeLargest(largest: NonNullable<IncidentStarted["largest"]>): string {
  const kind = resultKindOf(largest.protocol);
  const unit = metricDefinition(largest.metric)?.unit ?? null;
  const value = (number: number) => formatResultMetric(largest.metric, unit, number, kind);
  return `${metricShortName(largest.metric, kind)} of ${resultDisplayName(largest.endpoint, kind)} ${formatDeltaPct(largest.deltaPct)} (${value(largest.before)} → ${value(largest.after)})`;
}

/**
 * The incidents that started at this run (change-point detection placed their step here), first on the
 * page after the header: what moved, where the incident stands, and a link to it.
 */
export function IncidentsStartedHere({ slug, incidents }: { slug: string; incidents: RunReportData["incidentsStarted"] }) {
  if (incidents.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {incidents.map((incident) => {
        const more = incident.changes - 1;
        const nouns = wordsOf(resultKindOf(incident.largest?.protocol ?? null)).nouns;
        return (
          <p
            key={incident.number}
            role="status"
            className="rounded-md border border-bad p-3 text-sm break-words"
            data-testid="run-incident-start"
          >
            <span className="font-medium text-bad">This run is where incident #{incident.number} started</span>
            {incident.largest && <>: {describeLargest(incident.largest)}</>}
            {more > 0 && (
              <>
                {" "}
                and {more} more change{more === 1 ? "" : "s"}
                {incident.endpoints > 1 && (
                  <>
                    {" "}
                    on {incident.endpoints} {nouns} in all
                  </>
                )}
              </>
            )}{" "}
            · <span className="font-medium">{INCIDENT_STATE_LABELS[incident.state]}</span> ·{" "}
            <ScopedLink href={pagePaths.incident(slug, incident.number)} className="text-accent hover:underline">
              open incident #{incident.number} →
            </ScopedLink>
          </p>
        );
      })}
    </div>
  );
}

/**
 * A gate text ("…before the open regression GET /x p95 +31.0% from the run of 2026-11-14 (…), incident
 * #3; …") with the open incident's mentions as links to its page; other text stays text.
 */
export function WithIncidentLinks({ text, slug, incident }: { text: string; slug: string; incident: { number: number } | null }) {
  if (incident === null) return <>{text}</>;
  return (
    <>
      {splitIncidentMentions(text, incident.number).map((part, index) =>
        part.kind === "text" ? (
          <Fragment key={index}>{part.text}</Fragment>
        ) : (
          <ScopedLink key={index} href={pagePaths.incident(slug, incident.number)} className="text-accent hover:underline" data-testid="gate-incident-link">
            {part.text}
          </ScopedLink>
        ),
      )}
    </>
  );
}
