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
 * Links of a regression: the comparison of the runs before the change with the runs after it, and
 * the trend with the change point marked.
 */
export async function regressionLinks(db: PrismaClient, project: { id: string; slug: string; defaultBranch: string }, row: RegressionRow) {
  const runsAround = async (direction: "before" | "after") =>
    db.run.findMany({
      where: {
        projectId: project.id,
        label: row.firstRun.label,
        gitBranch: project.defaultBranch,
        startedAt: direction === "before" ? { lt: row.firstRun.startedAt } : { gte: row.firstRun.startedAt },
      },
      orderBy: [{ startedAt: direction === "before" ? "desc" : "asc" }, { id: direction === "before" ? "desc" : "asc" }],
      take: 10,
      select: { id: true },
    });
  const [before, after] = await Promise.all([runsAround("before"), runsAround("after")]);
  const path = `/projects/${encodeURIComponent(project.slug)}`;
  const endpoint = row.endpoint?.name ?? "_all";
  return {
    comparePath:
      before.length > 0 && after.length > 0
        ? `${path}/compare?${new URLSearchParams({ base: before.map((run) => run.id).join(","), head: after.map((run) => run.id).join(",") })}`
        : null,
    trendPath: `${path}/endpoints/${encodeURIComponent(endpoint)}?${new URLSearchParams({ cp: row.firstRunId, lines: row.metric.startsWith("p") ? row.metric : "p95" })}`,
  };
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
