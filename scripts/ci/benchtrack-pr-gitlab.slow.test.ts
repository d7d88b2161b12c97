import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import type { RouteServer } from "@/server/testing/route-server";
import { setUpPrStep } from "./pr-step.fixture";

// The CI script (scripts/ci/benchtrack-pr.mjs) in a GitLab merge request pipeline: see pr-step.fixture.ts.
const step = setUpPrStep();
const { SLUG, GITLAB_TOKEN, git, resultFile, runScript, MARKER, CONTEXT, runUrlOf, otherCommit, entryIds } = step;
let bench: RouteServer;
let gitlab: FakeForge;
let uploadToken = "";
beforeAll(async () => {
  ({ bench, gitlab, uploadToken } = step);
  // The default branch's history the merge request is judged against, uploaded by the step on main.
  await step.uploadMainHistory();
});

describe("the GitLab merge request note", () => {
  const MR = 5;
  const ciJob = (job: number) => ({
    CI_JOB_ID: String(7000 + job),
    CI_JOB_URL: `https://gitlab.test/acme/shop/-/jobs/${job}`,
    CI_PIPELINE_ID: String(8000 + job),
  });
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
    ...ciJob(step.nextPush()),
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
    const second = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-2", 30.2, "nightly", 31), { CI_COMMIT_SHA: git.heads[2]! }),
    );
    expect(second.code).toBe(1);
    expect(second.stdout).toContain("Updated the GitLab comment on merge request !5");
    expect(second.stderr).toMatch(/^error: Benchtrack FAIL/m);
    const methods = gitlab.requests.map((request) =>
      request.path.includes("/statuses/")
        ? `${request.method} status`
        : `${request.method} ${request.query.get("page") ?? ""}`.trim(),
    );
    expect(methods).toEqual(["GET 1", "GET 2", "POST", "POST status", "GET 1", "GET 2", "PUT", "POST status"]);
    expect(gitlab.requests.every((request) => request.credential === GITLAB_TOKEN)).toBe(true);
    const ours = gitlab.threads.get(MR)!.filter((note) => note.body.includes(MARKER()));
    expect(ours).toHaveLength(1);
    expect(entryIds(ours[0]!.body)).toHaveLength(2);
    expect(ours[0]!.body).toContain("<details>");
    expect(ours[0]!.body.split("\n").find((line) => line !== "" && !line.startsWith("<!--"))).toMatch(
      /^### ❌ Benchtrack: \*\*FAIL\*\*/,
    );

    // Each push's commit (CI_COMMIT_SHA) has the series' status, in GitLab's words, in the job's pipeline.
    const pipeline = (requestIndex: number) =>
      (JSON.parse(gitlab.requests[requestIndex]!.body) as { pipeline_id: number }).pipeline_id;
    expect(gitlab.statuses.get(git.heads[1]!)).toEqual([
      {
        state: "success",
        context: CONTEXT(),
        description: "pass: nothing failed",
        targetUrl: runUrlOf(first.stdout),
        pipelineId: pipeline(3),
      },
    ]);
    expect(gitlab.statuses.get(git.heads[2]!)).toEqual([
      {
        state: "failed",
        context: CONTEXT(),
        description: "fail: 1 endpoint regressed",
        targetUrl: runUrlOf(second.stdout),
        pipelineId: pipeline(7),
      },
    ]);
    expect(pipeline(7)).toBeGreaterThan(pipeline(3));
    expect(second.stdout).toContain(
      `Set the GitLab commit status ${CONTEXT()} on ${git.heads[2]!.slice(0, 12)}: failed (fail: 1 endpoint regressed)`,
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
    expect(plain.stdout).toContain("no commit status is set");
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
    // The status does not depend on the note: it is set all the same.
    expect(gitlab.statuses.get(git.heads[1]!)!.at(-1)).toMatchObject({ state: "success", context: CONTEXT() });

    const missing = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-7", 20.1), { CI_MERGE_REQUEST_IID: "7", BENCHTRACK_GITLAB_TOKEN: "" }),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("BENCHTRACK_GITLAB_TOKEN is not set");
  });

  it("a commit status is retried on a 502, set once, and a refused one names the role it needs", async () => {
    const head = otherCommit(30);
    gitlab.fail("POST", new RegExp(`/statuses/${head}$`), 502, "<html>502 Bad Gateway</html>", {
      headers: { "retry-after": "0" },
    });
    const retried = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-30", 20.1, "nightly", 40), {
        CI_MERGE_REQUEST_IID: "30",
        CI_COMMIT_SHA: head,
        BENCHTRACK_BASE_COMMIT: "none",
      }),
    );
    expect(retried.code, retried.stderr).toBe(0);
    expect(gitlab.requests.filter((request) => request.path.endsWith(`/statuses/${head}`))).toHaveLength(2);
    expect(gitlab.statuses.get(head)).toEqual([expect.objectContaining({ state: "success", context: CONTEXT() })]);

    const refusedHead = otherCommit(31);
    gitlab.fail("POST", new RegExp(`/statuses/${refusedHead}$`), 403, { message: "403 Forbidden" });
    const refused = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-31", 20.1, "nightly", 41), {
        CI_MERGE_REQUEST_IID: "31",
        CI_COMMIT_SHA: refusedHead,
        BENCHTRACK_BASE_COMMIT: "none",
      }),
    );
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain("Created the GitLab comment on merge request !31");
    expect(refused.stderr).toMatch(
      new RegExp(
        `GitLab: POST http://127\\.0\\.0\\.1:\\d+/api/v4/projects/42/statuses/${refusedHead} answered 403 Forbidden: 403 Forbidden`,
      ),
    );
    expect(refused.stderr).toContain("at least the Developer role");

    const offHead = otherCommit(32);
    const calls = gitlab.requests.length;
    const off = await runScript(
      "gitlab",
      gitlabEnv(resultFile("mr-32", 20.1, "nightly", 42), {
        CI_MERGE_REQUEST_IID: "32",
        CI_COMMIT_SHA: offHead,
        BENCHTRACK_BASE_COMMIT: "none",
        BENCHTRACK_COMMIT_STATUS: "false",
      }),
    );
    expect(off.code).toBe(0);
    expect(gitlab.requests.slice(calls).filter((request) => request.path.includes("/statuses/"))).toHaveLength(0);
    expect(gitlab.statuses.has(offHead)).toBe(false);
  });

  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});
