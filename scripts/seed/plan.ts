import { createHash } from "node:crypto";
import type { RunMetadata } from "../../server/domain/parsers";
import { FIXTURE_ROUNDS, GO_BENCH_ROUNDS } from "./fixture-uploads";
import type { FixtureKind, FixtureRef, FixtureVariant } from "./fixture-uploads";

/**
 * The demo history as a pure plan: which fixture each run uploads and the metadata the seed gives it
 * (time, label, branch, commit, build). The story, over DEMO_DAYS days ending yesterday:
 * - main: a k6 `nightly` run every night (listings-demo) and a ghz `nightly` (listings-grpc-demo); a
 *   Locust `baseline` run after each merge to main (five "weekdays" in seven).
 * - feature branches with a pull request run a few `baseline` checks before they merge.
 * - on COMPARISON_DAY, five `baseline` rounds on main and five `ManagedAsync` rounds on
 *   feature/managed-async: the group comparison a reviewer would open.
 * - on SLOWDOWN_DAY feature/managed-async merges anyway: every main run from that merge on uploads the
 *   managedasync fixtures (≈1.5–1.8× slower), the step a trend chart shows.
 * Days are counted by index, not by calendar, so a run's key (and so its idempotency key) means the
 * same run whatever day the seed is run on.
 */
export const HTTP_PROJECT = "listings-demo";
export const GRPC_PROJECT = "listings-grpc-demo";
/** go test -bench nightlies of a small Go package (the shared micro fixtures' code), on one testbed. */
export const MICRO_PROJECT = "microbench-demo";
/** The micro project's nightlies start this day; JoinInts is rewritten slower at JOININTS_DAY (merged that morning). */
const MICRO_FIRST_DAY = 27;
const JOININTS_DAY = 36;
export const JOININTS_BRANCH = "perf/joinints-sprint";
const JOININTS_PR = 52;
export const DEMO_DAYS = 42;
export const COMPARISON_DAY = 24;
export const SLOWDOWN_DAY = 30;
export const MANAGED_ASYNC_BRANCH = "feature/managed-async";
const MAIN = "main";
const ROUNDS_PER_GROUP = 5;
const DAY_MS = 86_400_000;
const CI_BASE_URL = "https://ci.example.com/example/listings/builds";

interface FeatureBranch {
  branch: string;
  pullRequest: number;
  /** Days with one `baseline` check of the HTTP service; `grpcDays` of the gRPC one. */
  days: readonly number[];
  grpcDays: readonly number[];
}

const FEATURE_BRANCHES: readonly FeatureBranch[] = [
  { branch: "feature/search-cache", pullRequest: 41, days: [8, 9, 11], grpcDays: [9] },
  { branch: "fix/stock-timeout", pullRequest: 44, days: [16, 17], grpcDays: [] },
];
const MANAGED_ASYNC_PR = 47;

export type PlannedMetadata = RunMetadata & { label: string; branch: string; commit: string; started_at: string };

export interface PlannedRun {
  projectSlug: string;
  /** Stable across seeds and dates: the tail of the run's idempotency key. */
  key: string;
  fixture: FixtureRef;
  metadata: PlannedMetadata;
  /** The side of the COMPARISON_DAY group comparison this run is a round of, if any. */
  comparisonSide?: "base" | "head";
}

export interface DemoPlan {
  /** Chronological, both projects interleaved. */
  runs: PlannedRun[];
  firstDay: Date;
  lastDay: Date;
  /** When feature/managed-async merged to main: main runs from here on are the slow variant. */
  slowdownAt: Date;
}

/** "Weekdays" of the index calendar: merges happen on five days in seven. */
function isMergeDay(day: number): boolean {
  return day >= 0 && day % 7 < 5;
}

/** A fake but stable 40-hex commit SHA: the same text always names the same commit. */
function fakeCommit(text: string): string {
  return createHash("sha1").update(`example/listings:${text}`).digest("hex");
}

/** 0..range-1 derived from `key`, so times look irregular yet never change between seeds. */
function jitter(key: string, range: number): number {
  return Number.parseInt(createHash("sha1").update(key).digest("hex").slice(0, 8), 16) % range;
}

function mergeCommit(day: number): string {
  return fakeCommit(`main:${day}`);
}

