import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { startFakeGithub } from "../../scripts/ci/fake-forges";
import type { FakeForge } from "../../scripts/ci/fake-forges";
import { SCREENSHOT_DIR, WRITES_SCREENSHOTS, ghzRound, lookAt, runGithubPrStep, uniqueSlug, uploadFiles } from "../helpers";

/**
 * The pull-request review loop end to end: main's rounds at the merge-base, main moving on, then a PR's
 * pushes through the GitHub Actions step (scripts/ci/benchtrack-pr.mjs, run as the action runs it)
 * against this server and a local stand-in for GitHub's comments and statuses API (the head commit's
 * status is what a required check reads); the comment's link opened in a fresh browser.
 */
const GITHUB_TOKEN = "ghs_e2e_token_0123456789abcdef";
const PR = 12;
const sha = (digit: string) => digit.repeat(40);

let github: FakeForge;
test.beforeAll(async () => {
  github = await startFakeGithub(GITHUB_TOKEN);
});
test.afterAll(async () => {
  await github.close();
});

/** One push of the PR: writes the round's five ghz reports and runs the action's script on them. */
async function push(baseURL: string, slug: string, work: string, round: 1 | 2, head: string) {
  const dir = mkdtempSync(path.join(work, `push-${round}-`));
  const files = Object.entries(ghzRound("managedasync", round)).map(([name, bytes]) => {
    writeFileSync(path.join(dir, name), bytes);
    return path.join(dir, name);
  });
  const event = path.join(dir, "event.json");
  writeFileSync(event, JSON.stringify({ pull_request: { number: PR, head: { sha: head }, base: { ref: "main" } } }));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    GITHUB_ACTIONS: "true",
    BENCHTRACK_URL: baseURL,
    BENCHTRACK_PROJECT: slug,
    BENCHTRACK_TOKEN: E2E_ADMIN_TOKEN,
    BENCHTRACK_FILES: files.join("\n"),
    BENCHTRACK_LABEL: "nightly",
    // What `git merge-base origin/main <head>` gives in the workflow (no repository here).
    BENCHTRACK_BASE_COMMIT: sha("a"),
    GITHUB_TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: "https://github.test",
    GITHUB_REPOSITORY: "acme/listings",
    GITHUB_RUN_ID: String(9000 + round),
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_JOB: "perf",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: event,
    GITHUB_BASE_REF: "main",
    GITHUB_HEAD_REF: "feature/async",
    GITHUB_REF_NAME: `${PR}/merge`,
    GITHUB_SHA: sha("f"),
    GITHUB_WORKSPACE: dir,
  };
  const { code, output } = await runGithubPrStep(env, dir);
  expect(output).not.toContain(E2E_ADMIN_TOKEN);
  expect(output).not.toContain(GITHUB_TOKEN);
  return { code, output };
}

