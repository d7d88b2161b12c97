import type { PrismaClient } from "../generated/prisma/client";
import { baselinePinSchema } from "../schemas/baselines";
import type { Principal } from "./auth";
import { requireAdmin } from "./auth";
import { notFound, ServiceError } from "./errors";
import { requireProject } from "./projects";

/**
 * What a new run is compared with. By default: the most recent runs of its series on the project's
 * default branch, before this run — same tool, same label (see docs/statistics.md, "Series"): a PR
 * run is compared with main, a main run with its own recent past, and a Locust run is never judged
 * against k6 numbers. A user can pin a run, a set of runs, or a label as the baseline for a label (or
 * for every label); a pinned label still takes runs of the same tool.
 */
export const DEFAULT_BASELINE_RUNS = 5;

export interface ChosenBaseline {
  runIds: string[];
  /** How it was chosen, in words: shown in the upload answer, the run page and the PR comment. */
  how: string;
  pinned: boolean;
}

interface RunForBaseline {
  id: string;
  label: string | null;
  tool: string;
  startedAt: Date;
}

export async function chooseBaseline(
  db: PrismaClient,
  project: { id: string; defaultBranch: string },
  run: RunForBaseline,
): Promise<ChosenBaseline> {
  const pins = await db.baselinePin.findMany({
    where: { projectId: project.id, OR: [{ forLabel: run.label }, { forLabel: null }] },
    orderBy: { createdAt: "desc" },
  });
  const pin = pins.find((candidate) => candidate.forLabel !== null) ?? pins[0];
  if (pin && pin.runIds.length > 0) {
    const runIds = pin.runIds.filter((id) => id !== run.id);
    return { runIds, how: `pinned baseline: ${runIds.length} run${runIds.length === 1 ? "" : "s"}`, pinned: true };
  }
  const label = pin?.baselineLabel ?? run.label;
  const recent = await db.run.findMany({
    where: {
      projectId: project.id,
      label,
      tool: run.tool,
      gitBranch: project.defaultBranch,
      id: { not: run.id },
      ...(pin ? {} : { startedAt: { lt: run.startedAt } }),
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: DEFAULT_BASELINE_RUNS,
    select: { id: true },
  });
  const labelText = label === null ? "without a label" : `labelled ${label}`;
  const runs = (count: number) => `${run.tool} run${count === 1 ? "" : "s"}`;
  const how = pin
    ? `pinned baseline: the last ${recent.length} ${runs(recent.length)} ${labelText} on ${project.defaultBranch}`
    : recent.length === 0
      ? `no earlier ${runs(2)} ${labelText} on ${project.defaultBranch}`
      : `the last ${recent.length} ${runs(recent.length)} ${labelText} on ${project.defaultBranch}`;
  return { runIds: recent.map((row) => row.id), how, pinned: pin !== undefined };
}

const PIN_SELECT = { id: true, forLabel: true, runIds: true, baselineLabel: true, createdAt: true } as const;

/** The project's pinned baselines, newest first, and the branch its unpinned labels are compared on. */
export async function listBaselinePins(db: PrismaClient, slug: string) {
  const project = await requireProject(db, slug);
  const pins = await db.baselinePin.findMany({ where: { projectId: project.id }, select: PIN_SELECT, orderBy: { createdAt: "desc" } });
  return { defaultBranch: project.defaultBranch, pins };
}

/**
 * Pins runs, or a label, as the baseline of `forLabel` (admin), replacing that label's pin (one pin
 * per label). `input` is checked against baselinePinSchema; every pinned run must be of this project.
 */
export async function pinBaseline(db: PrismaClient, principal: Principal, slug: string, input: unknown) {
  requireAdmin(principal);
  const project = await requireProject(db, slug);
  const pin = baselinePinSchema.parse(input);
  if (pin.runIds) {
    const found = await db.run.count({ where: { projectId: project.id, id: { in: pin.runIds } } });
    if (found !== new Set(pin.runIds).size) {
      throw new ServiceError("bad_request", "Some runs are not in this project", [{ path: "runIds", message: "unknown run id" }]);
    }
  }
  return db.$transaction(async (tx) => {
    await tx.baselinePin.deleteMany({ where: { projectId: project.id, forLabel: pin.forLabel } });
    return tx.baselinePin.create({
      data: { projectId: project.id, forLabel: pin.forLabel, runIds: pin.runIds ?? [], baselineLabel: pin.label ?? null },
      select: PIN_SELECT,
    });
  });
}

/** Removes the pin of `forLabel` (null: the pin for every label) (admin); no such pin is not found. */
export async function unpinBaseline(db: PrismaClient, principal: Principal, slug: string, forLabel: string | null): Promise<void> {
  requireAdmin(principal);
  const project = await requireProject(db, slug);
  const { count } = await db.baselinePin.deleteMany({ where: { projectId: project.id, forLabel } });
  if (count === 0) throw notFound("Pinned baseline");
}

/** Ids of runs pinned in any baseline of the project, to mark them everywhere. */
export async function pinnedRunIds(db: PrismaClient, projectId: string): Promise<Set<string>> {
  const pins = await db.baselinePin.findMany({ where: { projectId }, select: { runIds: true } });
  return new Set(pins.flatMap((pin) => pin.runIds));
}
