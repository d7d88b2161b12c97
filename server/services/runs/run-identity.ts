import type { ParsedRun } from "../../domain/run";

/**
 * A run's identity, in one place: what names its series (tool, label, testbed), its place in git (branch,
 * commit, and the merge-base the upload named), its load profile (config) and its A/B job. The upload
 * builds it from the parsed run before storing it (runIdentityOf), the gate and the upload's replay read
 * it back with RUN_IDENTITY_SELECT, and the baseline's choice (gate/baselines.ts), detection's job and the
 * A/B answer all take it as it is.
 */
export interface RunIdentity {
  id: string;
  label: string | null;
  tool: string;
  startedAt: Date;
  gitBranch: string | null;
  gitCommit: string | null;
  /** Part of the series' identity: runs of another testbed are never its baseline. */
  testbed: string | null;
  /** The load profile (a run's environment config): runs of another profile are not compared as one. */
  config: unknown;
  /** The merge-base the upload named, lower-case hex (null: none named). */
  gitBaseCommit: string | null;
  /** The branch it is on (null: the project's default branch). */
  gitBaseBranch: string | null;
  /** Its commit time, when the upload gave it. */
  gitBaseTime: Date | null;
  /** Its A/B job (docs/ci.md, "A/B jobs"), when it is one's run: judged against the job's own base runs. */
  abJob: string | null;
  abSide: string | null;
  abPair: number | null;
}

/** The run row's columns that hold its identity (prisma/schema.prisma model Run). */
export const RUN_IDENTITY_SELECT = {
  id: true,
  label: true,
  tool: true,
  startedAt: true,
  gitBranch: true,
  gitCommit: true,
  testbed: true,
  config: true,
  gitBaseCommit: true,
  gitBaseBranch: true,
  gitBaseTime: true,
  abJob: true,
  abSide: true,
  abPair: true,
} as const satisfies Record<keyof RunIdentity, true>;

/** What an upload says of a run besides the parsed file: the merge-base it is compared at, its A/B job. */
export interface UploadPlacement {
  base: { commit: string | null; branch: string | null; time: Date | null };
  ab: { job: string; side: "base" | "head"; pair: number } | null;
}

/** The identity of a parsed run about to be stored as `id`, started at `startedAt` (now, when the file has no start). */
export function runIdentityOf(run: ParsedRun, id: string, startedAt: Date, { base, ab }: UploadPlacement): RunIdentity {
  const { git, testbed, config } = run.environment;
  return {
    id,
    label: run.label,
    tool: run.tool,
    startedAt,
    gitBranch: git.branch,
    gitCommit: git.commit,
    testbed,
    config,
    gitBaseCommit: base.commit,
    gitBaseBranch: base.branch,
    gitBaseTime: base.time,
    abJob: ab?.job ?? null,
    abSide: ab?.side ?? null,
    abPair: ab?.pair ?? null,
  };
}