/** Main's head before the merges of `day` (the commit a nightly run at 02:00 tests). */
function mainHeadBefore(day: number): { commit: string; day: number } {
  for (let earlier = day - 1; earlier >= 0; earlier--) {
    if (isMergeDay(earlier)) return { commit: mergeCommit(earlier), day: earlier };
  }
  return { commit: fakeCommit("main:initial"), day: -1 };
}

export function planDemoRuns(now: Date): DemoPlan {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - DEMO_DAYS * DAY_MS;
  const at = (day: number, hour: number, minute: number) =>
    new Date(start + day * DAY_MS + (hour * 60 + minute) * 60_000);
  const mergeTime = (day: number) => at(day, 11, jitter(`merge:${day}`, 300));
  const runs: PlannedRun[] = [];

  // Rounds 1–3 of each tool and variant are cycled in order, so neighbouring runs differ (k6's two
  // summary files of one round hold the same numbers, so they share one cycle).
  const uses = new Map<string, number>();
  const nextFixture = (kind: FixtureKind, variant: FixtureVariant): FixtureRef => {
    const cycle = `${kind.split("-")[0]}/${variant}`;
    const used = uses.get(cycle) ?? 0;
    uses.set(cycle, used + 1);
    return { kind, variant, round: (used % FIXTURE_ROUNDS) + 1 };
  };
  // Main is slow from the commit that merged feature/managed-async on.
  const mainVariant = (commitDay: number): FixtureVariant => (commitDay >= SLOWDOWN_DAY ? "managedasync" : "baseline");
  const build = (day: number, slot: number) => `${CI_BASE_URL}/${4000 + day * 10 + slot}`;

  const add = (
    projectSlug: string,
    key: string,
    fixture: FixtureRef,
    metadata: Omit<PlannedMetadata, "started_at">,
    startedAt: Date,
    comparisonSide?: PlannedRun["comparisonSide"],
  ) =>
    runs.push({
      projectSlug,
      key,
      fixture,
      metadata: { ...metadata, started_at: startedAt.toISOString() },
      ...(comparisonSide && { comparisonSide }),
    });

  for (let day = 0; day < DEMO_DAYS; day++) {
    const nightlyHead = mainHeadBefore(day);
    // k6 writes both summary files; alternate them so both parsers show up in the history.
    const k6Kind: FixtureKind = day % 2 === 0 ? "k6-summary" : "k6-handle-summary";
    add(
      HTTP_PROJECT,
      `main/d${day}/nightly`,
      nextFixture(k6Kind, mainVariant(nightlyHead.day)),
      {
        label: "nightly",
        branch: MAIN,
        commit: nightlyHead.commit,
        build_url: build(day, 1),
      },
      at(day, 2, jitter(`http-nightly:${day}`, 30)),
    );
    add(
      GRPC_PROJECT,
      `main/d${day}/nightly`,
      nextFixture("ghz", mainVariant(nightlyHead.day)),
      {
        label: "nightly",
        branch: MAIN,
        commit: nightlyHead.commit,
        build_url: build(day, 2),
      },
      at(day, 3, jitter(`grpc-nightly:${day}`, 30)),
    );

    if (isMergeDay(day)) {
      const merged = mergeTime(day);
      add(
        HTTP_PROJECT,
        `main/d${day}/merge`,
        nextFixture("locust-csv", mainVariant(day)),
        {
          label: "baseline",
          branch: MAIN,
          commit: mergeCommit(day),
          build_url: build(day, 3),
        },
        new Date(merged.getTime() + 6 * 60_000),
      );
    }

    for (const feature of FEATURE_BRANCHES) {
      const commit = fakeCommit(`${feature.branch}:${day}`);
      const metadata = { label: "baseline", branch: feature.branch, commit, pr: feature.pullRequest };
      if (feature.days.includes(day)) {
        add(
          HTTP_PROJECT,
          `${feature.branch}/d${day}`,
          nextFixture("k6-summary", "baseline"),
          { ...metadata, build_url: build(day, 4) },
          at(day, 15, jitter(`${feature.branch}:http:${day}`, 120)),
        );
      }
      if (feature.grpcDays.includes(day)) {
        add(
          GRPC_PROJECT,
          `${feature.branch}/d${day}`,
          nextFixture("ghz", "baseline"),
          { ...metadata, build_url: build(day, 5) },
          at(day, 15, jitter(`${feature.branch}:grpc:${day}`, 120)),
        );
      }
    }

    if (day === COMPARISON_DAY) addComparisonRounds(day);
    addMicroRuns(day);
  }

  /**
   * microbench-demo: a go test -bench nightly on main from MICRO_FIRST_DAY, each a real run (9 of the
   * package as it is, then 6 with JoinInts rewritten slower, from the commit merged on JOININTS_DAY); and
   * that change's pull request, measured the day before it merged.
   */
  function addMicroRuns(day: number) {
    if (day < MICRO_FIRST_DAY) return;
    const commit = (text: string) => createHash("sha1").update(`example/microbench:${text}`).digest("hex");
    const isSlow = day >= JOININTS_DAY;
    const round = isSlow ? day - JOININTS_DAY + 1 : day - MICRO_FIRST_DAY + 1;
    const variant: FixtureVariant = isSlow ? "slow-joinints" : "baseline";
    // Slow round 7 is the pull request's own run.
    if (round > (GO_BENCH_ROUNDS[variant] ?? 0) - (isSlow ? 1 : 0)) return;
    add(
      MICRO_PROJECT,
      `main/d${day}/go-nightly`,
      { kind: "go-bench", variant, round },
      { label: "nightly", branch: MAIN, commit: commit(`main:${isSlow ? `after-joinints:${day}` : day}`), build_url: build(day, 8) },
      at(day, 4, jitter(`micro-nightly:${day}`, 30)),
    );
    if (day === JOININTS_DAY - 1) {
      // The pull request's run: the slow code, measured before it merged (what its PR comment said).
      add(
        MICRO_PROJECT,
        `${JOININTS_BRANCH}/d${day}`,
        { kind: "go-bench", variant: "slow-joinints", round: 7 },
        { label: "nightly", branch: JOININTS_BRANCH, commit: commit(JOININTS_BRANCH), pr: JOININTS_PR, build_url: build(day, 9) },
        at(day, 16, jitter(`micro-pr:${day}`, 60)),
      );
    }
  }

  /**
   * Five rounds of each side, back to back in the evening after the day's merge: main as the base,
   * the branch as the head. Rounds 4–5 reuse fixture rounds 1–2 (only three are bundled).
   */
  function addComparisonRounds(day: number) {
    const mainHead = isMergeDay(day) ? { commit: mergeCommit(day), day } : mainHeadBefore(day);
    const branchCommit = fakeCommit(`${MANAGED_ASYNC_BRANCH}:${day}`);
    for (const [projectSlug, kind, slot] of [
      [HTTP_PROJECT, "k6-summary", 6],
      [GRPC_PROJECT, "ghz", 7],
    ] as const) {
      for (let round = 1; round <= ROUNDS_PER_GROUP; round++) {
        const fixtureRound = ((round - 1) % FIXTURE_ROUNDS) + 1;
        const minute = (slot - 6) * 60 + round * 3;
        add(
          projectSlug,
          `main/d${day}/baseline-r${round}`,
          { kind, variant: mainVariant(mainHead.day), round: fixtureRound },
          {
            label: "baseline",
            round,
            branch: MAIN,
            commit: mainHead.commit,
            build_url: build(day, slot),
          },
          at(day, 18, minute),
          "base",
        );
        add(
          projectSlug,
          `${MANAGED_ASYNC_BRANCH}/d${day}/r${round}`,
          { kind, variant: "managedasync", round: fixtureRound },
          {
            label: "ManagedAsync",
            round,
            branch: MANAGED_ASYNC_BRANCH,
            commit: branchCommit,
            pr: MANAGED_ASYNC_PR,
            build_url: build(day, slot + 2),
          },
          at(day, 18, minute + 30),
          "head",
        );
      }
    }
  }

  runs.sort((a, b) => a.metadata.started_at.localeCompare(b.metadata.started_at) || a.key.localeCompare(b.key));
  return { runs, firstDay: at(0, 0, 0), lastDay: at(DEMO_DAYS - 1, 0, 0), slowdownAt: mergeTime(SLOWDOWN_DAY) };
}
