import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { uniqueSlug } from "@/server/testing/databases";
import { setUpRouteTestDatabase } from "@/server/testing/rest-client";
import type { RouteServer } from "@/server/testing/route-server";
import { serveRoutes } from "@/server/testing/route-server";
import { createProjectThroughApi, mintProjectToken } from "@/server/testing/seed";
import type { FakeForge } from "./fake-forges";
import { GITHUB_BODY_LIMIT, startFakeGithub, startFakeGitlab } from "./fake-forges";
import { nextCommentBody } from "./living-comment.mjs";

// The CI script (scripts/ci/benchtrack-pr.mjs) run as CI runs it, a child process, against the real
// upload route behind a real socket (the database the environment names: embedded, or PostgreSQL with
// DATABASE_URL) and against small GitHub and GitLab servers that record what they receive.
const SCRIPT = path.resolve(import.meta.dirname, "benchtrack-pr.mjs");
const GITHUB_TOKEN = "ghs_FakeGithubToken0123456789";
const GITLAB_TOKEN = "glpat-FakeGitlabToken0123456789";
const SLUG = uniqueSlug("ci-comment");
let uploadToken = "";

let bench: RouteServer;
let github: FakeForge;
let gitlab: FakeForge;
const work = mkdtempSync(path.join(os.tmpdir(), "benchtrack-pr-"));

/** A repository as a pull_request checkout sees it: main moved on after the branch forked, HEAD is GitHub's merge commit. */
const git = { fork: "", heads: [] as string[], mainTip: "", merge: "", dir: path.join(work, "repo") };

function sh(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=ci", "-c", "user.email=ci@example.test", ...args], {
    cwd: git.dir,
    encoding: "utf8",
  }).trim();
}

function commit(message: string): string {
  sh("commit", "-q", "--allow-empty", "-m", message);
  return sh("rev-parse", "HEAD");
}

setUpRouteTestDatabase();

beforeAll(async () => {
  await createProjectThroughApi(SLUG);
  uploadToken = await mintProjectToken(SLUG, "ci");
  bench = await serveRoutes([{ path: /^\/api\/v1\/projects\/(?<project>[^/]+)\/runs$/, methods: { POST: uploadRun } }]);
  github = await startFakeGithub(GITHUB_TOKEN);
  gitlab = await startFakeGitlab(GITLAB_TOKEN);

  mkdirSync(git.dir);
  sh("init", "-q", "-b", "main");
  git.fork = commit("A: where the pull request forks");
  sh("checkout", "-q", "-b", "feature/x");
  git.heads = [commit("B1"), commit("B2"), commit("B3")];
  sh("checkout", "-q", "main");
  git.mainTip = commit("C: main moves on");
  sh("update-ref", "refs/remotes/origin/main", git.mainTip);
  sh("checkout", "-q", "--detach", git.mainTip);
  sh("merge", "-q", "--no-ff", "-m", "M: GitHub's merge commit", git.heads[2]!);
  git.merge = sh("rev-parse", "HEAD");
});

afterAll(async () => {
  await Promise.all([bench?.close(), github?.close(), gitlab?.close()]);
});

