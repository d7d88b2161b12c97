import type { ReadDb } from "../../db";
import { describeLoadDifference, loadProfileDifference } from "../../domain/compare/load-profile";
import { BASELINE_CAP, chooseBaselineWindow } from "../../domain/gate/baseline-window";
import type { BaselineBasis, SeriesChange, WindowMode } from "../../domain/gate/baseline-window";
import type { IncidentState } from "../../domain/incidents/state";
import type { PrismaClient } from "../../generated/prisma/client";
import { baselinePinSchema } from "../../schemas/baselines";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { actorOf, recordAudit } from "../audit";
import { notFound, ServiceError } from "../platform";
import { requireProject } from "../projects";
import type { RunIdentity } from "../runs";
import { NOT_AB_BASE } from "../runs";
import { readSeriesWindow } from "./series-window-sql";

/**
 * What a new run is compared with (docs/statistics.md, "The CI gate"): its series' comparable history —
 * same tool, label, branch and load profile — since the last accepted change, up to BASELINE_CAP runs
 * (server/domain/gate/baseline-window.ts decides which). A run of the default branch is judged against
 * the default branch's runs before it; a pull request's run against the base branch's runs at and before
 * its merge-base (base_commit, base_branch, base_time), else before it. The head is the run together with
 * the earlier rounds of its commit on its branch (several uploads of one commit are judged together).
 * A user can pin a run, a set of runs, or a label as the baseline for a label (or for every label);
 * pinned runs win over everything, and a pinned label still takes runs of the same tool.
 */

/** Rounds of one commit judged together, at most. */
export const MAX_HEAD_ROUNDS = 10;
/** Rows of a series read to fill a window (load profile, failed runs and the cap leave some out). */
const SERIES_SCAN = 3 * BASELINE_CAP;
/** The series' latest change markers and recorded changes read (the window starts after the newest that counts). */
const MAX_MARKERS = 10;
const MAX_CHANGES = 200;

export interface ChosenBaseline {
  /** The baseline, newest first. */
  runIds: string[];
  /** Runs of the series before the window: read only for its longer-run noise. */
  noiseOnlyRunIds: string[];
  /** The head: this run and the earlier rounds of its commit on its branch, newest first. */
  headRunIds: string[];
  /** How it was chosen, in words: shown in the upload answer, the run page and the PR comment. */
  how: string;
  pinned: boolean;
  /** What chose it (domain/gate/baseline-window.ts). */
  basis: BaselineBasis;
  /** The open regression of the series the window stops before, in words; null when none. */
  openRegression: string | null;
  /** Its incident (number and state), which the run page links; null when none. */
  openIncident: { number: number; state: IncidentState } | null;
}


type Config = Readonly<Record<string, string | number | boolean>>;
const configOf = (config: unknown) => (config ?? {}) as Config;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The earlier rounds of the run's commit on its branch (same series and load profile), with the run first, then newest first. */
async function findHeadRounds(db: ReadDb, projectId: string, run: RunIdentity): Promise<{ id: string; startedAt: Date }[]> {
  const self = { id: run.id, startedAt: run.startedAt };
  if (run.gitCommit === null) return [self];
  const rows = await db.run.findMany({
    where: { projectId, tool: run.tool, label: run.label, gitBranch: run.gitBranch, testbed: run.testbed, gitCommit: run.gitCommit, startedAt: { lte: run.startedAt }, ...NOT_AB_BASE },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: MAX_HEAD_ROUNDS + 1,
    select: { id: true, startedAt: true, config: true },
  });
  const earlier = rows.filter((row) => row.id !== run.id && loadProfileDifference(configOf(run.config), configOf(row.config)) === null);
  return [self, ...earlier.map(({ id, startedAt }) => ({ id, startedAt }))].slice(0, MAX_HEAD_ROUNDS);
}

/** How a window starts, in words: "since the accepted regression …" (an acknowledged regression: its incident was accepted). */
function describeSince(change: SeriesChange | null): string {
  if (change === null) return "";
  if (change.kind === "marker") return ` since ${change.summary}`;
  const what = change.kind === "improvement" ? "improvement" : `${change.status === "acknowledged" ? "accepted" : change.status} regression`;
  return ` since the ${what} ${change.summary}`;
}

