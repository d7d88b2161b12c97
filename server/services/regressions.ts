import { z } from "zod";
import type { Prisma, PrismaClient } from "../generated/prisma/client";

/** The regressions inbox: detected changes, newest first, with their status. */
export const regressionStatusSchema = z.enum(["open", "acknowledged", "dismissed"]);
export const regressionsQuerySchema = z.object({
  status: regressionStatusSchema.optional().describe("Only regressions with this status."),
  kind: z.enum(["regression", "improvement"]).optional().describe("Only regressions, or only improvements."),
});
export const updateRegressionSchema = z
  .object({ status: regressionStatusSchema, by: z.string().min(1).max(200).optional().describe("Who changed it (free text).") })
  .describe("A regression's new status.");

const REGRESSION_SELECT = {
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
  endpoint: { select: { name: true } },
  firstRun: { select: { label: true, round: true, startedAt: true, gitCommit: true, gitBranch: true } },
} satisfies Prisma.RegressionSelect;

export type RegressionRow = Prisma.RegressionGetPayload<{ select: typeof REGRESSION_SELECT }>;

export async function listRegressions(
  db: PrismaClient,
  projectId: string,
  filter: { status?: z.infer<typeof regressionStatusSchema>; kind?: "regression" | "improvement" } = {},
  take = 200,
): Promise<RegressionRow[]> {
  return db.regression.findMany({
    where: { projectId, ...(filter.status && { status: filter.status }), ...(filter.kind && { kind: filter.kind }) },
    select: REGRESSION_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
}

export async function updateRegressionStatus(
  db: PrismaClient,
  projectId: string,
  regressionId: string,
  change: z.infer<typeof updateRegressionSchema>,
): Promise<RegressionRow | null> {
  const updated = await db.regression.updateMany({
    where: { id: regressionId, projectId },
    data: { status: change.status, statusChangedAt: new Date(), statusChangedBy: change.by ?? "admin" },
  });
  if (updated.count === 0) return null;
  return db.regression.findUnique({ where: { id: regressionId }, select: REGRESSION_SELECT });
}

/**
 * Links of regressions: the comparison of the (up to 10) runs before each change with the runs after
 * it, and the trend with the change point marked. The runs of every label involved are read in one
 * query (ids and times only) and sliced in memory, so a list of regressions costs one query, not two
 * per row.
 */
const RUNS_AROUND_CHANGE = 10;

export async function regressionLinksForRows(
  db: PrismaClient,
  project: { id: string; slug: string; defaultBranch: string },
  rows: readonly RegressionRow[],
): Promise<{ comparePath: string | null; trendPath: string }[]> {
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
  const path = `/projects/${encodeURIComponent(project.slug)}`;
  return rows.map((row) => {
    const sameLabel = runs.filter((run) => run.label === row.firstRun.label);
    const firstAfter = sameLabel.findIndex((run) => run.startedAt.getTime() >= row.firstRun.startedAt.getTime());
    const split = firstAfter === -1 ? sameLabel.length : firstAfter;
    const before = sameLabel.slice(Math.max(0, split - RUNS_AROUND_CHANGE), split).reverse();
    const after = sameLabel.slice(split, split + RUNS_AROUND_CHANGE);
    const endpoint = row.endpoint?.name ?? "_all";
    return {
      comparePath:
        before.length > 0 && after.length > 0
          ? `${path}/compare?${new URLSearchParams({ base: before.map((run) => run.id).join(","), head: after.map((run) => run.id).join(",") })}`
          : null,
      trendPath: `${path}/endpoints/${encodeURIComponent(endpoint)}?${new URLSearchParams({ cp: row.firstRunId, lines: row.metric.startsWith("p") ? row.metric : "p95" })}`,
    };
  });
}

export async function regressionLinks(db: PrismaClient, project: { id: string; slug: string; defaultBranch: string }, row: RegressionRow) {
  const [links] = await regressionLinksForRows(db, project, [row]);
  return links!;
}

export function toRegressionJson(row: RegressionRow, links: { comparePath: string | null; trendPath: string }, baseUrl: string) {
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
    compareUrl: links.comparePath ? `${baseUrl}${links.comparePath}` : null,
    trendUrl: `${baseUrl}${links.trendPath}`,
  };
}
