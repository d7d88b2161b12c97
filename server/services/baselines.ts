import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { baselinePinSchema } from "../schemas/baselines";
import type { Principal } from "./auth";
import { requireAdmin } from "./auth";
import { notFound, ServiceError } from "./errors";
import { requireProject } from "./projects";

/**
 * What a new run is compared with. By default: the most recent runs of its series on the project's
 * default branch, before this run — same tool, same label (see docs/statistics.md, "Series"): a PR
 * run is compared with main, a main run with its own recent past, and a Locust run is never judged
 * against k6 numbers. An upload that names its merge-base (base_commit, from `git merge-base`) is
 * compared with the base branch's runs of its series at that commit, or, when that commit has none,
 * with the last ones before it (before base_time, the commit's time, when given; else before this
 * run): a PR is judged against where it branched, not against whatever main is now. A user can pin a
 * run, a set of runs, or a label as the baseline for a label (or for every label); pinned runs win
 * over a merge-base, and a pinned label still takes runs of the same tool.
 */
export const DEFAULT_BASELINE_RUNS = 5;

export interface ChosenBaseline {
  runIds: string[];
  /** How it was chosen, in words: shown in the upload answer, the run page and the PR comment. */
  how: string;
  pinned: boolean;
  /**
   * What chose it: pinned runs or label; the merge-base's runs; the base branch's last runs before the
   * merge-base (it had none); the default branch's last runs before this run.
   */
  basis: "pinned" | "merge-base" | "before-merge-base" | "recent";
}

export interface RunForBaseline {
  id: string;
  label: string | null;
  tool: string;
  startedAt: Date;
  /** The merge-base the upload named, lower-case hex (null: none named). */
  gitBaseCommit: string | null;
  /** The branch it is on (null: the project's default branch). */
  gitBaseBranch: string | null;
  /** Its commit time, when the upload gave it. */
  gitBaseTime: Date | null;
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
    return {
      runIds,
      how: `pinned baseline: ${runIds.length} run${runIds.length === 1 ? "" : "s"}`,
      pinned: true,
      basis: "pinned",
    };
  }
  const label = pin?.baselineLabel ?? run.label;
  const branch = run.gitBaseCommit ? (run.gitBaseBranch ?? project.defaultBranch) : project.defaultBranch;
  const series = { projectId: project.id, label, tool: run.tool, gitBranch: branch, id: { not: run.id } };
  const latest = (where: Prisma.RunWhereInput) =>
    db.run.findMany({
      where: { ...series, ...where },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: DEFAULT_BASELINE_RUNS,
      select: { id: true },
    });
  const labelText = label === null ? "without a label" : `labelled ${label}`;
  const runs = (count: number) => `${run.tool} run${count === 1 ? "" : "s"}`;
  const lastOnes = (count: number) => `the last ${count} ${runs(count)} ${labelText} on ${branch}`;
  const prefix = pin ? "pinned baseline: " : "";

  if (run.gitBaseCommit) {
    const commit = run.gitBaseCommit.slice(0, 7);
    // A short SHA names every commit it begins; runs store the SHA CI gave (any case).
    const atBase = await latest({ gitCommit: { startsWith: run.gitBaseCommit, mode: "insensitive" } });
    if (atBase.length > 0) {
      return {
        runIds: atBase.map((row) => row.id),
        how: `${prefix}the ${atBase.length} ${runs(atBase.length)} ${labelText} on ${branch} at the merge-base ${commit}`,
        pinned: pin !== undefined,
        basis: "merge-base",
      };
    }
    const before = run.gitBaseTime ?? run.startedAt;
    const earlier = await latest({ startedAt: { lt: before } });
    const since = run.gitBaseTime ? `before its commit time (${run.gitBaseTime.toISOString()})` : "before this run (no base_time given)";
    const how =
      earlier.length === 0
        ? `no ${runs(2)} ${labelText} on ${branch} at the merge-base ${commit} or ${since}`
        : `no ${runs(2)} ${labelText} on ${branch} at the merge-base ${commit}: ${lastOnes(earlier.length)} ${since}`;
    return { runIds: earlier.map((row) => row.id), how: `${prefix}${how}`, pinned: pin !== undefined, basis: "before-merge-base" };
  }

  const recent = await latest(pin ? {} : { startedAt: { lt: run.startedAt } });
  const how = pin
    ? `pinned baseline: ${lastOnes(recent.length)}`
    : recent.length === 0
      ? `no earlier ${runs(2)} ${labelText} on ${project.defaultBranch}`
      : lastOnes(recent.length);
  return { runIds: recent.map((row) => row.id), how, pinned: pin !== undefined, basis: pin ? "pinned" : "recent" };
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