test("a PR judged at its merge-base: one living comment, updated by the next push, whose link shows what changed and the distributions", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const slug = uniqueSlug("pr-flow");
  const work = mkdtempSync(path.join(os.tmpdir(), "benchtrack-pr-flow-"));
  const hour = (index: number) => new Date(Date.UTC(2026, 0, 1, index)).toISOString();
  // Main's nightly the day before (9…) and at the merge-base a…: three rounds each, so that the PR's
  // first round is judged (the gate needs 6 runs in all: compare-runs.ts MIN_RUNS_IN_ALL). Then main
  // moves on to b… and gets slower itself.
  for (const round of [1, 2, 3] as const) {
    await uploadFiles(request, slug, ghzRound("baseline", round), {
      label: "nightly",
      branch: "main",
      commit: sha("9"),
      round: String(round),
      started_at: hour(round - 4),
    });
  }
  for (const round of [1, 2, 3] as const) {
    await uploadFiles(request, slug, ghzRound("baseline", round), {
      label: "nightly",
      branch: "main",
      commit: sha("a"),
      round: String(round),
      started_at: hour(round),
    });
  }
  for (const round of [1, 2, 3] as const) {
    await uploadFiles(request, slug, ghzRound("managedasync", round), {
      label: "nightly",
      branch: "main",
      commit: sha("b"),
      round: String(round),
      started_at: hour(10 + round),
    });
  }

  // The PR's first push: slower than where it branched, though no slower than main is now.
  const first = await push(baseURL!, slug, work, 1, sha("c"));
  expect(first.code, first.output).toBe(1); // the verdict fails the job, after commenting
  const thread = () => github.threads.get(PR) ?? [];
  expect(thread()).toHaveLength(1);
  const comment = thread()[0]!.body;
  expect(comment).toContain(`<!-- benchtrack:${slug}:`);
  expect(comment.split("\n").find((line) => line.trim() !== "" && !line.startsWith("<!--"))).toMatch(/FAIL/);
  expect(comment).toContain("at and before the merge-base aaaaaaa");
  // One final status on the PR's head (not GitHub's merge commit), failing, linking the run's page the step printed.
  const runPage = (output: string) => / run (http:\/\/\S+\/runs\/\w+)/.exec(output)?.[1];
  expect(runPage(first.output)).toBeTruthy();
  expect(github.statuses.get(sha("c"))).toEqual([
    {
      state: "failure",
      context: expect.stringMatching(new RegExp(`^benchtrack/${slug}/ghz:nightly$`)),
      description: expect.stringMatching(/^fail: /),
      targetUrl: runPage(first.output),
      pipelineId: null,
    },
  ]);
  expect(github.statuses.has(sha("f"))).toBe(false);

  // The second push updates that comment: one comment, the first result folded into its history.
  const second = await push(baseURL!, slug, work, 2, sha("d"));
  expect(second.code, second.output).toBe(1);
  expect(thread()).toHaveLength(1);
  const updated = thread()[0]!.body;
  expect(updated).not.toEqual(comment);
  expect(updated).toContain("<details>");
  expect(updated).toContain("at and before the merge-base aaaaaaa");
  expect(github.statuses.get(sha("d"))).toEqual([
    expect.objectContaining({ state: "failure", context: `benchtrack/${slug}/ghz:nightly`, targetUrl: runPage(second.output) }),
  ]);

  // A reviewer opens the comparison link in a fresh browser: base and head, and what changed besides the code.
  const link = /\[compare\]\((http[^)\s]+)\)/.exec(updated)?.[1];
  expect(link, updated).toBeTruthy();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link!);
  await expect(page.getByTestId("compare-environment")).toBeVisible();
  await expect(page.getByTestId("compare-commits")).toContainText("aaaaaaa");
  // ghz reports carry histograms: base and head latency distributions, pooled across rounds, and their test.
  await expect(page.getByTestId("distribution-overlay")).toBeVisible();
  await expect(page.getByTestId("distribution-test")).toContainText(/D = \d/);
  // The base-vs-head chart has drawn its bars (a chart that renders empty is a bug).
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  if (WRITES_SCREENSHOTS) {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: 1440, height: 900 });
      await lookAt(page, `pr-flow-compare-${colorScheme}`);
    }
    writeFileSync(`${SCREENSHOT_DIR}/pr-flow-comment.md`, updated);
  }
  await context.close();
});

test("deploy and change markers posted by a pipeline show on the trend charts", async ({ page, request }) => {
  const slug = uniqueSlug("markers");
  const hour = (index: number) => new Date(Date.UTC(2026, 0, 1, index)).toISOString();
  for (const [index, variant] of (["baseline", "baseline", "managedasync", "managedasync"] as const).entries()) {
    const round = ((index % 2) + 1) as 1 | 2;
    await uploadFiles(request, slug, ghzRound(variant, round), { label: "nightly", branch: "main", started_at: hour(index * 2) });
  }
  const post = (body: object) =>
    request.post(`/api/v1/projects/${slug}/annotations`, {
      data: body,
      headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
    });
  expect((await post({ kind: "deploy", text: "v1.4 rolled out", at: hour(1) })).status()).toBe(201);
  expect((await post({ kind: "change", text: "pool 20 → 10", at: hour(3) })).status()).toBe(201);

  await page.goto(`/projects/${slug}/endpoints/SearchListings`);
  const legend = page.getByTestId("trend-marker-legend").first();
  await expect(legend).toContainText("v1.4 rolled out");
  await expect(legend).toContainText("pool 20 → 10");
  if (WRITES_SCREENSHOTS) {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await lookAt(page, `trend-markers-${colorScheme}`);
    }
  }
});
