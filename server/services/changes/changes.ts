import type { ReadDb } from "../../db";
import type { z } from "zod";
import type { regressionStatusSchema, updateRegressionSchema } from "../../schemas/regressions";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { notFound } from "../platform";
import { requireProject } from "../projects";
import { actorOf, recordAudit } from "../audit";

/** A project's changes (regressions and improvements), newest first, with their status and links. */

export const CHANGE_SELECT = {
  id: true,
  metric: true,
  kind: true,
  beforeValue: true,
  afterValue: true,
  deltaPct: true,
  pValue: true,
  status: true,
  statusChangedAt: true,
  statusChangedBy: true,
  createdAt: true,
  firstRunId: true,
  endpoint: { select: { name: true, protocol: true } },
  firstRun: { select: { label: true, round: true, startedAt: true, gitCommit: true, gitBranch: true } },
} satisfies Prisma.ChangeSelect;

export type ChangeRow = Prisma.ChangeGetPayload<{ select: typeof CHANGE_SELECT }>;
export interface ChangeLinks {
  /** The runs before the change vs the runs from it on; null without both. */
  comparePath: string | null;
  /** The endpoint's trend page, the change point marked. */
  trendPath: string;
}
export type ChangeWithLinks = ChangeRow & { links: ChangeLinks };
type InboxProject = { id: string; slug: string; defaultBranch: string };