export async function chooseBaseline(
  db: ReadDb,
  project: { id: string; defaultBranch: string },
  run: RunIdentity,
): Promise<ChosenBaseline> {
  const [headRounds, pins] = await Promise.all([
    findHeadRounds(db, project.id, run),
    db.baselinePin.findMany({
      where: { projectId: project.id, OR: [{ forLabel: run.label }, { forLabel: null }] },
      orderBy: { createdAt: "desc" },
      select: { forLabel: true, runIds: true, baselineLabel: true },
    }),
  ]);
  const headRunIds = headRounds.map((round) => round.id);
  const rounds =
    headRunIds.length > 1 ? `; judged with ${plural(headRunIds.length - 1, "earlier round")} of commit ${run.gitCommit!.slice(0, 7)}` : "";
  const pin = pins.find((candidate) => candidate.forLabel !== null) ?? pins[0];
  if (pin && pin.runIds.length > 0) {
    const runIds = pin.runIds.filter((id) => !headRunIds.includes(id));
    return {
      runIds,
      noiseOnlyRunIds: [],
      headRunIds,
      how: `pinned baseline: ${plural(runIds.length, "run")}${rounds}`,
      pinned: true,
      basis: "pinned",
      openRegression: null,
      openIncident: null,
    };
  }
  const label = pin?.baselineLabel ?? run.label;
  const branch = run.gitBaseCommit ? (run.gitBaseBranch ?? project.defaultBranch) : project.defaultBranch;
  const mode: WindowMode = !run.gitBaseCommit && run.gitBranch === branch && label === run.label ? "series" : "pull-request";
  const where = { projectId: project.id, label, tool: run.tool, gitBranch: branch, testbed: run.testbed, id: { notIn: headRunIds }, ...NOT_AB_BASE };

  // The reference time: the merge-base's newest run, else base_time, else the head's first round.
  const firstRound = new Date(Math.min(...headRounds.map((round) => round.startedAt.getTime())));
  let until: { lt: Date } | { lte: Date } = { lt: firstRound };
  let basis: ChosenBaseline["basis"] = pin ? "pinned" : "recent";
  let place = `on ${branch}`;
  if (run.gitBaseCommit) {
    const commit = run.gitBaseCommit.slice(0, 7);
    // A short SHA names every commit it begins; runs store the SHA CI gave (any case).
    const atBase = await db.run.findFirst({
      where: { ...where, gitCommit: { startsWith: run.gitBaseCommit, mode: "insensitive" } },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { startedAt: true },
    });
    if (atBase) {
      until = { lte: atBase.startedAt };
      basis = "merge-base";
      place = `on ${branch} at and before the merge-base ${commit}`;
    } else {
      const before = run.gitBaseTime ?? firstRound;
      until = { lt: before };
      basis = "before-merge-base";
      place = `on ${branch} (none at the merge-base ${commit}) before ${run.gitBaseTime ? `its commit time (${run.gitBaseTime.toISOString()})` : "this run (no base_time given)"}`;
    }
  }
  const { runs: rows, changes } = await readSeriesWindow(db, {
    projectId: project.id,
    tool: run.tool,
    label,
    branch,
    testbed: run.testbed,
    excludeRunIds: headRunIds,
    until: "lte" in until ? until.lte : until.lt,
    inclusive: "lte" in until,
    scan: SERIES_SCAN,
    markers: MAX_MARKERS,
    changes: MAX_CHANGES,
  });
  // A run driven with another load profile (a capacity sweep's other levels, an old VU count) measures something else.
  const isSameProfile = (row: (typeof rows)[number]) => loadProfileDifference(configOf(run.config), configOf(row.config)) === null;
  const sameProfile = rows.filter(isSameProfile);
  const window = chooseBaselineWindow(sameProfile, changes, mode);
  // The runs of other loads the same window would have held (since the same change, before the same open
  // regression): those, and only those, the text says were not compared with.
  const otherLoads = rows.filter((row) => !isSameProfile(row));
  const otherWindow = chooseBaselineWindow(otherLoads, changes, mode, Number.POSITIVE_INFINITY);
  const otherIds = new Set(otherWindow.runIds);
  const otherLoadRows = otherLoads.filter((row) => otherIds.has(row.id));

  const labelText = label === null ? "without a label" : `labelled ${label}`;
  const runs = (count: number) => `${run.tool} run${count === 1 ? "" : "s"}`;
  const prefix = pin ? "pinned baseline: " : "";
  const loads = describeLoadDifference(configOf(run.config), otherLoadRows.map((row) => configOf(row.config)));
  // With runs of other loads beside them, the runs compared with say their load, so the two counts never read as one.
  const atLoad = loads ? ` at this run's load (${loads.own})` : "";
  const parts = [
    window.runIds.length === 0
      ? `no earlier ${runs(2)} ${labelText} ${place}${atLoad}${describeSince(window.since)}`
      : `the ${window.runIds.length === 1 ? "" : `${window.runIds.length} `}${runs(window.runIds.length)} ${labelText} ${place}${atLoad}${describeSince(window.since)}${window.beyondCap > 0 ? ` (the newest ${BASELINE_CAP})` : ""}`,
  ];
  if (window.openRegression) parts.push(`before the open regression ${window.openRegression.summary}`);
  if (window.failedLeftOut > 0) parts.push(`${plural(window.failedLeftOut, "run")} that failed the gate left out until triaged`);
  if (loads) {
    const count = otherLoadRows.length;
    parts.push(`not the ${count === 1 ? "run" : `${count} runs`} at ${loads.loads === 1 ? "another load" : "other loads"} (${loads.others}), which measure${count === 1 ? "s" : ""} something else`);
  }
  return {
    runIds: window.runIds,
    noiseOnlyRunIds: window.noiseOnlyRunIds,
    headRunIds,
    how: `${prefix}${parts.join("; ")}${rounds}`,
    pinned: pin !== undefined,
    basis,
    openRegression: window.openRegression?.summary ?? null,
    openIncident: window.openRegression?.incident ?? null,
  };
}

