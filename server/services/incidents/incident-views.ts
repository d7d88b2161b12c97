import type { ReadDb } from "../../db";
import { byLargestChange } from "../../domain/incidents/summary";
import { computeAlertPrecision, type AlertPrecision } from "../../domain/incidents/precision";
import { ACTIVE_STATES, CLOSED_STATES, describeStateChange, type IncidentState } from "../../domain/incidents/state";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import type { Prisma } from "../../generated/prisma/client";
import { notFound } from "../platform";
import { requireProject } from "../projects";
import { listIncidentChanges, toChangeJson, type IncidentChangeRow } from "../changes";

/**
 * Incidents as they are read (docs/incidents.md): a project's inbox under a filter and its counts by state,
 * one incident with its history, alert precision, and the REST shape of an incident. An incident's view
 * carries its regressions with their links; updateIncidents (incidents.ts) answers with the same views.
 */

/** Which incidents a listing shows: a state, the active ones (open or investigating), the closed ones, or all. */
export type IncidentFilter = IncidentState | "active" | "closed" | "all";

/** What an incident's view reads of it (its first run as its page names it). */
export const INCIDENT_SELECT = {
  id: true,
  number: true,
  state: true,
  note: true,
  links: true,
  detectorVersion: true,
  stateChangedAt: true,
  stateChangedBy: true,
  closedAt: true,
  createdAt: true,
  firstRunId: true,
  firstRun: {
    select: { id: true, label: true, round: true, startedAt: true, gitCommit: true, gitBranch: true, tool: true, testbed: true },
  },
} satisfies Prisma.IncidentSelect;

type IncidentRow = Prisma.IncidentGetPayload<{ select: typeof INCIDENT_SELECT }>;
/** The run a regression's series came back at (a later change the other way), as its page names it. */

export interface IncidentView extends IncidentRow {
  /** Its regressions, the largest |Δ| first, each with its links and the run its series came back at (if it did). */
  regressions: IncidentChangeRow[];
  /** Distinct endpoints (null: the aggregate), in the regressions' order. */
  endpoints: (string | null)[];
  /** How many of its regressions' series have come back (a later change the other way on each). */
  returned: { count: number; of: number };
  /** The largest regression's comparison (the runs before vs after the step) and trend. */
  comparePath: string | null;
  trendPath: string | null;
}

const stateWhere = (filter: IncidentFilter): Prisma.IncidentWhereInput =>
  filter === "all"
    ? {}
    : filter === "active"
      ? { state: { in: [...ACTIVE_STATES] } }
      : filter === "closed"
        ? { state: { in: [...CLOSED_STATES] } }
        : { state: filter };

/** The views of some incidents of a project, in the order of `rows`: each with its regressions, their endpoints and links. */
export async function viewsOf(db: ReadDb, project: { id: string; slug: string; defaultBranch: string }, rows: IncidentRow[]): Promise<IncidentView[]> {
  if (rows.length === 0) return [];
  const withLinks = await listIncidentChanges(db, project, rows.map((row) => row.id));
  return rows.map((row) => {
    const members = byLargestChange(withLinks.filter((regression) => regression.incidentId === row.id));
    const largest = members[0];
    return {
      ...row,
      regressions: members,
      endpoints: [...new Set(members.map((member) => member.endpoint?.name ?? null))],
      returned: { count: members.filter((member) => member.returnRunId !== null).length, of: members.length },
      comparePath: largest?.links.comparePath ?? null,
      trendPath: largest?.links.trendPath ?? null,
    };
  });
}

/** A project's incidents under a filter, newest first, with their regressions. */
export async function listIncidents(db: ReadDb, projectSlug: string, filter: IncidentFilter = "active", take = 100) {
  const project = await requireProject(db, projectSlug);
  const rows = await db.incident.findMany({
    where: { projectId: project.id, ...stateWhere(filter) },
    select: INCIDENT_SELECT,
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take,
  });
  return { project, incidents: await viewsOf(db, project, rows) };
}

/** How many incidents of each state a project has (the inbox's filter tabs). */
export async function countIncidentsByState(db: ReadDb, projectId: string): Promise<Record<IncidentState, number>> {
  const groups = await db.incident.groupBy({ by: ["state"], where: { projectId }, _count: { _all: true } });
  const counts = { open: 0, investigating: 0, fixed: 0, backed_out: 0, accepted: 0, invalid: 0 } satisfies Record<IncidentState, number>;
  for (const group of groups) counts[group.state] = group._count._all;
  return counts;
}

/** One incident with its regressions and its history; not found unless it is the project's. */
export async function getIncident(db: ReadDb, projectSlug: string, number: number) {
  const project = await requireProject(db, projectSlug);
  const row = await db.incident.findUnique({ where: { projectId_number: { projectId: project.id, number } }, select: INCIDENT_SELECT });
  if (!row) throw notFound(`Incident #${number} of project "${projectSlug}"`);
  const [[view], events] = await Promise.all([
    viewsOf(db, project, [row]),
    db.incident.findUniqueOrThrow({ where: { id: row.id } }).events({
      select: { at: true, by: true, fromState: true, toState: true, note: true },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    }),
  ]);
  return { project, incident: { ...view!, events } };
}

/** Alert precision of a project: its closed incidents, valid against invalid, overall, per detector version and per month. */
export async function getAlertPrecision(db: ReadDb, projectSlug: string): Promise<AlertPrecision> {
  const project = await requireProject(db, projectSlug);
  const incidents = await db.incident.findMany({
    where: { projectId: project.id },
    select: { state: true, detectorVersion: true, closedAt: true },
  });
  return computeAlertPrecision(incidents);
}

/** The REST shape of an incident: ISO times and absolute links. */
export function toIncidentJson(incident: IncidentView & { events?: { at: Date; by: string; fromState: IncidentState | null; toState: IncidentState | null; note: string | null }[] }, slug: string, baseUrl: string) {
  return {
    id: incident.id,
    number: incident.number,
    state: incident.state,
    note: incident.note,
    links: incident.links,
    detectorVersion: incident.detectorVersion,
    stateChangedAt: incident.stateChangedAt?.toISOString() ?? null,
    stateChangedBy: incident.stateChangedBy,
    closedAt: incident.closedAt?.toISOString() ?? null,
    createdAt: incident.createdAt.toISOString(),
    firstRun: { ...incident.firstRun, startedAt: incident.firstRun.startedAt.toISOString() },
    endpoints: incident.endpoints,
    returned: incident.returned,
    url: absoluteUrl(baseUrl, pagePaths.incident(slug, incident.number)),
    compareUrl: incident.comparePath ? absoluteUrl(baseUrl, incident.comparePath) : null,
    regressions: incident.regressions.map((regression) => ({ ...toChangeJson(regression, baseUrl), returnRunId: regression.returnRunId })),
    ...(incident.events && {
      events: incident.events.map((event) => ({
        at: event.at.toISOString(),
        by: event.by,
        from: event.fromState,
        to: event.toState,
        note: event.note,
        summary: event.fromState && event.toState ? describeStateChange(event.fromState, event.toState) : event.toState === "open" ? "Opened" : null,
      })),
    }),
  };
}
