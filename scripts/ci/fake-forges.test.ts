import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import { startFakeGithub, startFakeGitlab } from "./fake-forges";

// The stand-ins' commit status endpoints answer as the real APIs do, so that a client passing against them
// (benchtrack-pr.mjs, e2e/ui/pr-flow.spec.ts) sends what GitHub and GitLab accept.
const SHA = "0123456789abcdef0123456789abcdef01234567";
let github: FakeForge;
let gitlab: FakeForge;
beforeAll(async () => {
  [github, gitlab] = await Promise.all([startFakeGithub("gh-token"), startFakeGitlab("gl-token")]);
});
afterAll(async () => {
  await Promise.all([github.close(), gitlab.close()]);
});

async function post(url: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("the GitHub stand-in: POST /repos/{owner}/{repo}/statuses/{sha}", () => {
  const auth = { Authorization: "Bearer gh-token" };
  const url = (sha = SHA) => `${github.url}/repos/acme/shop/statuses/${sha}`;

  it("stores a status per commit and answers 201 with it", async () => {
    const answer = await post(url(), auth, {
      state: "success",
      context: "benchtrack/listings/k6:baseline",
      description: "pass: nothing failed",
      target_url: "https://bench.example/projects/listings/runs/r1",
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({
      state: "success",
      context: "benchtrack/listings/k6:baseline",
      description: "pass: nothing failed",
      target_url: "https://bench.example/projects/listings/runs/r1",
    });
    expect(github.statuses.get(SHA)).toEqual([
      {
        state: "success",
        context: "benchtrack/listings/k6:baseline",
        description: "pass: nothing failed",
        targetUrl: "https://bench.example/projects/listings/runs/r1",
        pipelineId: null,
      },
    ]);
    // No context: GitHub's "default".
    expect((await post(url(), auth, { state: "pending" })).json.context).toBe("default");
  });

  it("refuses what GitHub refuses: a bad state, a description past 140 characters, a bad token, no commit", async () => {
    const before = github.statuses.get(SHA)?.length ?? 0;
    const badState = await post(url(), auth, { state: "failed", context: "c" });
    expect(badState.status).toBe(422);
    expect(badState.json).toMatchObject({ message: "Validation Failed", errors: [{ field: "state" }] });
    const long = await post(url(), auth, { state: "success", context: "c", description: "x".repeat(141) });
    expect(long.status).toBe(422);
    expect(long.json.errors).toEqual([
      expect.objectContaining({ field: "description", message: "description is too long (maximum is 140 characters)" }),
    ]);
    // 140 characters, an emoji counting as one, are accepted.
    expect((await post(url(), auth, { state: "success", context: "c", description: "😀".repeat(140) })).status).toBe(
      201,
    );
    expect((await post(url(), { Authorization: "Bearer nope" }, { state: "success" })).status).toBe(401);
    expect((await post(url("main"), auth, { state: "success" })).status).toBe(422);
    expect(github.statuses.get(SHA)).toHaveLength(before + 1);
  });
});

describe("the GitLab stand-in: POST /api/v4/projects/{id}/statuses/{sha}", () => {
  const auth = { "PRIVATE-TOKEN": "gl-token" };
  const url = (sha = SHA) => `${gitlab.url}/api/v4/projects/42/statuses/${sha}`;

  it("stores a status in its pipeline and answers 201 in GitLab's words", async () => {
    const answer = await post(url(), auth, {
      state: "failed",
      name: "benchtrack/listings/k6:baseline",
      description: "fail: 1 endpoint regressed",
      target_url: "https://bench.example/projects/listings/runs/r2",
      pipeline_id: 77,
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ status: "failed", name: "benchtrack/listings/k6:baseline", sha: SHA });
    expect(gitlab.statuses.get(SHA)).toEqual([
      {
        state: "failed",
        context: "benchtrack/listings/k6:baseline",
        description: "fail: 1 endpoint regressed",
        targetUrl: "https://bench.example/projects/listings/runs/r2",
        pipelineId: 77,
      },
    ]);
    // A finished status is followed by a new one of the same name.
    expect(
      (await post(url(), auth, { state: "success", name: "benchtrack/listings/k6:baseline", pipeline_id: 77 })).status,
    ).toBe(201);
    expect(gitlab.statuses.get(SHA)!.map((status) => status.state)).toEqual(["failed", "success"]);
  });

  it("refuses what GitLab refuses: a bad state, a field past 255 characters, pending twice, a bad token", async () => {
    expect((await post(url(), auth, { state: "failure", name: "n" })).json).toEqual({
      error: "state does not have a valid value",
    });
    expect(
      (await post(url(), auth, { state: "success", name: "n", target_url: `https://x/${"p".repeat(250)}` })).status,
    ).toBe(400);
    expect((await post(url(), auth, { state: "pending", name: "pending-twice" })).status).toBe(201);
    const again = await post(url(), auth, { state: "pending", name: "pending-twice" });
    expect(again.status).toBe(400);
    expect(again.json.message).toMatch(/^Cannot transition status via :enqueue from :pending/);
    // Pending moves on to a final state in place.
    expect((await post(url(), auth, { state: "success", name: "pending-twice" })).status).toBe(201);
    expect(gitlab.statuses.get(SHA)!.filter((status) => status.context === "pending-twice")).toEqual([
      expect.objectContaining({ state: "success" }),
    ]);
    expect((await post(url(), { "PRIVATE-TOKEN": "nope" }, { state: "success" })).status).toBe(401);
  });
});
