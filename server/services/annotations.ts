import type { PrismaClient } from "../generated/prisma/client";

/** Notes on runs ("deployed v2.3"), shown on every chart that includes the run. */

export interface RunAnnotation {
  id: string;
  text: string;
  createdAt: Date;
}

const ANNOTATION_SELECT = { id: true, runId: true, text: true, createdAt: true } as const;

/** A run's annotations, oldest first; null when the project has no such run. */
export async function listRunAnnotations(db: PrismaClient, projectId: string, runId: string) {
  const run = await db.run.findFirst({
    where: { id: runId, projectId },
    select: { annotations: { select: ANNOTATION_SELECT, orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
  });
  return run?.annotations ?? null;
}

/** Adds an annotation to a run of the project; null when the project has no such run. */
export async function createAnnotation(db: PrismaClient, projectId: string, runId: string, text: string) {
  const run = await db.run.findFirst({ where: { id: runId, projectId }, select: { id: true } });
  if (!run) return null;
  return db.annotation.create({ data: { projectId, runId: run.id, text }, select: ANNOTATION_SELECT });
}

/** Deletes an annotation of the project; false when there was none with that id. */
export async function deleteAnnotation(db: PrismaClient, projectId: string, annotationId: string): Promise<boolean> {
  const { count } = await db.annotation.deleteMany({ where: { id: annotationId, projectId } });
  return count > 0;
}

/**
 * The annotations of many runs at once, for charts: one query on the (project_id, run_id) index.
 * Runs without annotations are absent from the map; each list is oldest first.
 */
export async function listAnnotationsForRuns(
  db: PrismaClient,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, RunAnnotation[]>> {
  const byRun = new Map<string, RunAnnotation[]>();
  if (runIds.length === 0) return byRun;
  const rows = await db.annotation.findMany({
    where: { projectId, runId: { in: [...new Set(runIds)] } },
    select: ANNOTATION_SELECT,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  for (const { runId, ...annotation } of rows) {
    const list = byRun.get(runId);
    if (list) list.push(annotation);
    else byRun.set(runId, [annotation]);
  }
  return byRun;
}
