import { execFileSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import type { RouteServer } from "@/server/testing/route-server";
import { setUpPrStep } from "./pr-step.fixture";

// `benchtrack ab` (scripts/ci/benchtrack-ab.mjs) run as CI runs it, a child process, against the real upload
// route and the fake forges (pr-step.fixture.ts), in clones of a git repository made here whose
// "benchmark" prints real go test -bench runs (scripts/seed/go-bench/runs): on main the package as it is
// (baseline-N.txt), on feature/slow with JoinInts rewritten slower (slow-joinints-N.txt). The answers are
// the server's real verdicts on real runs.
const SCRIPT = path.resolve(import.meta.dirname, "benchtrack-ab.mjs");
const RUNS = path.resolve(import.meta.dirname, "../seed/go-bench/runs");
const step = setUpPrStep();
const { SLUG, work, githubEnv, runUrlOf, uploadsSeen } = step;
let bench: RouteServer;
let github: FakeForge;

/** The repository the clones come from, and its commits. */
const origin = { dir: path.join(work, "ab-origin"), base: "", slow: "", docs: "", mainTip: "" };

function git(dir: string, ...args: string[]): string {
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
const BENCH_SLOW = `#!/bin/sh
# A tiny benchmark: prints a real go test -bench run of the package with JoinInts rewritten slower.
echo "$BENCHTRACK_AB_SIDE $BENCHTRACK_AB_PAIR $PWD \${BENCHTRACK_TOKEN:-no-token}" >> "$AB_LOG"
cat "runs/slow-joinints-$(( (BENCHTRACK_AB_PAIR - 1) % 7 + 1 )).txt"
`;

beforeAll(() => {
  ({ bench, github } = step);
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

/** What each run's command saw: side, pair, folder, token. */
const runsOf = (log: string) =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split(" "))
    : [];

const worktreeOf = (stdout: string) => /^Base worktree: (\S+)$/m.exec(stdout)?.[1] ?? null;

const readOutputs = (env: Record<string, string>) =>
  Object.fromEntries(
    readFileSync(env.GITHUB_OUTPUT!, "utf8")
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );

/** Whether git still lists the worktree, or its folder is still there. */
function isWorktreeLeft(dir: string, worktree: string | null): boolean {
  expect(worktree).not.toBeNull();
  return existsSync(worktree!) || git(dir, "worktree", "list", "--porcelain").includes(worktree!);
}

/** Whether a process still runs (a zombie nobody reaped, as in a container without init, does not). */
const isRunning = (pid: number) => {
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

/** The step's uploads since `before`, with the server's answers. */
const uploadsSince = (before: number) =>
  bench.requests
    .slice(before)
    .filter((request) => request.method === "POST")
    .map((request) => ({ ...request, json: JSON.parse(request.answer) as AbAnswer }));

/** ABBA: pair 1 base then head, pair 2 head then base, … */
const abba = (pairs: number) =>
  Array.from({ length: pairs }, (_, index) =>
    (index % 2 === 0 ? ["base", "head"] : ["head", "base"]).map((side) => `${side}${index + 1}`),
  ).flat();

/**
 * The rule the step follows, checked against the answers the server gave (whatever its statistics
 * decided): after each complete pair it runs another while the answer says more-pairs (or --min-pairs asks
 * for more), and stops when it says stop, or when the budget is spent.
 */
function expectStoppingRule(answers: AbAnswer[], { minPairs = 1, maxPairs = 6 } = {}) {
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

describe("an A/B job in a pull request", () => {
  it("runs base and head ABBA in the same job, uploads each run with its job, side and pair, and fails on the job's own base runs", async () => {
    const dir = checkout(origin.slow);
    const PR = 31;
    const { env, log } = abEnv(dir, { pr: PR, head: origin.slow, branch: "feature/slow" });
    const before = bench.requests.length;
    const outcome = await runAb(dir, env, ["--min-pairs", "2", "--", "sh", "bench.sh"]);
    expect(outcome.code, outcome.stderr).toBe(1);
    const uploads = uploadsSince(before);
    const pairs = expectStoppingRule(
      uploads.map((upload) => upload.json),
      { minPairs: 2 },
    );
    expect(pairs).toBeGreaterThanOrEqual(2);

    // ABBA: pair 1 base then head, pair 2 head then base, …; base in the worktree, head in the checkout; no token.
    const worktree = worktreeOf(outcome.stdout);
    const trees = { base: worktree, head: dir };
    expect(runsOf(log)).toEqual(
      abba(pairs).map((run) => {
        const side = run.startsWith("base") ? "base" : "head";
        return [side, run.slice(4), trees[side], "no-token"];
      }),
    );
    expect(isWorktreeLeft(dir, worktree)).toBe(false);

    const job = `gh-${env.GITHUB_RUN_ID}-1-perf:go-ab`;
    expect(uploads.map((upload) => upload.status)).toEqual(abba(pairs).map(() => 201));
    expect(uploads.map((upload) => Object.fromEntries(upload.url.searchParams))).toEqual(
      abba(pairs).map((run) => ({
        label: "go-ab",
        branch: "feature/slow",
        commit: run.startsWith("base") ? origin.base : origin.slow,
        pr: String(PR),
        build_url: `https://github.test/acme/shop/actions/runs/${env.GITHUB_RUN_ID}`,
        // The fork point, not main's tip.
        base_commit: origin.base,
        base_branch: "main",
        base_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        ab_job: job,
        ab_side: run.slice(0, 4),
        ab_pair: run.slice(4),
      })),
    );
    const keys = uploads.map((upload) => upload.headers.get("idempotency-key"));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^benchtrack-ab-[0-9a-f]{40}$/);

    // Each run logged with its answer; pair 1 already fails (JoinInts +400% over 5 repetitions a side),
    // and --min-pairs asks for another pair whatever it says.
    expect(outcome.stdout).toMatch(
      /^pair 1 · base: \d+\.\d s, run \S+: inconclusive · pair 1 has no head run yet: upload it$/m,
    );
    expect(outcome.stdout).toMatch(/^pair 1 · head: \d+\.\d s, run \S+: fail · /m);
    if (uploads[1]!.json.ab.next === "stop")
      expect(outcome.stdout).toContain("but --min-pairs asks for 2: another pair.");
    const last = uploads.at(-1)!.json;
    expect(last.outcome).toBe("fail");
    expect(outcome.stdout).toMatch(
      new RegExp(
        `^Benchtrack: FAIL · go-bench-text run \\S+ \\(A/B job ${job}: ${pairs} pairs, base ${origin.base.slice(0, 12)}\\)$`,
        "m",
      ),
    );
    expect(outcome.stdout).toMatch(/BenchmarkJoinInts mean time\/op \+\d+/);
    expect(outcome.stdout).toContain(`Stopped after ${pairs} pairs: the answer stands (${last.ab.reason}).`);
    expect(outcome.stderr).toMatch(/^::error title=Benchtrack::Benchtrack FAIL: 1 benchmark regressed/m);

    // The living comment and the commit status, from the last answer, as benchtrack-pr writes them.
    const comments = github.threads.get(PR)!;
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/^### ❌ Benchtrack: \*\*FAIL\*\*/m);
    expect(comments[0]!.body).toContain(`<!-- benchtrack:${SLUG}:go:go-ab:`);
    const run = runUrlOf(outcome.stdout);
    expect(github.statuses.get(origin.slow)).toEqual([
      expect.objectContaining({ state: "failure", description: "fail: 1 benchmark regressed", targetUrl: run }),
    ]);
    expect(readOutputs(env)).toMatchObject({
      outcome: "fail",
      verdict: "fail",
      pairs: String(pairs),
      "ab-job": job,
      "run-url": run,
    });
    expect(readOutputs(env)["comment-url"]).toMatch(/#issuecomment-\d+$/);
    expect(readFileSync(env.GITHUB_STEP_SUMMARY!, "utf8")).toMatch(/^### ❌ Benchtrack: \*\*FAIL\*\*/);
  });

  it("runs pairs while the answer is undecided and stops when it stands; --prepare builds each tree once, --output names the result", async () => {
    const dir = checkout(origin.docs);
    const PR = 32;
    const { env, log } = abEnv(dir, { pr: PR, head: origin.docs, branch: "feature/docs" });
    // The prepare step "builds" (a file the command checks) and starts a "server" that must be gone at the end.
    const prepare = `mkdir -p out && echo "$BENCHTRACK_AB_SIDE" > out/built && { sleep 300 & echo $! > "$AB_LOG.$BENCHTRACK_AB_SIDE.pid"; }`;
    const command = `test "$(cat out/built)" = "$BENCHTRACK_AB_SIDE" && test "$BENCHTRACK_AB_ROOT" = "$PWD" && sh bench.sh > out/bench.txt`;
    const before = bench.requests.length;
    const outcome = await runAb(dir, env, [
      "--prepare",
      prepare,
      "--output",
      "out/bench.txt",
      "--",
      "sh",
      "-c",
      command,
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/^prepare · base: \d+\.\d s$/m);
    expect(outcome.stdout).toMatch(/^prepare · head: \d+\.\d s$/m);
    // The same code on both sides: undecided for a pair or two (the server's answers), then a pass, within the budget of 6.
    const uploads = uploadsSince(before);
    const pairs = expectStoppingRule(uploads.map((upload) => upload.json));
    expect(pairs).toBeGreaterThan(1);
    expect(pairs).toBeLessThan(6);
    expect(outcome.stdout).toMatch(
      /^pair 1 · head: .*: inconclusive · undecided after 1 pair: another pair may decide$/m,
    );
    expect(outcome.stdout).toContain(
      `Stopped after ${pairs} pairs: the answer stands (pass after ${pairs} pairs: more pairs would not change it).`,
    );
    expect(runsOf(log).map(([side, pair]) => `${side}${pair}`)).toEqual(abba(pairs));
    expect(github.statuses.get(origin.docs)).toEqual([
      expect.objectContaining({ state: "success", description: "pass: nothing failed" }),
    ]);
    expect(github.threads.get(PR)![0]!.body).toMatch(/^### ✅ Benchtrack: \*\*PASS\*\*/m);
    expect(readOutputs(env)).toMatchObject({ outcome: "pass", pairs: String(pairs) });
    // What the prepare step left running is stopped, and the worktree is gone.
    for (const side of ["base", "head"])
      expect(isRunning(Number(readFileSync(`${log}.${side}.pid`, "utf8")))).toBe(false);
    expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
  });

  it("spends the budget while undecided: inconclusive passes with a warning, or fails with BENCHTRACK_INCONCLUSIVE=fail; a retried run is stored once", async () => {
    const dir = checkout(origin.docs);
    const PR = 33;
    const { env } = abEnv(dir, { pr: PR, head: origin.docs, branch: "feature/docs" });
    const before = bench.requests.length;
    const outcome = await runAb(dir, env, ["--max-pairs", "2", "--", "sh", "bench.sh"]);
    expect(outcome.code, outcome.stderr).toBe(0);
    const answers = uploadsSince(before).map((upload) => upload.json);
    expect(expectStoppingRule(answers, { maxPairs: 2 })).toBe(2);
    // (The same code, 2 pairs: the server still asks for another.)
    const last = answers.at(-1)!;
    expect(last).toMatchObject({ outcome: "inconclusive", ab: { next: "more-pairs", decided: false } });
    expect(outcome.stdout).toMatch(/^Benchtrack: INCONCLUSIVE · /m);
    expect(outcome.stdout).toContain(
      `Stopped after 2 pairs: the budget of 2 pairs (--max-pairs) is spent while undecided (${last.ab.reason}).`,
    );
    expect(outcome.stdout).toMatch(
      /^::warning title=Benchtrack::Benchtrack INCONCLUSIVE: nothing failed, but the gate could not judge: /m,
    );
    expect(github.statuses.get(origin.docs)!.at(-1)).toMatchObject({
      state: "success",
      description: expect.stringMatching(/^inconclusive: /),
    });
    expect(readOutputs(env)).toMatchObject({ outcome: "inconclusive", pairs: "2" });
    expect(github.threads.get(PR)![0]!.body).toMatch(/^### ⚠️ Benchtrack: \*\*INCONCLUSIVE\*\*/m);

    // The same step again (retried in the same job): every upload replays its stored run, so the job
    // still has 2 pairs; BENCHTRACK_INCONCLUSIVE=fail fails it.
    const again = { ...env, BENCHTRACK_INCONCLUSIVE: "fail", GITHUB_OUTPUT: `${env.GITHUB_OUTPUT}.again` };
    const strict = await runAb(dir, again, ["--max-pairs", "2", "--", "sh", "bench.sh"]);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stderr).toMatch(
      /^::error title=Benchtrack::Benchtrack INCONCLUSIVE \(BENCHTRACK_INCONCLUSIVE=fail\): /m,
    );
    const uploads = uploadsSince(before);
    expect(uploads.map((upload) => upload.status)).toEqual([201, 201, 201, 201, 200, 200, 200, 200]);
    // A replay answers the job as it stands: 2 pairs.
    expect(uploads.slice(4).map((upload) => upload.json.ab.pairs)).toEqual([2, 2, 2, 2]);
    expect(strict.stdout).toMatch(/^pair 1 · base: .* \(the same result was uploaded before: its run\): /m);
    expect(strict.stdout).not.toContain("was the job id used before");
    expect(github.statuses.get(origin.docs)!.at(-1)).toMatchObject({
      state: "failure",
      description: expect.stringMatching(/^inconclusive: /),
    });
    expect(github.threads.get(PR)).toHaveLength(1);
  });
});

describe("the GitHub action", () => {
  /** The composite action's step, as the runner runs it: its inputs as environment variables, bash -e. */
  const ACTION = path.resolve(import.meta.dirname, "../../.github/actions/benchtrack-ab");
  const actionScript = () => {
    const yaml = readFileSync(path.join(ACTION, "action.yml"), "utf8");
    const block = yaml.slice(yaml.indexOf("      run: |\n") + "      run: |\n".length);
    return block
      .split("\n")
      .filter((line) => line.startsWith("        ") || line === "")
      .map((line) => line.slice(8))
      .join("\n");
  };

  it("passes its inputs (command, output, prepare, max-pairs) to the script without splicing them into a command line", async () => {
    const dir = checkout(origin.slow);
    const PR = 40;
    const { env, log } = abEnv(dir, { pr: PR, head: origin.slow, branch: "feature/slow" });
    const script = path.join(work, "action-step.sh");
    writeFileSync(script, actionScript());
    const inputs = {
      AB_COMMAND: 'sh bench.sh | tee "out/bench $BENCHTRACK_AB_SIDE.txt" > out/bench.txt',
      AB_OUTPUT: "  out/bench.txt  \n",
      AB_PREPARE: "mkdir -p out && echo \"prepared $BENCHTRACK_AB_SIDE; $(printf '%s' '$(not run)')\"",
      AB_MAX_PAIRS: "1",
      AB_MIN_PAIRS: "1",
      AB_JOB: "",
    };
    const before = bench.requests.length;
    const outcome = await step.runScript(
      "",
      { ...env, ...inputs, GITHUB_ACTION_PATH: ACTION },
      { command: "bash", args: ["-e", script], cwd: dir },
    );
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain("prepared base; $(not run)");
    expect(outcome.stdout).toContain("prepared head; $(not run)");
    expect(existsSync(path.join(dir, "out", "bench head.txt"))).toBe(true);
    expect(runsOf(log).map(([side, pair]) => `${side}${pair}`)).toEqual(["base1", "head1"]);
    const uploads = uploadsSince(before);
    expect(uploads.map((upload) => upload.url.searchParams.get("ab_job"))).toEqual([
      `gh-${env.GITHUB_RUN_ID}-1-perf:go-ab`,
      `gh-${env.GITHUB_RUN_ID}-1-perf:go-ab`,
    ]);
    expect(github.threads.get(PR)![0]!.body).toMatch(/^### ❌ Benchtrack: \*\*FAIL\*\*/m);
    expect(readOutputs(env)).toMatchObject({ outcome: "fail", pairs: "1" });
  });
});

describe("a GitLab merge request pipeline", () => {
  it("runs GitLab's merge-base against the merge request, and writes the note and the status", async () => {
    const dir = checkout(origin.slow);
    const MR = 41;
    const log = path.join(work, "gitlab.runs.log");
    const env = {
      GITLAB_CI: "true",
      BENCHTRACK_URL: bench.url,
      BENCHTRACK_PROJECT: SLUG,
      BENCHTRACK_TOKEN: step.uploadToken,
      BENCHTRACK_LABEL: "go-gl",
      BENCHTRACK_GITLAB_TOKEN: step.GITLAB_TOKEN,
      CI_API_V4_URL: `${step.gitlab.url}/api/v4`,
      CI_PROJECT_ID: "42",
      CI_PROJECT_URL: "https://gitlab.test/acme/shop",
      CI_MERGE_REQUEST_IID: String(MR),
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature/slow",
      CI_MERGE_REQUEST_DIFF_BASE_SHA: origin.base,
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
      CI_PROJECT_DIR: dir,
      CI_COMMIT_SHA: origin.slow,
      CI_JOB_ID: "7777",
      CI_JOB_URL: "https://gitlab.test/acme/shop/-/jobs/7777",
      CI_PIPELINE_ID: "8777",
      AB_LOG: log,
    };
    const before = bench.requests.length;
    const outcome = await step.runScript("", env, {
      script: SCRIPT,
      args: ["--max-pairs", "1", "--", "sh", "bench.sh"],
      cwd: dir,
    });
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain(`base ${origin.base.slice(0, 12)} (CI_MERGE_REQUEST_DIFF_BASE_SHA)`);
    expect(runsOf(log).map(([side, pair, , token]) => `${side}${pair} ${token}`)).toEqual([
      "base1 no-token",
      "head1 no-token",
    ]);
    const uploads = uploadsSince(before);
    expect(uploads.map((upload) => Object.fromEntries(upload.url.searchParams))).toEqual([
      expect.objectContaining({
        ab_job: "gl-7777:go-gl",
        ab_side: "base",
        commit: origin.base,
        branch: "feature/slow",
        pr: String(MR),
        base_branch: "main",
      }),
      expect.objectContaining({
        ab_job: "gl-7777:go-gl",
        ab_side: "head",
        commit: origin.slow,
        build_url: env.CI_JOB_URL,
      }),
    ]);
    expect(step.gitlab.threads.get(MR)![0]!.body).toMatch(/^### ❌ Benchtrack: \*\*FAIL\*\*/m);
    expect(step.gitlab.statuses.get(origin.slow)).toEqual([
      expect.objectContaining({ state: "failed", description: "fail: 1 benchmark regressed", pipelineId: 8777 }),
    ]);
    expect(outcome.stderr).toMatch(/^error: Benchtrack FAIL: /m);
  });
});

/** The order of a job's uploads over `pairs` pairs, ABBA, as the values given for base and head. */
const abbaOf = <T>(pairs: number, base: T, head: T): T[] =>
  Array.from({ length: pairs }, (_, index) => (index % 2 === 0 ? [base, head] : [head, base])).flat();

describe("outside a pull request", () => {
  it("on a push, compares HEAD with HEAD^ and says so; no comment, no status", async () => {
    const dir = checkout(origin.slow);
    const { env } = abEnv(dir, { extra: { GITHUB_REF_NAME: "feature/slow" } });
    const calls = github.requests.length;
    const before = bench.requests.length;
    const outcome = await runAb(dir, env, ["--", "sh", "bench.sh"]);
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain(
      `base ${origin.base.slice(0, 12)} (HEAD^ (not a pull request: the last commit against its parent; --base names another))`,
    );
    expect(outcome.stdout).toContain(
      "Not a pull request pipeline: the result is uploaded, no comment is written and no commit status is set.",
    );
    const uploads = bench.requests.slice(before).filter((request) => request.method === "POST");
    // ABBA, as many pairs as the answer asked for (a benchmark decides after a whole cycle: 2 pairs at least).
    const commits = uploads.map((upload) => upload.url.searchParams.get("commit"));
    expect(commits.length).toBeGreaterThanOrEqual(4);
    expect(commits).toEqual(abbaOf(commits.length / 2, origin.base, origin.slow));
    expect(uploads[0]!.url.searchParams.has("pr")).toBe(false);
    expect(github.requests.length).toBe(calls);
  });

  it("in a plain shell, measures uncommitted changes as the head, and says so", async () => {
    const dir = checkout(origin.mainTip);
    git(dir, "checkout", "-q", "-b", "my-work");
    writeFileSync(path.join(dir, "bench.sh"), BENCH_SLOW);
    const log = path.join(work, "local.runs.log");
    const env = {
      BENCHTRACK_URL: bench.url,
      BENCHTRACK_PROJECT: SLUG,
      BENCHTRACK_TOKEN: step.uploadToken,
      BENCHTRACK_LABEL: "go-local",
      AB_LOG: log,
    };
    const before = bench.requests.length;
    const outcome = await step.runScript("", env, {
      script: SCRIPT,
      args: ["--base", "HEAD", "--", "sh", "bench.sh"],
      cwd: dir,
    });
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain(`head ${origin.mainTip.slice(0, 12)} with uncommitted changes`);
    expect(outcome.stdout).toContain(
      `warning: The checkout has uncommitted changes (bench.sh): the head side measures them, on top of ${origin.mainTip.slice(0, 12)}; the base worktree has only ${origin.mainTip.slice(0, 12)}.`,
    );
    expect(outcome.stdout).toContain(
      "Outside CI: the result is uploaded, no comment is written and no commit status is set.",
    );
    const uploads = bench.requests.slice(before).filter((request) => request.method === "POST");
    expect(uploads.map((upload) => upload.url.searchParams.get("ab_side"))).toEqual(abbaOf(uploads.length / 2, "base", "head"));
    expect(uploads.slice(0, 2).map((upload) => Object.fromEntries(upload.url.searchParams))).toEqual([
      expect.objectContaining({
        branch: "my-work",
        commit: origin.mainTip,
        ab_side: "base",
        ab_job: expect.stringMatching(/^local-\w+:go-local$/),
      }),
      expect.objectContaining({
        branch: "my-work",
        commit: origin.mainTip,
        ab_side: "head",
        "attr.worktree": "uncommitted changes",
      }),
    ]);
    expect(uploads[0]!.url.searchParams.has("attr.worktree")).toBe(false);
  });
});

describe("what goes wrong, said clearly", () => {
  it("a command that fails names the side, the pair, its exit status and the end of its stderr; the worktree is removed", async () => {
    // A pull_request checkout as GitHub makes it: its merge commit, not the pull request's head (a warning).
    const dir = checkout(origin.mainTip);
    git(
      dir,
      "-c",
      "user.name=ci",
      "-c",
      "user.email=ci@example.test",
      "merge",
      "-q",
      "--no-ff",
      "-m",
      "M",
      origin.slow,
    );
    const { env } = abEnv(dir, { pr: 34, head: origin.slow, branch: "feature/slow" });
    const command =
      'if [ "$BENCHTRACK_AB_SIDE" = head ]; then echo "goroutine 1 [running]:" >&2; echo "panic: boom" >&2; exit 3; fi; sh bench.sh';
    const before = uploadsSeen();
    const outcome = await runAb(dir, env, ["--", "sh", "-c", command]);
    expect(outcome.code).toBe(4);
    expect(outcome.stdout).toMatch(
      /^::warning title=Benchtrack::The checkout is [0-9a-f]{12}, not the pull request's head [0-9a-f]{12} /m,
    );
    expect(outcome.stderr).toContain(
      `::error title=Benchtrack::The benchmark command failed on the head side, pair 1 (exit status 3): sh -c ${command}`,
    );
    expect(outcome.stderr).toContain("The end of its stderr:%0A  | goroutine 1 [running]:%0A  | panic: boom");
    expect(uploadsSeen()).toBe(before + 1);
    expect(github.threads.has(34)).toBe(false);
    expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
  });

  it("a command that writes no result, one not found, and a prepare step that fails: exit 4, nothing uploaded", async () => {
    const dir = checkout(origin.slow);
    const cases: [string[], string][] = [
      [["--", "true"], "The benchmark command wrote no result on the base side, pair 1: it printed nothing on stdout"],
      [
        ["--output", "bench.txt", "--", "true"],
        "The benchmark command wrote no result on the base side, pair 1: it wrote no bench.txt",
      ],
      [
        ["--", "no-such-bench", "-x"],
        "The benchmark command failed on the base side, pair 1 (no-such-bench: command not found)",
      ],
      [
        ["--prepare", "echo building; exit 2", "--", "sh", "bench.sh"],
        "The prepare step failed on the base side (exit status 2): echo building; exit 2",
      ],
    ];
    const before = uploadsSeen();
    for (const [args, message] of cases) {
      const { env } = abEnv(dir, { pr: 35, head: origin.slow });
      const outcome = await runAb(dir, env, args);
      expect(outcome.code, outcome.stderr).toBe(4);
      expect(outcome.stderr).toContain(message);
      expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
    }
    expect(uploadsSeen()).toBe(before);
  });

  it("Ctrl-C stops the command and removes the worktree", async () => {
    const dir = checkout(origin.slow);
    const { env } = abEnv(dir, { pr: 36, head: origin.slow });
    const pidFile = path.join(work, "interrupted.pid");
    const started = Date.now();
    // Ctrl-C in a terminal, or a cancelled GitHub job: SIGINT to the step, once the command runs.
    const outcome = await runAb(dir, env, ["--", "sh", "-c", `echo $$ > ${pidFile}; exec sleep 60`], (child) => {
      const timer = setInterval(() => {
        if (existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "") {
          clearInterval(timer);
          child.kill("SIGINT");
        }
      }, 50);
    });
    expect(outcome.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(outcome.stderr).toContain("SIGINT: stopping the command and removing the base worktree");
    expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
    const pid = Number(readFileSync(pidFile, "utf8"));
    await expect.poll(() => isRunning(pid), { timeout: 5_000 }).toBe(false);
  });

  it("no merge-base (a shallow clone), nothing to compare, and bad options: exit 2 before anything runs", async () => {
    const shallow = checkout(origin.slow, { depth: 1 });
    const full = checkout(origin.base);
    const cases: [string, Record<string, string>, string[], RegExp][] = [
      [
        shallow,
        abEnv(shallow, { pr: 37, head: origin.slow }).env,
        ["--", "sh", "bench.sh"],
        /No merge-base: git could not find the merge-base of origin\/main and [0-9a-f]{12} \(check out with fetch-depth: 0/,
      ],
      [
        shallow,
        abEnv(shallow).env,
        ["--", "sh", "bench.sh"],
        /Not a pull request, so the base is HEAD\^, which this shallow checkout lacks: fetch the history \(actions\/checkout with fetch-depth: 0/,
      ],
      [
        full,
        abEnv(full, { pr: 38, head: origin.base }).env,
        ["--", "sh", "bench.sh"],
        /Nothing to compare: the base \(the merge-base of origin\/main and the pull request's head\) is HEAD, [0-9a-f]{12}, and the checkout has no uncommitted change/,
      ],
      [
        full,
        abEnv(full).env,
        ["--base", "no-such-branch", "--", "sh", "bench.sh"],
        /--base "no-such-branch" is not a commit of this checkout/,
      ],
      [
        full,
        abEnv(full, { pr: 38, head: origin.base, extra: { BENCHTRACK_BASE_COMMIT: "none" } }).env,
        ["--", "sh", "bench.sh"],
        /BENCHTRACK_BASE_COMMIT is none: an A\/B job needs a base/,
      ],
      [full, abEnv(full).env, ["--pairs", "3", "--", "sh", "bench.sh"], /unknown option "--pairs"/],
      [full, abEnv(full).env, ["sh", "bench.sh"], /unknown option "sh" \(the command goes after --\)/],
      [full, abEnv(full).env, ["--max-pairs", "3"], /no command: give it after --/],
      [full, abEnv(full).env, ["--max-pairs", "0", "--", "true"], /--max-pairs must be a whole number from 1 to 50/],
      [full, abEnv(full).env, ["--max-pairs=51", "--", "true"], /--max-pairs must be a whole number from 1 to 50/],
      [
        full,
        abEnv(full).env,
        ["--min-pairs", "4", "--max-pairs", "2", "--", "true"],
        /--min-pairs \(4\) is more than --max-pairs \(2\)/,
      ],
      [
        full,
        abEnv(full).env,
        ["--job", "my job", "--", "true"],
        /--job must be 1 to 128 letters, digits or \. _ : @ \/ -/,
      ],
      [full, abEnv(full).env, ["--ci", "bitbucket", "--", "true"], /--ci must be github, gitlab or local/],
      [full, abEnv(full, { extra: { BENCHTRACK_URL: "" } }).env, ["--", "true"], /BENCHTRACK_URL is not set/],
    ];
    const uploads = uploadsSeen();
    const calls = github.requests.length;
    for (const [dir, env, args, message] of cases) {
      const outcome = await runAb(dir, env, args);
      expect(outcome.code, `${args.join(" ")}: ${outcome.stderr}`).toBe(2);
      expect(outcome.stderr).toMatch(message);
      expect(outcome.stdout).not.toContain("Base worktree:");
    }
    expect(git(full, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(uploadsSeen()).toBe(uploads);
    expect(github.requests.length).toBe(calls);
  });

  it("--help prints the usage", async () => {
    const outcome = await step.runScript("", {}, { script: SCRIPT, args: ["--help"], cwd: work });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^usage: node scripts\/ci\/benchtrack-ab\.mjs \[options\] -- <command…>/);
  });
});

describe("what it read", () => {
  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
