import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * What a new run is compared with. By default: the most recent runs with the same label on the
 * project's default branch, before this run (a PR run is compared with main, a main run with its own
 * recent past). A user can pin a run, a set of runs, or a label as the baseline for a label (or for
 * every label).
 */
export const DEFAULT_BASELINE_RUNS = 5;

export const baselinePinSchema = z
  .object({
    forLabel: z.string().min(1).max(1024).nullable().default(null).describe("The runs this baseline is for (their label); null: every label."),
    runIds: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)).min(1).max(50).optional().describe("Pin these runs."),
    label: z.string().min(1).max(1024).optional().describe("Pin the newest runs of this label on the default branch."),
  })
  .refine((pin) => (pin.runIds === undefined) !== (pin.label === undefined), {
    message: 'give either "runIds" or "label"',
    path: ["runIds"],
  })
  .describe("A pinned baseline.");

export interface ChosenBaseline {
  runIds: string[];
  /** How it was chosen, in words: shown in the upload answer, the run page and the PR comment. */
  how: string;
  pinned: boolean;
}

interface RunForBaseline {
  id: string;
  label: string | null;
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
      gitBranch: project.defaultBranch,
      id: { not: run.id },
      ...(pin ? {} : { startedAt: { lt: run.startedAt } }),
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: DEFAULT_BASELINE_RUNS,
    select: { id: true },
  });
  const labelText = label === null ? "without a label" : `labelled ${label}`;
  const how = pin
    ? `pinned baseline: the last ${recent.length} runs ${labelText} on ${project.defaultBranch}`
    : recent.length === 0
      ? `no earlier runs ${labelText} on ${project.defaultBranch}`
      : `the last ${recent.length} run${recent.length === 1 ? "" : "s"} ${labelText} on ${project.defaultBranch}`;
  return { runIds: recent.map((row) => row.id), how, pinned: pin !== undefined };
}

export async function listBaselinePins(db: PrismaClient, projectId: string) {
  return db.baselinePin.findMany({
    where: { projectId },
    select: { id: true, forLabel: true, runIds: true, baselineLabel: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });
}

/** Replaces the pin for `forLabel` (one pin per label). */
export async function pinBaseline(db: PrismaClient, projectId: string, input: z.infer<typeof baselinePinSchema>) {
  return db.$transaction(async (tx) => {
    await tx.baselinePin.deleteMany({ where: { projectId, forLabel: input.forLabel } });
    return tx.baselinePin.create({
      data: { projectId, forLabel: input.forLabel, runIds: input.runIds ?? [], baselineLabel: input.label ?? null },
      select: { id: true, forLabel: true, runIds: true, baselineLabel: true, createdAt: true },
    });
  });
}

export async function unpinBaseline(db: PrismaClient, projectId: string, forLabel: string | null): Promise<number> {
  return (await db.baselinePin.deleteMany({ where: { projectId, forLabel } })).count;
}

/** Ids of runs pinned in any baseline of the project, to mark them everywhere. */
export async function pinnedRunIds(db: PrismaClient, projectId: string): Promise<Set<string>> {
  const pins = await db.baselinePin.findMany({ where: { projectId }, select: { runIds: true } });
  return new Set(pins.flatMap((pin) => pin.runIds));
}
