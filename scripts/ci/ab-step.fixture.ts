import { execFileSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect } from "vitest";
import { setUpPrStep } from "./pr-step.fixture";

// `benchtrack ab` (scripts/ci/benchtrack-ab.mjs) run as CI runs it, a child process, against the real upload
// route and the fake forges (pr-step.fixture.ts), in clones of a git repository made here whose
// "benchmark" prints real go test -bench runs (scripts/seed/go-bench/runs): on main the package as it is
// (baseline-N.txt), on feature/slow with JoinInts rewritten slower (slow-joinints-N.txt). The answers are
// the server's real verdicts on real runs. For the benchtrack-ab*.slow.test.ts files.
const SCRIPT = path.resolve(import.meta.dirname, "benchtrack-ab.mjs");
const RUNS = path.resolve(import.meta.dirname, "../seed/go-bench/runs");

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=ci", "-c", "user.email=ci@example.test", ...args], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

// Every run appends its side, pair, folder and whether it saw a token to $AB_LOG: the order the runs
// were made in. The same code on both sides gives each side its own real runs (odd and even files).
const BENCH_AS_IT_IS = `#!/bin/sh
# A tiny benchmark: prints a real go test -bench run of the package as it is.
echo "$BENCHTRACK_AB_SIDE $BENCHTRACK_AB_PAIR $PWD \${BENCHTRACK_TOKEN:-no-token}" >> "$AB_LOG"
if [ "$BENCHTRACK_AB_SIDE" = base ]; then n=$(( (2 * BENCHTRACK_AB_PAIR - 2) % 9 + 1 )); else n=$(( (2 * BENCHTRACK_AB_PAIR - 1) % 9 + 1 )); fi
cat "runs/baseline-$n.txt"
`;
export const BENCH_SLOW = `#!/bin/sh
# A tiny benchmark: prints a real go test -bench run of the package with JoinInts rewritten slower.
echo "$BENCHTRACK_AB_SIDE $BENCHTRACK_AB_PAIR $PWD \${BENCHTRACK_TOKEN:-no-token}" >> "$AB_LOG"
cat "runs/slow-joinints-$(( (BENCHTRACK_AB_PAIR - 1) % 7 + 1 )).txt"
`;

/** What each run's command saw: side, pair, folder, token. */
export const runsOf = (log: string) =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split(" "))
    : [];

export const worktreeOf = (stdout: string) => /^Base worktree: (\S+)$/m.exec(stdout)?.[1] ?? null;

export const readOutputs = (env: Record<string, string>) =>
  Object.fromEntries(
    readFileSync(env.GITHUB_OUTPUT!, "utf8")
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );

/** Whether git still lists the worktree, or its folder is still there. */
export function isWorktreeLeft(dir: string, worktree: string | null): boolean {
  expect(worktree).not.toBeNull();
  return existsSync(worktree!) || git(dir, "worktree", "list", "--porcelain").includes(worktree!);
}

/** Whether a process still runs (a zombie nobody reaped, as in a container without init, does not). */
export const isRunning = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

interface AbAnswer {
  outcome: string;
  ab: {
    job: string;
    side: string;
    pair: number;
    pairs: number;
    decided: boolean;
    next: "stop" | "more-pairs";
    reason: string;
  };
}

/** ABBA: pair 1 base then head, pair 2 head then base, … */
export const abba = (pairs: number) =>
  Array.from({ length: pairs }, (_, index) =>
    (index % 2 === 0 ? ["base", "head"] : ["head", "base"]).map((side) => `${side}${index + 1}`),
  ).flat();

/**
 * The rule the step follows, checked against the answers the server gave (whatever its statistics
 * decided): after each complete pair it runs another while the answer says more-pairs (or --min-pairs asks
 * for more), and stops when it says stop, or when the budget is spent.
 */
export function expectStoppingRule(answers: AbAnswer[], { minPairs = 1, maxPairs = 6 } = {}) {
  const pairs = answers.length / 2;
  expect(Number.isInteger(pairs)).toBe(true);
  for (let pair = 1; pair <= pairs; pair += 1) {
    const [first, second] = [answers[2 * pair - 2]!.ab, answers[2 * pair - 1]!.ab];
    expect(first).toMatchObject({ pair, next: "more-pairs" });
    expect(second).toMatchObject({ pair, pairs: pair });
    if (pair < pairs)
      expect(second.next === "more-pairs" || pair < minPairs, `pair ${pair}: ${second.reason}`).toBe(true);
    else
      expect((second.next === "stop" && pair >= minPairs) || pair === maxPairs, `pair ${pair}: ${second.reason}`).toBe(
        true,
      );
  }
  return pairs;
}