export async function listChanges(
  db: ReadDb,
  projectId: string,
  filter: { status?: z.infer<typeof regressionStatusSchema>; kind?: "regression" | "improvement" } = {},
  take = 200,
): Promise<ChangeRow[]> {
  return db.change.findMany({
    where: { projectId, ...(filter.status && { status: filter.status }), ...(filter.kind && { kind: filter.kind }) },
    select: CHANGE_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
}

/** Rows with their links (one more query for all of them). */
async function withChangeLinks(db: ReadDb, project: InboxProject, rows: ChangeRow[]): Promise<ChangeWithLinks[]> {
  const links = await changeLinksForRows(db, project, rows);
  return rows.map((row, index) => ({ ...row, links: links[index]! }));
}

/** A project's changes with their links (the REST listing and the inbox's tables). */
export async function listProjectChanges(
  db: ReadDb,
  projectSlug: string,
  filter: { status?: z.infer<typeof regressionStatusSchema>; kind?: "regression" | "improvement" } = {},
  take = 200,
) {
  const project = await requireProject(db, projectSlug);
  return { project, changes: await withChangeLinks(db, project, await listChanges(db, project.id, filter, take)) };
}

/**
 * Acknowledge, dismiss or reopen (admin); not found unless the change is the project's. Who did it is the
 * caller in the audit log's words, with the name they gave ("sam (admin token)"), as incidents say it.
 */
export async function setChangeStatus(
  db: PrismaClient,
  principal: Principal,
  projectSlug: string,
  changeId: string,
  update: z.infer<typeof updateRegressionSchema>,
): Promise<ChangeWithLinks> {
  const project = await requireProject(db, projectSlug);
  await requireProjectAccess(db, principal, project, "triage");
  const actor = actorOf(principal);
  const given = principal.kind === "user" ? undefined : update.by?.trim();
  const by = given ? `${given} (${actor.actor})` : actor.actor;
  const updated = await db.$transaction(async (tx) => {
    const before = await tx.change.findFirst({ where: { id: changeId, projectId: project.id }, select: { status: true } });
    if (!before) return { count: 0 };
    await tx.change.update({ where: { id: changeId }, data: { status: update.status, statusChangedAt: new Date(), statusChangedBy: by }, select: { id: true } });
    if (before.status !== update.status) {
      await recordAudit(tx, {
        ...actor,
        action: "change.update",
        projectSlug: project.slug,
        targetId: changeId,
        detail: { from: { status: before.status }, to: { status: update.status }, ...(by !== actor.actor && { by }) },
      });
    }
    return { count: 1 };
  });
  const row = updated.count === 0 ? null : await db.change.findUnique({ where: { id: changeId }, select: CHANGE_SELECT });
  if (!row) throw notFound(`Regression "${changeId}"`);
  const [withLinks] = await withChangeLinks(db, project, [row]);
  return withLinks!;
}

/**
 * Links of changes: the comparison of the (up to 10) runs before each change with the runs after
 * it, and the trend with the change point marked. The runs of every label involved are read in one
 * query (ids and times only) and sliced in memory, so a list of changes costs one query, not two
 * per row.
 */
const RUNS_AROUND_CHANGE = 10;

async function changeLinksForRows(
  db: ReadDb,
  project: InboxProject,
  rows: readonly ChangeRow[],
): Promise<ChangeLinks[]> {
  if (rows.length === 0) return [];
  const labels = [...new Set(rows.map((row) => row.firstRun.label))];
  const nonNullLabels = labels.filter((label): label is string => label !== null);
  const runs = await db.run.findMany({
    where: {
      projectId: project.id,
      gitBranch: project.defaultBranch,
      OR: [...(nonNullLabels.length > 0 ? [{ label: { in: nonNullLabels } }] : []), ...(labels.includes(null) ? [{ label: null }] : [])],
    },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    select: { id: true, label: true, startedAt: true },
  });
  return rows.map((row) => {
    const sameLabel = runs.filter((run) => run.label === row.firstRun.label);
    const firstAfter = sameLabel.findIndex((run) => run.startedAt.getTime() >= row.firstRun.startedAt.getTime());
    const split = firstAfter === -1 ? sameLabel.length : firstAfter;
    const before = sameLabel.slice(Math.max(0, split - RUNS_AROUND_CHANGE), split).reverse();
    const after = sameLabel.slice(split, split + RUNS_AROUND_CHANGE);
    return {
      comparePath:
        before.length > 0 && after.length > 0
          ? pagePaths.compare(project.slug, { base: before.map((run) => run.id), head: after.map((run) => run.id) })
          : null,
      trendPath: pagePaths.endpoint(
        project.slug,
        row.endpoint ?? null,
        new URLSearchParams({ cp: row.firstRunId, lines: row.metric.startsWith("p") ? row.metric : "p95" }),
      ),
    };
  });
}

/** The run a change's series came back at, as incident views name it. */
const RETURN_RUN_SELECT = { id: true, label: true, round: true, startedAt: true, gitCommit: true } satisfies Prisma.RunSelect;

const INCIDENT_CHANGE_SELECT = {
  ...CHANGE_SELECT,
  incidentId: true,
  endpointId: true,
  returnRunId: true,
  returnRun: { select: RETURN_RUN_SELECT },
} satisfies Prisma.ChangeSelect;

export type IncidentChangeRow = Prisma.ChangeGetPayload<{ select: typeof INCIDENT_CHANGE_SELECT }> & { links: ChangeLinks };

/**
 * The regressions of some incidents, oldest first, each with its links: what the incident views and the
 * notifications both read (one query for the rows, one for the links).
 */
export async function listIncidentChanges(
  db: ReadDb,
  project: InboxProject,
  incidentIds: readonly string[],
): Promise<IncidentChangeRow[]> {
  if (incidentIds.length === 0) return [];
  const rows = await db.change.findMany({
    where: { incidentId: { in: [...incidentIds] } },
    select: INCIDENT_CHANGE_SELECT,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const links = await changeLinksForRows(db, project, rows);
  return rows.map((row, index) => ({ ...row, links: links[index]! }));
}

/** The REST (and webhook) shape of a change: ISO times and absolute links (the field names are public). */
export function toChangeJson({ links, ...row }: ChangeWithLinks, baseUrl: string) {
  return {
    id: row.id,
    kind: row.kind,
    endpoint: row.endpoint?.name ?? null,
    metric: row.metric,
    firstRunId: row.firstRunId,
    before: row.beforeValue,
    after: row.afterValue,
    deltaPct: row.deltaPct,
    pValue: row.pValue,
    status: row.status,
    statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
    statusChangedBy: row.statusChangedBy,
    createdAt: row.createdAt.toISOString(),
    firstRun: { ...row.firstRun, startedAt: row.firstRun.startedAt.toISOString() },
    compareUrl: links.comparePath ? absoluteUrl(baseUrl, links.comparePath) : null,
    trendUrl: absoluteUrl(baseUrl, links.trendPath),
  };
}