const PIN_SELECT = { id: true, forLabel: true, runIds: true, baselineLabel: true, createdAt: true } as const;

/** The project's pinned baselines, newest first, and the branch its unpinned labels are compared on. */
export async function listBaselinePins(db: ReadDb, slug: string) {
  const project = await requireProject(db, slug);
  const pins = await db.baselinePin.findMany({ where: { projectId: project.id }, select: PIN_SELECT, orderBy: { createdAt: "desc" } });
  return { defaultBranch: project.defaultBranch, pins };
}

/**
 * Pins runs, or a label, as the baseline of `forLabel` (admin), replacing that label's pin (one pin
 * per label). `input` is checked against baselinePinSchema; every pinned run must be of this project.
 */
export async function pinBaseline(db: PrismaClient, principal: Principal, slug: string, input: unknown) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const pin = baselinePinSchema.parse(input);
  if (pin.runIds) {
    const found = await db.run.count({ where: { projectId: project.id, id: { in: pin.runIds } } });
    if (found !== new Set(pin.runIds).size) {
      throw new ServiceError("bad_request", "Some runs are not in this project", [{ path: "runIds", message: "unknown run id" }]);
    }
  }
  return db.$transaction(async (tx) => {
    const before = await tx.baselinePin.findFirst({ where: { projectId: project.id, forLabel: pin.forLabel }, select: { runIds: true, baselineLabel: true } });
    await tx.baselinePin.deleteMany({ where: { projectId: project.id, forLabel: pin.forLabel } });
    const created = await tx.baselinePin.create({
      data: { projectId: project.id, forLabel: pin.forLabel, runIds: pin.runIds ?? [], baselineLabel: pin.label ?? null },
      select: PIN_SELECT,
    });
    const pinned = { runIds: pin.runIds ?? [], label: pin.label ?? null };
    await recordAudit(tx, {
      ...actorOf(principal),
      action: "pin.set",
      projectSlug: project.slug,
      targetId: null,
      detail: { forLabel: pin.forLabel, from: before ? { runIds: before.runIds, label: before.baselineLabel } : { runIds: null, label: null }, to: pinned },
    });
    return created;
  });
}

/** Removes the pin of `forLabel` (null: the pin for every label) (admin); no such pin is not found. */
export async function unpinBaseline(db: PrismaClient, principal: Principal, slug: string, forLabel: string | null): Promise<void> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  await db.$transaction(async (tx) => {
    const before = await tx.baselinePin.findFirst({ where: { projectId: project.id, forLabel }, select: { runIds: true, baselineLabel: true } });
    const { count } = await tx.baselinePin.deleteMany({ where: { projectId: project.id, forLabel } });
    if (count === 0 || !before) throw notFound("Pinned baseline");
    await recordAudit(tx, {
      ...actorOf(principal),
      action: "pin.clear",
      projectSlug: project.slug,
      targetId: null,
      detail: { forLabel, from: { runIds: before.runIds, label: before.baselineLabel }, to: { runIds: null, label: null } },
    });
  });
}

/** Ids of runs pinned in any baseline of the project, to mark them everywhere. */
export async function pinnedRunIds(db: ReadDb, projectId: string): Promise<Set<string>> {
  const pins = await db.baselinePin.findMany({ where: { projectId }, select: { runIds: true } });
  return new Set(pins.flatMap((pin) => pin.runIds));
}
