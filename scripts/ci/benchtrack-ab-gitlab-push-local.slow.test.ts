import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import type { RouteServer } from "@/server/testing/route-server";
import { BENCH_SLOW, git, runsOf, setUpAbStep } from "./ab-step.fixture";

// `benchtrack ab` (scripts/ci/benchtrack-ab.mjs) outside a GitHub pull request: in a GitLab merge request
// pipeline (GitLab's merge-base, the note and the status), on a push (HEAD against HEAD^) and in a plain
// shell (uncommitted changes as the head). Set-up: ab-step.fixture.ts.
const { step, SCRIPT, origin, checkout, abEnv, runAb, uploadsSince } = setUpAbStep();
const { SLUG, work } = step;
let bench: RouteServer;
let github: FakeForge;
beforeAll(() => {
  ({ bench, github } = step);
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

describe("what it read", () => {
  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
