import type { PrismaClient } from "../generated/prisma/client";
import { createAnnotationSchema } from "../schemas/annotations";
import type { Principal } from "./auth";
import { requireAdmin } from "./auth";
import { notFound } from "./errors";
import { requireProject } from "./projects";

/** Notes on runs ("deployed v2.3"), shown on every chart that includes the run. */

export interface RunAnnotation {
  id: string;
  text: string;
  createdAt: Date;
}

const ANNOTATION_SELECT = { id: true, runId: true, text: true, createdAt: true } as const;

/** A run's annotations, oldest first; a run of another project is not found. */
export async function listRunAnnotations(db: PrismaClient, slug: string, runId: string) {
  const project = await requireProject(db, slug);
  const run = await db.run.findFirst({
    where: { id: runId, projectId: project.id },
    select: { annotations: { select: ANNOTATION_SELECT, orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
  });
  if (!run) throw notFound(`Run "${runId}"`);
  return run.annotations;
}

/** Annotates a run of the project (admin); `input` is checked against createAnnotationSchema. */
export async function createAnnotation(db: PrismaClient, principal: Principal, slug: string, runId: string, input: unknown) {
  requireAdmin(principal);
  const project = await requireProject(db, slug);
  const { text } = createAnnotationSchema.parse(input);
  const run = await db.run.findFirst({ where: { id: runId, projectId: project.id }, select: { id: true } });
  if (!run) throw notFound(`Run "${runId}"`);
  return db.annotation.create({ data: { projectId: project.id, runId: run.id, text }, select: ANNOTATION_SELECT });
}

/** Deletes an annotation of the project (admin); another project's annotation is not found. */
export async function deleteAnnotation(db: PrismaClient, principal: Principal, slug: string, annotationId: string): Promise<void> {
  requireAdmin(principal);
  const project = await requireProject(db, slug);
  const { count } = await db.annotation.deleteMany({ where: { id: annotationId, projectId: project.id } });
  if (count === 0) throw notFound(`Annotation "${annotationId}"`);
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
