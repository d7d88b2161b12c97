import type { ReadDb } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { ANNOTATION_LIST_LIMIT, createAnnotationSchema, createMarkerSchema } from "../../schemas/annotations";
import type { AnnotationQuery, AnnotationKind } from "../../schemas/annotations";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { notFound } from "../platform";
import { requireProject } from "../projects";
import { actorOf, recordAudit } from "../audit";

/**
 * Notes on runs ("deployed v2.3") and markers of the project at a time or on a run (deploys, known
 * changes), shown on every trend chart whose history includes them. A "change" starts a new regime:
 * change-point detection never looks across it (server/services/incidents/regression-detection.ts).
 */

export interface RunAnnotation {
  id: string;
  at: Date;
  kind: AnnotationKind;
  text: string;
  createdAt: Date;
}

const ANNOTATION_SELECT = { id: true, runId: true, at: true, kind: true, text: true, createdAt: true } as const;

/** A run's annotations, oldest first; a run of another project is not found. */
export async function listRunAnnotations(db: ReadDb, slug: string, runId: string) {
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
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "mark");
  const { text, kind } = createAnnotationSchema.parse(input);
  const run = await db.run.findFirst({ where: { id: runId, projectId: project.id }, select: { id: true, startedAt: true } });
  if (!run) throw notFound(`Run "${runId}"`);
  return createAudited(db, principal, project, { projectId: project.id, runId: run.id, at: run.startedAt, kind, text });
}

/**
 * A marker of the project, on a run or at a time (POST …/annotations): the admin, or the project's
 * own token (a deploy pipeline marks its deploys with the token it uploads with). `input` is checked
 * against createMarkerSchema.
 */
export async function createMarker(db: PrismaClient, principal: Principal, slug: string, input: unknown) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "mark");
  const marker = createMarkerSchema.parse(input);
  let runId: string | null = null;
  let at: Date;
  if (marker.runId !== undefined) {
    const run = await db.run.findFirst({ where: { id: marker.runId, projectId: project.id }, select: { id: true, startedAt: true } });
    if (!run) throw notFound(`Run "${marker.runId}"`);
    runId = run.id;
    at = run.startedAt;
  } else {
    at = new Date(marker.at!);
  }
  return createAudited(db, principal, project, { projectId: project.id, runId, at, kind: marker.kind, text: marker.text });
}

/** Writes an annotation or marker with its `annotation.create` audit entry, in one transaction. */
async function createAudited(
  db: PrismaClient,
  principal: Principal,
  project: { slug: string },
  data: { projectId: string; runId: string | null; at: Date; kind: AnnotationKind; text: string },
) {
  return db.$transaction(async (tx) => {
    const row = await tx.annotation.create({ data, select: ANNOTATION_SELECT });
    await recordAudit(tx, { ...actorOf(principal), action: "annotation.create", projectSlug: project.slug, targetId: row.id, detail: annotationDetail(row) });
    return row;
  });
}

function annotationDetail(row: { kind: AnnotationKind; text: string; runId: string | null; at: Date }) {
  return { kind: row.kind, text: row.text, runId: row.runId, at: row.at.toISOString() };
}

/** The project's markers in a window, oldest first (at most ANNOTATION_LIST_LIMIT: the newest). */
export async function listAnnotations(db: ReadDb, slug: string, query: AnnotationQuery) {
  const project = await requireProject(db, slug);
  const rows = await db.annotation.findMany({
    where: {
      projectId: project.id,
      kind: query.kind,
      at: { gte: query.from ? new Date(query.from) : undefined, lt: query.to ? new Date(query.to) : undefined },
    },
    select: ANNOTATION_SELECT,
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: ANNOTATION_LIST_LIMIT,
  });
  return rows.reverse();
}

/** Deletes an annotation of the project (admin); another project's annotation is not found. */
export async function deleteAnnotation(db: PrismaClient, principal: Principal, slug: string, annotationId: string): Promise<void> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "mark");
  await db.$transaction(async (tx) => {
    const row = await tx.annotation.findFirst({ where: { id: annotationId, projectId: project.id }, select: ANNOTATION_SELECT });
    const { count } = await tx.annotation.deleteMany({ where: { id: annotationId, projectId: project.id } });
    if (count === 0 || !row) throw notFound(`Annotation "${annotationId}"`);
    await recordAudit(tx, { ...actorOf(principal), action: "annotation.delete", projectSlug: project.slug, targetId: annotationId, detail: annotationDetail(row) });
  });
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
    if (runId === null) continue;
    const list = byRun.get(runId);
    if (list) list.push(annotation);
    else byRun.set(runId, [annotation]);
  }
  return byRun;
}