/**
 * Sets up, for one test file, what `benchtrack ab` runs against: the CI step's servers and project
 * (setUpPrStep) and the repository the checkouts are cloned from. Registers the file's hooks; the
 * repository's commits are there once beforeAll has run.
 */
export function setUpAbStep() {
  // Its state is the call's, as setUpPrStep's: two files that share a worker's modules each get their own.
  const step = setUpPrStep();
  const { work, githubEnv } = step;

  /** The repository the clones come from, and its commits. */
  const origin = { dir: path.join(work, "ab-origin"), base: "", slow: "", docs: "", mainTip: "" };

  beforeAll(() => {
    const dir = origin.dir;
    mkdirSync(path.join(dir, "runs"), { recursive: true });
    git(dir, "init", "-q", "-b", "main");
    for (const file of readdirSync(RUNS)) copyFileSync(path.join(RUNS, file), path.join(dir, "runs", file));
    writeFileSync(path.join(dir, "bench.sh"), BENCH_AS_IT_IS);
    writeFileSync(path.join(dir, "README.md"), "# microbench\n");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "A: the package as it is");
    origin.base = git(dir, "rev-parse", "HEAD");
    git(dir, "checkout", "-q", "-b", "feature/slow");
    writeFileSync(path.join(dir, "bench.sh"), BENCH_SLOW);
    git(dir, "commit", "-q", "-am", "B: JoinInts with fmt.Sprint and strings.Join");
    origin.slow = git(dir, "rev-parse", "HEAD");
    git(dir, "checkout", "-q", "-b", "feature/docs", origin.base);
    writeFileSync(path.join(dir, "README.md"), "# microbench\n\nBenchmarks of small Go functions.\n");
    git(dir, "commit", "-q", "-am", "C: a README line");
    origin.docs = git(dir, "rev-parse", "HEAD");
    git(dir, "checkout", "-q", "main");
    writeFileSync(path.join(dir, "NOTES.md"), "main moves on\n");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "D: main moves on");
    origin.mainTip = git(dir, "rev-parse", "HEAD");
  });

  let clones = 0;
  /** A checkout as actions/checkout makes it (fetch-depth: 0, the pull request's head), or shallow. */
  function checkout(rev: string, { depth }: { depth?: number } = {}): string {
    clones += 1;
    const dir = path.join(work, `ab-clone-${clones}`);
    const url = `file://${origin.dir}`;
    execFileSync("git", ["clone", "-q", "--no-single-branch", ...(depth ? ["--depth", String(depth)] : []), url, dir]);
    git(dir, "checkout", "-q", "--detach", rev);
    return dir;
  }

  /** The step's environment in a pull_request job of `pr` whose head is `head`, checked out in `dir`. */
  function abEnv(
    dir: string,
    options: { pr?: number; head?: string; branch?: string; extra?: Record<string, string> } = {},
  ) {
    const log = path.join(dir, "..", `${path.basename(dir)}.runs.log`);
    const env = githubEnv("", {
      pr: options.pr,
      head: options.head,
      label: "go-ab",
      extra: {
        GITHUB_WORKSPACE: dir,
        AB_LOG: log,
        ...(options.branch ? { GITHUB_HEAD_REF: options.branch } : {}),
        ...options.extra,
      },
    });
    return { env, log };
  }

  const runAb = (dir: string, env: Record<string, string>, args: string[], onSpawn?: (child: ChildProcess) => void) =>
    step.runScript("github", env, { script: SCRIPT, args, cwd: dir, onSpawn });

  /** The step's uploads since `before`, with the server's answers. */
  const uploadsSince = (before: number) =>
    step.bench.requests
      .slice(before)
      .filter((request) => request.method === "POST")
      .map((request) => ({ ...request, json: JSON.parse(request.answer) as AbAnswer }));

  return { step, SCRIPT, origin, checkout, abEnv, runAb, uploadsSince };
}
