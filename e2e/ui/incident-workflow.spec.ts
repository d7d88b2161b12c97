import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { startFakeChat, type FakeChat } from "../../scripts/ci/fake-chat";
import { startFakeGithub, type FakeForge } from "../../scripts/ci/fake-forges";
import { runGithubPrStep, uniqueSlug, uploadRun } from "../helpers";

/**
 * The alert workflow end to end (issue 25's "done when"): a step on main opens ONE incident; the inbox
 * acknowledges it in bulk, its page accepts it; the next upload passes against the new level; a
 * Slack-format webhook and a GitHub commit status each reach their local stand-in once per event, after a
 * failed first attempt is retried; Settings' alert precision reads 1 valid / 0 invalid.
 */
const GITHUB_TOKEN = "ghs_e2e_incidents_0123456789abcdef";
const ENDPOINTS = ["GET /listings", "GET /listings/:id", "POST /orders"];
const sha = (digit: string) => digit.repeat(40);
const auth = { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

let chat: FakeChat;
let github: FakeForge;
test.beforeAll(async () => {
  chat = await startFakeChat();
  github = await startFakeGithub(GITHUB_TOKEN);
});
test.afterAll(async () => {
  await chat.close();
  await github.close();
});

/** A nightly of three endpoints at `factor` × their usual p95, with a small deterministic jitter. */
function nightly(factor: number, hour: number, commit: string) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "loadgen",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    commit,
    endpoints: ENDPOINTS.map((name, index) => {
      const p95 = (50 + 25 * index) * factor * (1 + 0.02 * Math.sin(hour * 2.3 + index));
      return { name, requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 3, p95, p99: p95 * 1.4 } };
    }),
  });
}

/** The messages the stand-in took (answered 2xx), and every call it got. */
const delivered = () => chat.requests.filter((request) => request.status >= 200 && request.status < 300);

async function listIncidents(request: APIRequestContext, slug: string, state = "active") {
  const response = await request.get(`/api/v1/projects/${slug}/incidents?state=${state}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as { number: number; state: string; regressions: unknown[] }[];
}

/** The PR step as GitHub Actions runs it, on one file; returns its exit code and output. */
async function prStep(baseURL: string, slug: string, body: string, head: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "benchtrack-incident-pr-"));
  const file = path.join(dir, "result.json");
  writeFileSync(file, body);
  const event = path.join(dir, "event.json");
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { sha: head }, base: { ref: "main" } } }));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    GITHUB_ACTIONS: "true",
    BENCHTRACK_URL: baseURL,
    BENCHTRACK_PROJECT: slug,
    BENCHTRACK_TOKEN: E2E_ADMIN_TOKEN,
    BENCHTRACK_FILES: file,
    BENCHTRACK_LABEL: "nightly",
    GITHUB_TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: "https://github.test",
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_JOB: "perf",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: event,
    GITHUB_BASE_REF: "main",
    GITHUB_HEAD_REF: "feature/faster",
    GITHUB_REF_NAME: "7/merge",
    GITHUB_SHA: sha("f"),
    GITHUB_WORKSPACE: dir,
  };
  const { code, output } = await runGithubPrStep(env, dir);
  return { code, output };
}

test("a step opens one incident, triaged in bulk and accepted; Slack and GitHub hear of it once each; precision reads 1 valid", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const slug = uniqueSlug("incident-flow");
  expect((await request.post("/api/v1/projects", { headers: auth, data: { slug } })).status()).toBe(201);
  const webhook = await request.put(`/api/v1/projects/${slug}/webhook`, { headers: auth, data: { url: chat.url, format: "slack" } });
  expect(webhook.status()).toBe(200);
  chat.secret = ((await webhook.json()) as { secret: string }).secret;
  // The receiver is down for the first message: the queue retries it.
  chat.failNext(1, 503);

  for (let hour = 0; hour < 12; hour++) await uploadRun(request, slug, nightly(1, hour, sha("a")), { branch: "main" });
  for (let hour = 12; hour < 19; hour++) await uploadRun(request, slug, nightly(1.3, hour, sha("b")), { branch: "main" });

  // Change-point detection runs as a job after the uploads: one incident, every endpoint in it.
  await expect(async () => expect(await listIncidents(request, slug)).toHaveLength(1)).toPass({ timeout: 60_000 });
  const [incident] = await listIncidents(request, slug);
  expect(incident).toMatchObject({ number: 1, state: "open" });
  expect(incident!.regressions.length).toBeGreaterThanOrEqual(3);

  // Slack heard of it once, after one failed attempt (the queue's first retry waits 10–20 s).
  await expect(() => expect(delivered()).toHaveLength(1)).toPass({ timeout: 90_000 });
  expect(chat.requests.map((call) => call.status)).toEqual([503, 200]);
  const opened = delivered()[0]!;
  expect(opened.signature).toEqual({ valid: true, reason: null });
  expect(JSON.stringify(opened.json)).toContain("Incident #1");
  expect((opened.json as { blocks: unknown[] }).blocks.length).toBeGreaterThan(0);

  // Bulk-acknowledge from the inbox (signed in as the admin), then accept on the incident's page.
  await page.goto(`/sign-in?next=${encodeURIComponent(`/projects/${slug}/incidents`)}`);
  await page.getByLabel("Token").fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}/incidents$`));
  await expect(page.getByTestId("incident-row")).toHaveCount(1);
  await page.getByRole("checkbox", { name: "Select incident #1" }).check();
  await page.getByTestId("bulk-triage").getByRole("button", { name: "Acknowledge" }).click();
  await page.getByTestId("triage-confirm").getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("incident-row").getByTestId("incident-state")).toHaveText("Investigating");

  await page.getByTestId("incident-row").getByTestId("incident-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Incident #1");
  await page.getByTestId("incident-state-actions").getByRole("button", { name: "Accept as the new normal" }).click();
  await page.getByTestId("triage-confirm").getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("incident-state").first()).toHaveText("Accepted");
  await expect(page.getByTestId("incident-event").nth(2)).toContainText("Investigating → Accepted by admin session");

  // The gate's baseline moved to the new level: the next run on main at it passes.
  const next = await uploadRun(request, slug, nightly(1.3, 19, sha("c")), { branch: "main" });
  expect((next as unknown as { outcome: string }).outcome).toBe("pass");

  // Slack heard of each change once (opened, acknowledged, accepted).
  await expect(() => expect(delivered()).toHaveLength(3)).toPass({ timeout: 30_000 });
  expect(delivered().every((call) => call.signature?.valid === true)).toBe(true);
  expect(JSON.stringify(delivered()[2]!.json)).toMatch(/Accepted/);

  // A pull request at the new level: the PR step sets ONE commit status on its head, after GitHub
  // failed the first call with a 502.
  github.fail("POST", /\/statuses\//, 502, { message: "Server Error" });
  const pr = await prStep(baseURL!, slug, nightly(1.3, 20, sha("d")), sha("d"));
  expect(pr.code, pr.output).toBe(0);
  const statusCalls = github.requests.filter((call) => call.method === "POST" && call.path.includes("/statuses/"));
  expect(statusCalls).toHaveLength(2);
  expect(github.statuses.get(sha("d"))).toEqual([expect.objectContaining({ state: "success" })]);

  // Settings: alert precision.
  await page.goto(`/projects/${slug}/settings`);
  await expect(page.getByTestId("alert-precision")).toContainText("1 valid / 0 invalid");
});
