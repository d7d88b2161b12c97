import type { ReadDb } from "../../db";
import { toBenchtrackDocument } from "../../domain/parsers";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import { gradeLoadedRun, getSlaPolicy } from "./sla";
import type { SlaGrade } from "../../domain/sla/grade";
import type { LoadedRun } from "./stored-runs";
import { loadParsedRun } from "./stored-runs";

export function runPageUrl(baseUrl: string, projectSlug: string, runId: string): string {
  return absoluteUrl(baseUrl, pagePaths.run(projectSlug, runId));
}

/**
 * A stored run as the API returns it: its id and page URL, the run in the Benchtrack format, and its
 * SLA grade against its budget's targets or the project's current policy (null when it has no SLA).
 */
export async function getRunDocument(
  db: ReadDb,
  project: { id: string; slug: string },
  runId: string,
  baseUrl: string,
) {
  const [loaded, policy] = await Promise.all([loadParsedRun(db, project.id, runId, { timelines: true }), getSlaPolicy(db, project.id)]);
  if (!loaded) return null;
  return toRunDocument(project, loaded, gradeLoadedRun(policy, loaded), baseUrl);
}

/** The same answer from a run and grade already at hand (the upload's gate loaded both). */
export function toRunDocument(project: { slug: string }, loaded: LoadedRun, grade: SlaGrade | null, baseUrl: string) {
  return {
    id: loaded.stored.id,
    url: runPageUrl(baseUrl, project.slug, loaded.stored.id),
    project: project.slug,
    uploadedAt: loaded.stored.uploadedAt.toISOString(),
    ...toBenchtrackDocument(loaded.run),
    grade,
  };
}
