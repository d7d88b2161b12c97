import { toCompareLinks, toRunReport } from "../domain/report/run-report";
import type { RunReport } from "../domain/report/run-report";
import type { PrismaClient } from "../generated/prisma/client";
import { pinnedRunIds } from "./baselines";
import { requireProject } from "./projects";
import { effectiveFailOn } from "../domain/fail-on";
import { findGateHead, judgeRun, keptOutcome } from "./run-gate";
import type { KeptOutcome, RunGateResult } from "./run-gate";

/**
 * The run report page's data: the stored run with its CI gate against its baseline as it stands now
 * (with the project's fail_on) and what its upload answered, graded against the project's SLA policy, its
 * annotations, whether it is a pinned baseline, and what to compare it with. The shaping itself is
 * pure (server/domain/report/run-report.ts).
 */

/** How many labels the "compare with…" control offers. */
const COMPARE_LABELS = 12;

/** The report of one run; not_found for an unknown project, or a run that is not the project's. */
export async function getRunReport(
  db: PrismaClient,
  projectSlug: string,
  runId: string,
): Promise<RunReport & { verdict: Omit<RunGateResult, "run"> & { atUpload: KeptOutcome | null } }> {
  const project = await requireProject(db, projectSlug);
  const head = await findGateHead(db, project.id, runId);
  // The run is read once, with its baseline, by the verdict it opens with (the same as CI's).
  const { run: loaded, ...verdict } = await judgeRun(db, project, head, effectiveFailOn(null, project.failOn));
  const [previous, labels, annotations, pinned] = await Promise.all([
    db.run.findFirst({
      where: {
        projectId: project.id,
        label: loaded.run.label,
        gitBranch: loaded.run.environment.git.branch,
        startedAt: { lt: loaded.stored.startedAt },
      },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true, label: true, round: true, tool: true },
    }),
    db.run.groupBy({
      by: ["label"],
      where: { projectId: project.id, label: { not: null } },
      orderBy: { label: "asc" },
      take: COMPARE_LABELS,
    }),
    db.annotation.findMany({
      where: { projectId: project.id, runId: loaded.stored.id },
      orderBy: { createdAt: "asc" },
      select: { id: true, kind: true, text: true, createdAt: true },
    }),
    pinnedRunIds(db, project.id),
  ]);
  const report = toRunReport(project, loaded.stored, loaded.run, {
    grade: verdict.grade,
    compare: toCompareLinks(
      project.slug,
      loaded.stored.id,
      previous,
      labels.flatMap(({ label }) => (label ? [label] : [])),
    ),
    annotations: annotations.map((annotation) => ({ ...annotation, createdAt: annotation.createdAt.toISOString() })),
    isPinnedBaseline: pinned.has(loaded.stored.id),
  });
  // What the upload answered beside what the gate says now: both shown when they differ, never one for the other.
  return { ...report, verdict: { ...verdict, atUpload: keptOutcome(head) } };
}
