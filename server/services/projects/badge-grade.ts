import type { ReadDb } from "../../db";
import type { SlaGrade } from "../../domain/sla/grade";
import { requireProject } from "./projects";
import { getSlaPolicy, gradeLoadedRun } from "../runs";
import { loadParsedRun } from "../runs";

/**
 * What the project's grade badge shows: the SLA grade of its latest run on the default branch (of any
 * branch when the default has none), narrowed to a label when one is given; undefined without a run.
 */
export async function getBadgeGrade(db: ReadDb, slug: string, label: string | undefined): Promise<SlaGrade | null | undefined> {
  const project = await requireProject(db, slug);
  const latest =
    (await db.run.findFirst({
      where: { projectId: project.id, gitBranch: project.defaultBranch, label },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    })) ??
    (await db.run.findFirst({
      where: { projectId: project.id, label },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    }));
  const loaded = latest ? await loadParsedRun(db, project.id, latest.id) : null;
  return loaded ? gradeLoadedRun(await getSlaPolicy(db, project.id), loaded) : undefined;
}