function resultFile(name: string, p95: number, label = "nightly", hour = 0): string {
  const file = path.join(work, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      schema: "benchtrack/v1",
      label,
      startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
      endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
    }),
  );
  return file;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function runScript(mode: string, env: Record<string, string>): Promise<Outcome> {
  const child = spawn(process.execPath, [SCRIPT, mode], {
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", ...env },
    cwd: work,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  // Whatever happened, no token is in what the job log would show.
  for (const secret of [uploadToken, GITHUB_TOKEN, GITLAB_TOKEN, env.BENCHTRACK_TOKEN, env.GITHUB_TOKEN].filter(
    (value) => value && value.length > 8,
  )) {
    expect(stdout + stderr).not.toContain(secret!);
  }
  return { code, stdout, stderr };
}

let pushes = 0;

/** A GitHub Actions step's environment: a pull_request event of `pr` at `head` (or a push to main without `pr`). */
function githubEnv(
  file: string,
  options: { pr?: number; head?: string; label?: string; extra?: Record<string, string> } = {},
): Record<string, string> {
  pushes += 1;
  const event = path.join(work, `event-${pushes}.json`);
  const isPull = options.pr !== undefined;
  writeFileSync(
    event,
    JSON.stringify(
      isPull
        ? { pull_request: { number: options.pr, head: { sha: options.head ?? git.heads[0] }, base: { ref: "main" } } }
        : { ref: "refs/heads/main" },
    ),
  );
  return {
    GITHUB_ACTIONS: "true",
    BENCHTRACK_URL: bench.url,
    BENCHTRACK_PROJECT: SLUG,
    BENCHTRACK_TOKEN: uploadToken,
    BENCHTRACK_FILES: file,
    BENCHTRACK_LABEL: options.label ?? "nightly",
    GITHUB_TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: "https://github.test",
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_RUN_ID: String(5000 + pushes),
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_JOB: "perf",
    GITHUB_EVENT_NAME: isPull ? "pull_request" : "push",
    GITHUB_EVENT_PATH: event,
    GITHUB_BASE_REF: isPull ? "main" : "",
    GITHUB_HEAD_REF: isPull ? "feature/x" : "",
    GITHUB_REF_NAME: isPull ? `${options.pr}/merge` : "main",
    GITHUB_SHA: isPull ? git.merge : git.mainTip,
    GITHUB_WORKSPACE: git.dir,
    GITHUB_OUTPUT: path.join(work, `output-${pushes}.txt`),
    GITHUB_STEP_SUMMARY: path.join(work, `summary-${pushes}.md`),
    ...options.extra,
  };
}

const MARKER = () => `<!-- benchtrack:${SLUG}:custom:nightly -->`;
const entryIds = (body: string) =>
  [...body.matchAll(/^<!-- benchtrack:entry run=(\S+) -->$/gm)].map((match) => match[1]);
const uploadsSeen = () => bench.requests.filter((request) => request.method === "POST").length;

describe("the GitHub Actions step", () => {
  const PR = 7;
  const runIds: string[] = [];

  it("uploads on main without commenting: there is no pull request", async () => {
    for (const [hour, p95] of [20.1, 19.8, 20.4, 19.9, 20.2].entries()) {
      const outcome = await runScript("github", githubEnv(resultFile(`main-${hour}`, p95, "nightly", hour)));
      expect(outcome.stderr).toBe("");
      expect(outcome.code).toBe(0);
      expect(outcome.stdout).toContain("no comment is written");
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
    expect(upload.url.searchParams.get("base_time")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/);
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
    expect(calls.filter((request) => request.method === "POST")).toHaveLength(0);
    expect(calls.filter((request) => request.method === "PATCH")).toHaveLength(1);
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
    expect(outcome.stdout).toMatch(/^::warning title=Benchtrack::Benchtrack INCONCLUSIVE: nothing failed, but the gate could not judge: too little history: /m);
    expect(readFileSync(env.GITHUB_OUTPUT!, "utf8")).toContain("outcome=inconclusive\n");
    const soak = github.threads
      .get(PR)!
      .filter((comment) => comment.body.includes(`<!-- benchtrack:${SLUG}:custom:soak -->`));
    expect(soak).toHaveLength(1);
    expect(soak[0]!.body).not.toContain(MARKER());
    expect(github.threads.get(PR)!.filter((comment) => comment.body.trimEnd().endsWith(MARKER()))).toHaveLength(1);
    // BENCHTRACK_INCONCLUSIVE=fail: a team that wants every run judged fails the job instead.
    const strict = await runScript(
      "github",
      githubEnv(resultFile("pr-soak-2", 45, "soak", 13), { pr: PR, head: git.heads[2], label: "soak", extra: { BENCHTRACK_INCONCLUSIVE: "fail" } }),
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^::error title=Benchtrack::Benchtrack INCONCLUSIVE \(BENCHTRACK_INCONCLUSIVE=fail\): too little history/m);
  });

  it("fails the job on a failing verdict, after writing the comment", async () => {
    const before = github.requests.length;
    const env = githubEnv(resultFile("pr-3", 30.5, "nightly", 13), { pr: PR, head: git.heads[2] });
    const outcome = await runScript("github", env);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(/Benchtrack: FAIL/);
    expect(outcome.stdout).toMatch(/endpoints? regressed against the baseline/);
    expect(outcome.stderr).toMatch(/^::error title=Benchtrack::Benchtrack FAIL: /m);
    expect(github.requests.slice(before).map((request) => request.method)).toEqual(["GET", "GET", "PATCH"]);
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

describe("errors, reported clearly", () => {
  it("a comment GitHub refuses (403) is named with its cause, after the upload", async () => {
    github.fail("POST", /\/issues\/9\/comments$/, 403, {
      message: "Resource not accessible by integration",
      documentation_url: "https://docs.github.com/rest",
    });
    const outcome = await runScript("github", githubEnv(resultFile("pr9", 20.1, "nightly", 60), { pr: 9 }));
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toMatch(/Benchtrack: PASS/);
    expect(outcome.stderr).toContain("the GitHub comment could not be written");
    expect(outcome.stderr).toMatch(
      /GitHub: POST http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/shop\/issues\/9\/comments answered 403 Forbidden: Resource not accessible by integration/,
    );
    expect(outcome.stderr).toContain("pull-requests: write");
  });

  it("a 5xx from GitHub is retried when safe, and reported when it lasts", async () => {
    github.fail(
      "GET",
      /\/issues\/10\/comments$/,
      503,
      { message: "Service Unavailable" },
      { headers: { "retry-after": "0" } },
    );
    const retried = await runScript("github", githubEnv(resultFile("pr10", 20.1, "nightly", 61), { pr: 10 }));
    expect(retried.code).toBe(0);
    expect(
      github.requests.filter((request) => request.path.endsWith("/issues/10/comments") && request.method === "GET"),
    ).toHaveLength(2);

    github.fail("GET", /\/issues\/11\/comments$/, 500, "<html>oops</html>");
    const failed = await runScript(
      "github",
      githubEnv(resultFile("pr11", 20.1, "nightly", 62), { pr: 11, extra: { BENCHTRACK_RETRIES: "0" } }),
    );
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(
      /GitHub: GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/shop\/issues\/11\/comments answered 500 Internal Server Error: <html>oops<\/html>/,
    );
  });

  it("a wrong GitHub token is refused without being printed, even when the API echoes it", async () => {
    const wrong = "ghs_WrongTokenThatMustNotLeak42";
    const outcome = await runScript(
      "github",
      githubEnv(resultFile("pr12", 20.1, "nightly", 63), { pr: 12, extra: { GITHUB_TOKEN: wrong } }),
    );
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toContain("answered 401 Unauthorized: Bad credentials (got Bearer ***)");
    expect(outcome.stderr).toContain("not valid");
  });

  it("a next page outside the API is not followed with the token", async () => {
    github.threads.set(
      13,
      Array.from({ length: 120 }, (_, index) => ({ id: 9000 + index, body: `note ${index}` })),
    );
    github.linkOrigin = "http://evil.test";
    try {
      const outcome = await runScript("github", githubEnv(resultFile("pr13", 20.1, "nightly", 64), { pr: 13 }));
      expect(outcome.code).toBe(3);
      expect(outcome.stderr).toContain("points outside");
    } finally {
      github.linkOrigin = null;
    }
  });

  it("an upload Benchtrack refuses stops before any comment, with Benchtrack's reason", async () => {
    const before = github.requests.length;
    const wrongToken = await runScript(
      "github",
      githubEnv(resultFile("pr14", 20.1), { pr: 14, extra: { BENCHTRACK_TOKEN: "bt_not-a-real-token-123456" } }),
    );
    expect(wrongToken.code).toBe(3);
    expect(wrongToken.stderr).toContain("The upload failed, so there is no outcome and no comment.");
    expect(wrongToken.stderr).toMatch(
      /Benchtrack: POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/projects\/ci-comment-\w+\/runs answered 401 Unauthorized: unauthorized: /,
    );
    expect(wrongToken.stderr).toContain("must be an upload token");

    const junk = path.join(work, "junk.txt");
    writeFileSync(junk, "this is no tool's output\n");
    const unreadable = await runScript("github", githubEnv(junk, { pr: 14 }));
    expect(unreadable.code).toBe(3);
    expect(unreadable.stderr).toMatch(/answered 422 Unprocessable Entity: \w+: /);
    expect(github.requests.length).toBe(before);
  });

  it("bad inputs exit 2 with a clear message, before any request, and never print the token", async () => {
    const file = resultFile("bad", 20.1);
    const cases: [Record<string, string>, RegExp][] = [
      [{ BENCHTRACK_URL: "" }, /BENCHTRACK_URL is not set/],
      [{ BENCHTRACK_URL: "ftp://bench.example" }, /must start with https:\/\/ or http:\/\//],
      [{ BENCHTRACK_URL: "https://user:secret@bench.example" }, /must not hold credentials/],
      [{ BENCHTRACK_FILES: path.join(work, "missing.json") }, /missing\.json" does not exist/],
      [
        { BENCHTRACK_TOKEN: "bt_line-one\nbt_line-two-secret" },
        /BENCHTRACK_TOKEN holds spaces or non-printable characters \(it is not shown\)/,
      ],
      [{ BENCHTRACK_BASE_COMMIT: "main; rm -rf /" }, /BENCHTRACK_BASE_COMMIT must be a commit SHA/],
      [{ GITHUB_TOKEN: "" }, /GITHUB_TOKEN is not set/],
      [{ BENCHTRACK_RETRIES: "lots" }, /BENCHTRACK_RETRIES must be a whole number/],
    ];
    const uploads = uploadsSeen();
    const calls = github.requests.length;
    for (const [extra, message] of cases) {
      const outcome = await runScript("github", githubEnv(file, { pr: 15, extra }));
      expect(outcome.code, JSON.stringify(extra)).toBe(2);
      expect(outcome.stderr).toMatch(message);
      expect(outcome.stderr + outcome.stdout).not.toContain("line-two-secret");
      expect(outcome.stderr + outcome.stdout).not.toContain("user:secret");
    }
    const unknown = await runScript("bitbucket", githubEnv(file, { pr: 15 }));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown mode "bitbucket"');
    expect(uploadsSeen()).toBe(uploads);
    expect(github.requests.length).toBe(calls);
  });
});

describe("the GitLab merge request note", () => {
  const MR = 5;
  const gitlabEnv = (file: string, extra: Record<string, string> = {}): Record<string, string> => ({
    BENCHTRACK_URL: bench.url,
    BENCHTRACK_PROJECT: SLUG,
    BENCHTRACK_TOKEN: uploadToken,
    BENCHTRACK_FILES: file,
    BENCHTRACK_LABEL: "nightly",
    BENCHTRACK_GITLAB_TOKEN: GITLAB_TOKEN,
    CI_API_V4_URL: `${gitlab.url}/api/v4`,
    CI_PROJECT_ID: "42",
    CI_PROJECT_URL: "https://gitlab.test/acme/shop",
    CI_MERGE_REQUEST_IID: String(MR),
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature/y",
    CI_MERGE_REQUEST_DIFF_BASE_SHA: git.fork,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
    CI_PROJECT_DIR: git.dir,
    CI_COMMIT_SHA: git.heads[1]!,
    CI_JOB_ID: String(7000 + ++pushes),
    CI_JOB_URL: `https://gitlab.test/acme/shop/-/jobs/${pushes}`,
    ...extra,
  });

  it("creates the note, then updates it in place with the first result folded", async () => {
    // 130 notes, GitLab's own among them: two pages.
    gitlab.threads.set(
      MR,
      Array.from({ length: 130 }, (_, index) => ({ id: 500 + index, body: `note ${index}`, system: index % 2 === 0 })),
    );
    const first = await runScript("gitlab", gitlabEnv(resultFile("mr-1", 20.1, "nightly", 30)));
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /Created the GitLab comment on merge request !5: https:\/\/gitlab\.test\/acme\/shop\/-\/merge_requests\/5#note_\d+/,
    );
    const upload = bench.requests.at(-1)!;
    expect(upload.url.searchParams.get("base_commit")).toBe(git.fork);
    expect(upload.url.searchParams.get("base_branch")).toBe("main");
    expect(upload.url.searchParams.get("base_time")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(upload.url.searchParams.get("branch")).toBe("feature/y");
    expect(upload.url.searchParams.get("pr")).toBe(String(MR));

    // The next push is another commit (one commit's uploads would be pooled as its rounds).
    const second = await runScript("gitlab", gitlabEnv(resultFile("mr-2", 30.2, "nightly", 31), { CI_COMMIT_SHA: git.heads[2]! }));
    expect(second.code).toBe(1);
    expect(second.stdout).toContain("Updated the GitLab comment on merge request !5");
    expect(second.stderr).toMatch(/^error: Benchtrack FAIL/m);
    const methods = gitlab.requests.map((request) => `${request.method} ${request.query.get("page") ?? ""}`.trim());
    expect(methods).toEqual(["GET 1", "GET 2", "POST", "GET 1", "GET 2", "PUT"]);
    expect(gitlab.requests.every((request) => request.credential === GITLAB_TOKEN)).toBe(true);
    const ours = gitlab.threads.get(MR)!.filter((note) => note.body.includes(MARKER()));
    expect(ours).toHaveLength(1);
    expect(entryIds(ours[0]!.body)).toHaveLength(2);
    expect(ours[0]!.body).toContain("<details>");
    expect(ours[0]!.body.split("\n").find((line) => line !== "" && !line.startsWith("<!--"))).toMatch(
      /^### ❌ Benchtrack: \*\*FAIL\*\*/,
    );
  });

  it("outside a merge request pipeline uploads without a note; a refused note is reported", async () => {
    const before = gitlab.requests.length;
    const plain = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-none", 20.1, "nightly", 32), { CI_MERGE_REQUEST_IID: "" }),
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("Not a merge request pipeline");
    expect(gitlab.requests.length).toBe(before);

    gitlab.fail("POST", /\/merge_requests\/6\/notes$/, 403, { message: "403 Forbidden" });
    const refused = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-6", 20.1, "nightly", 33), { CI_MERGE_REQUEST_IID: "6" }),
    );
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(
      /GitLab: POST http:\/\/127\.0\.0\.1:\d+\/api\/v4\/projects\/42\/merge_requests\/6\/notes answered 403 Forbidden: 403 Forbidden/,
    );
    expect(refused.stderr).toContain("api scope");

    const missing = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-7", 20.1), { CI_MERGE_REQUEST_IID: "7", BENCHTRACK_GITLAB_TOKEN: "" }),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("BENCHTRACK_GITLAB_TOKEN is not set");
  });

  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
