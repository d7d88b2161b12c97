import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import { GITHUB_BODY_LIMIT } from "./fake-forges";
import { nextCommentBody } from "./living-comment.mjs";
import type { RouteServer } from "@/server/testing/route-server";
import { setUpPrStep } from "./pr-step.fixture";
import { getDb } from "@/server/db";

// The CI script (scripts/ci/benchtrack-pr.mjs) in a GitHub pull request: the living comment and the commit
// status push after push, and budgets as code (benchtrack.json). Set-up: pr-step.fixture.ts. Its errors:
// benchtrack-pr-errors.slow.test.ts; GitLab: benchtrack-pr-gitlab.slow.test.ts.
const step = setUpPrStep();
const {
  SLUG,
  GITHUB_TOKEN,
  git,
  resultFile,
  runScript,
  githubEnv,
  MARKER,
  CONTEXT,
  runUrlOf,
  entryIds,
  uploadsSeen,
} = step;
let bench: RouteServer;
let github: FakeForge;
beforeAll(() => {
  ({ bench, github } = step);
});

describe("the GitHub Actions step", () => {
  const PR = 7;
  const runIds: string[] = [];

  it("uploads on main without commenting: there is no pull request", async () => {
    for (const [hour, p95] of [20.1, 19.8, 20.4, 19.9, 20.2].entries()) {
      const outcome = await runScript("github", githubEnv(resultFile(`main-${hour}`, p95, "nightly", hour)));
      expect(outcome.stderr).toBe("");
      expect(outcome.code).toBe(0);
      expect(outcome.stdout).toContain("no comment is written and no commit status is set");
    }
    expect(github.requests).toHaveLength(0);
    const upload = bench.requests.at(-1)!;
    expect(upload.url.searchParams.get("branch")).toBe("main");
    expect(upload.url.searchParams.has("base_commit")).toBe(false);
  });

  it("creates the comment on the first push, with the marker, the verdict first and the merge-base as base_commit", async () => {
    // 150 earlier comments: the list takes two pages. One quotes the marker: it is not ours.
    github.threads.set(
      PR,
      Array.from({ length: 150 }, (_, index) => ({
        id: 100 + index,
        body: index === 3 ? `> ${MARKER()}\n> quoted` : `review ${index}`,
      })),
    );
    const env = githubEnv(resultFile("pr-1", 20.2, "nightly", 10), { pr: PR, head: git.heads[0] });
    const outcome = await runScript("github", env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(
      /Benchtrack: PASS .*run http:\/\/bench\.test\/projects\/.*\/runs\/\S+ \(base_commit [0-9a-f]{12}\)/,
    );
    expect(outcome.stdout).toContain(
      `Created the GitHub comment on pull request #${PR}: https://github.test/acme/shop/pull/${PR}#issuecomment-`,
    );

    const upload = bench.requests.at(-1)!;
    // The fork point, not main's tip, nor what HEAD (the merge commit) would give.
    expect(upload.url.searchParams.get("base_commit")).toBe(git.fork);
    // With its branch and commit time: a merge-base main has no run at is placed in time.
    expect(upload.url.searchParams.get("base_branch")).toBe("main");
    expect(upload.url.searchParams.get("base_time")).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/,
    );
    expect(upload.url.searchParams.get("commit")).toBe(git.heads[0]);
    expect(Object.fromEntries(upload.url.searchParams)).toMatchObject({
      branch: "feature/x",
      pr: String(PR),
      label: "nightly",
      build_url: `https://github.test/acme/shop/actions/runs/${env.GITHUB_RUN_ID}`,
    });

    const pages = github.requests.filter((request) => request.method === "GET");
    expect(pages.map((request) => request.query.get("page"))).toEqual([null, "2"]);
    expect(github.requests.every((request) => request.credential === `Bearer ${GITHUB_TOKEN}`)).toBe(true);
    const created = github.threads
      .get(PR)!
      .filter((comment) => comment.body.includes(MARKER()) && !comment.body.startsWith(">"));
    expect(created).toHaveLength(1);
    const body = created[0]!.body;
    expect(body.trimEnd().split("\n").at(-1)).toBe(MARKER());
    expect(body.split("\n").find((line) => line !== "" && !line.startsWith("<!--"))).toMatch(
      /^### ✅ Benchtrack: \*\*PASS\*\*/,
    );
    expect(body).toContain("[compare](http://bench.test/projects/");
    expect(body).not.toContain("<details>");
    runIds.push(entryIds(body)[0]!);

    const outputs = readFileSync(env.GITHUB_OUTPUT!, "utf8");
    expect(outputs).toContain("outcome=pass\nverdict=pass\n");
    expect(outputs).toContain(`run-id=${runIds[0]}\n`);
    expect(outputs).toMatch(/comment-url=https:\/\/github\.test\/acme\/shop\/pull\/7#issuecomment-\d+\n/);
    expect(readFileSync(env.GITHUB_STEP_SUMMARY!, "utf8")).toMatch(/^### ✅ Benchtrack: \*\*PASS\*\*/);

    // The head commit's status, what a required check reads: on the pull request's head, not the merge commit.
    const run = runUrlOf(outcome.stdout);
    expect(run).toMatch(/^http:\/\/bench\.test\/projects\/.*\/runs\/\w+$/);
    expect(github.statuses.get(git.heads[0]!)).toEqual([
      {
        state: "success",
        context: CONTEXT(),
        description: "pass: nothing failed",
        targetUrl: run,
        pipelineId: null,
      },
    ]);
    expect(github.statuses.has(git.merge)).toBe(false);
    expect(outcome.stdout).toContain(
      `Set the GitHub commit status ${CONTEXT()} on ${git.heads[0]!.slice(0, 12)}: success (pass: nothing failed)`,
    );
  });

  it("updates that same comment on the next push, the first result folded into <details>", async () => {
    const before = github.requests.length;
    const outcome = await runScript(
      "github",
      githubEnv(resultFile("pr-2", 20.0, "nightly", 11), { pr: PR, head: git.heads[1] }),
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`Updated the GitHub comment on pull request #${PR}`);
    const calls = github.requests.slice(before);
    expect(calls.filter((request) => request.method === "POST" && request.path.endsWith("/comments"))).toHaveLength(0);
    expect(calls.filter((request) => request.method === "PATCH")).toHaveLength(1);
    expect(calls.filter((request) => request.path === `/repos/acme/shop/statuses/${git.heads[1]}`)).toHaveLength(1);
    const ours = github.threads.get(PR)!.filter((comment) => comment.body.trimEnd().endsWith(MARKER()));
    expect(ours).toHaveLength(1);
    const body = ours[0]!.body;
    const ids = entryIds(body);
    expect(ids).toHaveLength(2);
    runIds.unshift(ids[0]!);
    expect(ids[1]).toBe(runIds[1]);
    const [current, history] = body.split("<details>");
    expect(current).toContain(`run=${ids[0]}`);
    expect(history).toMatch(/^\n<summary>Earlier results on this pull request \(1, newest first\)<\/summary>/);
    expect(history).toContain(`run=${runIds[1]}`);
    expect(body.match(new RegExp(MARKER().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g"))).toHaveLength(1);
  });

  it("gives another series a comment of its own; a series with no history is inconclusive: a warning, not a failed job", async () => {
    const env = githubEnv(resultFile("pr-soak", 45, "soak", 12), { pr: PR, head: git.heads[1], label: "soak" });
    const outcome = await runScript("github", env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("Created the GitHub comment");
    expect(outcome.stdout).toMatch(/^Benchtrack: INCONCLUSIVE /m);
    expect(outcome.stdout).toMatch(
      /^::warning title=Benchtrack::Benchtrack INCONCLUSIVE: nothing failed, but the gate could not judge: too little history: /m,
    );
    expect(readFileSync(env.GITHUB_OUTPUT!, "utf8")).toContain("outcome=inconclusive\n");
    const soak = github.threads
      .get(PR)!
      .filter((comment) => comment.body.includes(`<!-- benchtrack:${SLUG}:custom:soak -->`));
    expect(soak).toHaveLength(1);
    expect(soak[0]!.body).not.toContain(MARKER());
    expect(github.threads.get(PR)!.filter((comment) => comment.body.trimEnd().endsWith(MARKER()))).toHaveLength(1);
    // A check of its own, beside nightly's on the same commit; inconclusive succeeds, and says it is not a pass.
    const statuses = github.statuses.get(git.heads[1]!)!;
    expect(statuses.map((status) => [status.context, status.state])).toEqual([
      [CONTEXT(), "success"],
      [CONTEXT("soak"), "success"],
    ]);
    expect(statuses[1]!.description).toMatch(/^inconclusive: too little history: /);
    expect([...statuses[1]!.description!].length).toBeLessThanOrEqual(140);
    expect(statuses[1]!.targetUrl).toBe(runUrlOf(outcome.stdout));
    // BENCHTRACK_INCONCLUSIVE=fail: a team that wants every run judged fails the job instead.
    const strict = await runScript(
      "github",
      githubEnv(resultFile("pr-soak-2", 45, "soak", 13), {
        pr: PR,
        head: git.heads[2],
        label: "soak",
        extra: { BENCHTRACK_INCONCLUSIVE: "fail" },
      }),
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      /^::error title=Benchtrack::Benchtrack INCONCLUSIVE \(BENCHTRACK_INCONCLUSIVE=fail\): too little history/m,
    );
    expect(github.statuses.get(git.heads[2]!)).toEqual([
      expect.objectContaining({
        context: CONTEXT("soak"),
        state: "failure",
        description: expect.stringMatching(/^inconclusive: too little history: /),
      }),
    ]);
  });

  it("fails the job on a failing verdict, after writing the comment", async () => {
    const before = github.requests.length;
    const env = githubEnv(resultFile("pr-3", 30.5, "nightly", 13), { pr: PR, head: git.heads[2] });
    const outcome = await runScript("github", env);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(/Benchtrack: FAIL/);
    expect(outcome.stdout).toMatch(/endpoints? regressed against the baseline/);
    expect(outcome.stderr).toMatch(/^::error title=Benchtrack::Benchtrack FAIL: /m);
    expect(github.requests.slice(before).map((request) => `${request.method} ${request.path.split("/")[4]}`)).toEqual([
      "GET issues",
      "GET issues",
      "PATCH issues",
      "POST statuses",
    ]);
    expect(github.statuses.get(git.heads[2]!)!.at(-1)).toEqual({
      state: "failure",
      context: CONTEXT(),
      description: "fail: 1 endpoint regressed",
      targetUrl: runUrlOf(outcome.stdout),
      pipelineId: null,
    });
    const body = github.threads.get(PR)!.find((comment) => comment.body.trimEnd().endsWith(MARKER()))!.body;
    expect(body.split("\n").find((line) => line !== "" && !line.startsWith("<!--"))).toMatch(
      /^### ❌ Benchtrack: \*\*FAIL\*\*/,
    );
    const ids = entryIds(body);
    expect(ids.slice(1)).toEqual(runIds);
    expect(body).toContain("(2, newest first)");
    expect(readFileSync(env.GITHUB_OUTPUT!, "utf8")).toContain("verdict=fail\n");
  });

  it("keeps the comment under GitHub's limit: the oldest results make room", async () => {
    // A comment already near the limit: 20 earlier results of ~3,100 characters each.
    const pr = 8;
    const rows = Array.from(
      { length: 40 },
      (_, row) => `| GET /api/listings/${"x".repeat(40)}/${row} | 1,000 | 10.0 | 1.0 ms | 2.0 ms | 3.0 ms | 0.00% |`,
    ).join("\n");
    let seeded: string | null = null;
    for (let push = 1; push <= 20; push += 1) {
      seeded = nextCommentBody(seeded, {
        marker: MARKER(),
        runId: `seeded${push}`,
        markdown: `### ✅ Benchtrack: **PASS**\n\n${rows}\n\n${MARKER()}\n`,
      });
    }
    expect(seeded!.length).toBeGreaterThan(GITHUB_BODY_LIMIT - 6_000);
    github.threads.set(pr, [{ id: 8000, body: seeded! }]);

    const outcome = await runScript(
      "github",
      githubEnv(resultFile("pr8", 20.1, "nightly", 20), {
        pr,
        head: git.heads[0],
        extra: { BENCHTRACK_BASE_COMMIT: "none" },
      }),
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("Updated the GitHub comment");
    expect(github.threads.get(pr)).toHaveLength(1);
    const body = github.threads.get(pr)![0]!.body;
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    const ids = entryIds(body);
    // The new result on top, then the earlier ones newest first, the oldest dropped to fit.
    expect(ids[0]).not.toMatch(/^seeded/);
    expect(ids.slice(1)).toEqual(Array.from({ length: ids.length - 1 }, (_, index) => `seeded${20 - index}`));
    expect(ids.length).toBeLessThan(21);
    expect(bench.requests.at(-1)!.url.searchParams.has("base_commit")).toBe(false);
  });
});

describe("budgets as code: benchtrack.json at the repository's root", () => {
  it("a malformed file fails the step before uploading, naming the JSON path; a good one is sent and judges the run", async () => {
    const file = path.join(git.dir, "benchtrack.json");
    const pr = 30;
    try {
      writeFileSync(file, JSON.stringify({ sla: { targets: [{ metric: "p95", op: "<=", threshold: "fast" }] } }));
      const seen = uploadsSeen();
      const bad = await runScript("github", githubEnv(resultFile("budget-bad", 20, "budgeted", 14), { pr, head: git.heads[0], label: "budgeted" }), { cwd: git.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe("::error title=Benchtrack::benchtrack.json: sla.targets[0].threshold: expected number, got string\n");
      expect(uploadsSeen()).toBe(seen);

      // The budget's label entry makes an inconclusive gate (a new series: too little history) fail the job.
      writeFileSync(file, JSON.stringify({ sla: { targets: [{ metric: "p95", op: "<=", threshold: 1, unit: "s" }] }, labels: { budgeted: { gate: { inconclusive: "fail" } } } }));
      const env = githubEnv(resultFile("budget-good", 20, "budgeted", 15), { pr, head: git.heads[0], label: "budgeted" });
      const judged = await runScript("github", env, { cwd: git.dir });
      expect(judged.stdout).toContain(`Budget: benchtrack.json at ${git.merge.slice(0, 12)} (with uncommitted changes: sent as it is).`);
      expect(judged.stdout).toMatch(/^Benchtrack: INCONCLUSIVE /m);
      expect(judged.stderr).toMatch(/^::error title=Benchtrack::Benchtrack INCONCLUSIVE \(inconclusive: fail in benchtrack\.json\): too little history/m);
      expect(judged.code).toBe(1);
      expect(github.statuses.get(git.heads[0]!)!.at(-1)).toMatchObject({ context: CONTEXT("budgeted"), state: "failure" });
      // The server kept the budget with the run, with the path and the commit it was read at, and graded by it.
      const runId = /^run-id=(\S+)$/m.exec(readFileSync(env.GITHUB_OUTPUT!, "utf8"))![1]!;
      const stored = await (await getDb()).run.findUniqueOrThrow({ where: { id: runId }, select: { budget: true } });
      expect(stored.budget).toMatchObject({ source: { path: "benchtrack.json", commit: git.merge }, gate: { inconclusive: "fail" } });
      expect(github.threads.get(pr)!.at(-1)!.body).toMatch(/^SLA grade \*\*A\*\* .*\. Budget from benchtrack\.json at [0-9a-f]{7} \(gate from Settings\)\.$/m);

      // BENCHTRACK_INCONCLUSIVE, the job's own setting, wins over the file.
      const lenient = await runScript(
        "github",
        githubEnv(resultFile("budget-lenient", 20, "budgeted", 16), { pr, head: git.heads[0], label: "budgeted", extra: { BENCHTRACK_INCONCLUSIVE: "pass" } }),
        { cwd: git.dir },
      );
      expect(lenient.code).toBe(0);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe("what it read", () => {
  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
