import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import type { RouteServer } from "@/server/testing/route-server";
import {
  abba,
  expectStoppingRule,
  isRunning,
  isWorktreeLeft,
  readOutputs,
  runsOf,
  setUpAbStep,
  worktreeOf,
} from "./ab-step.fixture";

// `benchtrack ab` (scripts/ci/benchtrack-ab.mjs) in a GitHub pull request: base and head run ABBA in one
// job, pair after pair until the server's answer stands or the budget is spent, then the comment, the
// commit status and the step's outputs; and the composite action that runs it. Set-up: ab-step.fixture.ts.
// Elsewhere: benchtrack-ab-gitlab-push-local.slow.test.ts; what goes wrong: benchtrack-ab-errors.slow.test.ts.
const { step, origin, checkout, abEnv, runAb, uploadsSince } = setUpAbStep();
const { SLUG, work, runUrlOf } = step;
let bench: RouteServer;
let github: FakeForge;
beforeAll(() => {
  ({ bench, github } = step);
});

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

describe("what it read", () => {
  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
