import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import type { RouteServer } from "@/server/testing/route-server";
import { setUpPrStep } from "./pr-step.fixture";

// The CI script (scripts/ci/benchtrack-pr.mjs) in a GitHub pull request when something goes wrong: GitHub
// or Benchtrack refusing or failing a call, a wrong token, bad inputs; each reported clearly, with the
// exit code CI acts on and no token printed. Set-up: pr-step.fixture.ts.
const step = setUpPrStep();
const { work, resultFile, runScript, githubEnv, CONTEXT, otherCommit, uploadsSeen } = step;
let bench: RouteServer;
let github: FakeForge;
beforeAll(async () => {
  ({ bench, github } = step);
  // The default branch's history the pull requests are judged against, uploaded by the step on main.
  await step.uploadMainHistory();
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

  it("a 502 on the commit status is retried, and the status set once", async () => {
    const head = otherCommit(1);
    github.fail("POST", new RegExp(`/statuses/${head}$`), 502, "<html>Bad Gateway</html>", {
      headers: { "retry-after": "0" },
    });
    const env = githubEnv(resultFile("pr20", 20.1, "nightly", 70), {
      pr: 20,
      head,
      extra: { BENCHTRACK_BASE_COMMIT: "none" },
    });
    const outcome = await runScript("github", env);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(github.requests.filter((request) => request.path.endsWith(`/statuses/${head}`))).toHaveLength(2);
    expect(github.statuses.get(head)).toEqual([expect.objectContaining({ state: "success", context: CONTEXT() })]);
  });

  it("a commit status GitHub refuses (403) names the permission, after the comment; the outcome still shows", async () => {
    const head = otherCommit(2);
    github.fail("POST", new RegExp(`/statuses/${head}$`), 403, {
      message: "Resource not accessible by integration",
      documentation_url: "https://docs.github.com/rest/commits/statuses#create-a-commit-status",
    });
    const env = githubEnv(resultFile("pr21", 20.1, "nightly", 71), {
      pr: 21,
      head,
      extra: { BENCHTRACK_BASE_COMMIT: "none" },
    });
    const outcome = await runScript("github", env);
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toMatch(/^Benchtrack: PASS/m);
    expect(outcome.stdout).toContain("Created the GitHub comment on pull request #21");
    expect(outcome.stderr).toContain(
      `The result is uploaded (outcome pass), but the GitHub commit status ${CONTEXT()} could not be set.`,
    );
    expect(outcome.stderr).toMatch(
      new RegExp(
        `GitHub: POST http://127\\.0\\.0\\.1:\\d+/repos/acme/shop/statuses/${head} answered 403 Forbidden: Resource not accessible by integration`,
      ),
    );
    expect(outcome.stderr).toContain("`statuses: write`");
    expect(outcome.stderr).toContain("BENCHTRACK_COMMIT_STATUS=false");
    expect(readFileSync(env.GITHUB_OUTPUT!, "utf8")).toContain("outcome=pass\n");
    expect(github.statuses.has(head)).toBe(false);
  });

  it("BENCHTRACK_COMMIT_STATUS=false sets no status, and then needs no head commit", async () => {
    const head = otherCommit(3);
    const calls = github.requests.length;
    const outcome = await runScript(
      "github",
      githubEnv(resultFile("pr22", 20.1, "nightly", 72), {
        pr: 22,
        head,
        extra: { BENCHTRACK_BASE_COMMIT: "none", BENCHTRACK_COMMIT_STATUS: "false" },
      }),
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("Created the GitHub comment on pull request #22");
    expect(outcome.stdout).not.toContain("commit status");
    expect(github.requests.slice(calls).filter((request) => request.path.includes("/statuses/"))).toHaveLength(0);
    expect(github.statuses.has(head)).toBe(false);

    // A pull_request event without its head: the status could not name the commit, so it is a configuration error.
    const noHead = path.join(work, "event-no-head.json");
    writeFileSync(noHead, JSON.stringify({ pull_request: { number: 22, base: { ref: "main" } } }));
    const file = resultFile("pr22b", 20.1, "nightly", 73);
    const uploads = uploadsSeen();
    const refused = await runScript("github", githubEnv(file, { pr: 22, extra: { GITHUB_EVENT_PATH: noHead } }));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("pull_request.head.sha is not set: the commit status needs the head commit");
    expect(uploadsSeen()).toBe(uploads);
    const off = await runScript(
      "github",
      githubEnv(file, {
        pr: 22,
        extra: { GITHUB_EVENT_PATH: noHead, BENCHTRACK_COMMIT_STATUS: "false", BENCHTRACK_BASE_COMMIT: "none" },
      }),
    );
    expect(off.code, off.stderr).toBe(0);
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
    expect(wrongToken.stderr).toContain("The upload failed, so there is no outcome, no comment and no commit status.");
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
      [{ BENCHTRACK_COMMIT_STATUS: "maybe" }, /BENCHTRACK_COMMIT_STATUS must be "true" or "false"/],
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

describe("what it read", () => {
  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
