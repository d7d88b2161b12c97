import type { ReadDb } from "../../db";
import type { GateBadgeInput } from "../../domain/gate/badge";
import { ACTIVE_STATES } from "../../domain/incidents/state";
import { readOutcome } from "../../domain/series/gate-status";
import { NOT_AB_BASE } from "../runs";
import { requireProject } from "./projects";

/**
 * What the project's gate badge shows (domain/gate/badge.ts): the outcome its latest run on the default
 * branch stored at upload (never judged again), narrowed to a label when one is given, and the number of
 * the project's incidents still open. No fallback to other branches, unlike the grade badge: the gate's
 * word on a pull request's branch is not the project's.
 *
 * After the project row, two statements at once, each one index range:
 * - the latest run: runs (project_id, git_branch, started_at DESC), newest first, A/B jobs' base-side runs
 *   left out (no series' history, as in series-gates.ts);
 * - open incidents: a count over incidents (project_id, state, created_at DESC), state open or
 *   investigating. The project's, whatever the label: the count of its incidents inbox (a label's own
 *   would join each incident's first run).
 */
export async function getGateBadge(db: ReadDb, slug: string, label: string | undefined): Promise<GateBadgeInput> {
  const project = await requireProject(db, slug);
  const [latest, openIncidents] = await Promise.all([
    db.run.findFirst({
      where: { projectId: project.id, gitBranch: project.defaultBranch, label, ...NOT_AB_BASE },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { outcome: true },
    }),
    db.incident.count({ where: { projectId: project.id, state: { in: [...ACTIVE_STATES] } } }),
  ]);
  const outcome = latest ? readOutcome(latest.outcome) : null;
  return {
    branch: project.defaultBranch,
    label: label ?? null,
    status: latest === null ? { kind: "no-runs" } : outcome === null ? { kind: "not-kept" } : { kind: "judged", outcome },
    openIncidents,
  };
}
