import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, fixture, lookAt, uniqueSlug, uploadRun, expectNoSidewaysScroll } from "../helpers";

/**
 * One run on main is not a history. A k6 run on main, then one on a feature branch: the upload answers
 * inconclusive, and every place that shows it says so and why, in visible text (never only in a
 * tooltip), with the change it saw marked as not judged, never as "no change": the comparison page the
 * answer links to, that page's preview image, the branch run's page, and the PR comment.
 */
/** At 375 px the page never scrolls sideways, light or dark; screenshots to look at with E2E_SCREENSHOTS=1. */
async function checkWidths(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await lookAt(page, `${name}-${colorScheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await lookAt(page, `${name}-375-${colorScheme}`);
    await expectNoSidewaysScroll(page, `${name} (${colorScheme})`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Uploads a fixture as a run of the feature branch; the same upload replayed (Idempotency-Key) answers the PR comment in Markdown. */
async function uploadBranchRun(request: APIRequestContext, slug: string, file: string, query: Record<string, string> = {}) {
  const search = new URLSearchParams({ branch: "feature/listing-cache", started_at: "2026-11-22T10:11:00Z", ...query });
  const upload = (accept: string) =>
    request.post(`/api/v1/projects/${slug}/runs?${search}`, {
      data: fixture(file),
      headers: {
        Authorization: `Bearer ${E2E_ADMIN_TOKEN}`,
        "Content-Type": "application/octet-stream",
        "Idempotency-Key": `${slug}-branch`,
        Accept: accept,
      },
    });
  const created = await upload("application/json");
  expect(created.status()).toBe(201);
  const answer = await created.json();
  const replayed = await upload("text/markdown");
  expect(replayed.status()).toBe(200);
  return { answer, markdown: await replayed.text() };
}

/** The PR comment's text as a reviewer reads it (a screenshot with E2E_SCREENSHOTS=1). */
async function showMarkdown(page: Page, markdown: string, name: string, headline = "**INCONCLUSIVE**") {
  await page.emulateMedia({ colorScheme: "light" });
  await page.setContent(
    `<!doctype html><html><body style="margin:0;padding:16px;font:14px/1.5 ui-monospace,monospace;background:#fff;color:#0f172a">` +
      `<pre style="white-space:pre-wrap;word-break:break-word;margin:0" data-testid="markdown">${escapeHtml(markdown)}</pre></body></html>`,
  );
  await expect(page.getByTestId("markdown")).toContainText(headline);
  await page.setViewportSize({ width: 900, height: 600 });
  await lookAt(page, name);
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a +75% p95 against a single run on main: inconclusive for too little history, said on the comparison, its preview image, the run page and the PR comment", async ({
  page,
  request,
}) => {
  const slug = uniqueSlug("inconclusive");
  await uploadRun(request, slug, fixture("k6/baseline/round1/summary.json"), { branch: "main", started_at: "2026-11-22T09:00:00Z" });
  // The slower variant of the service, 10 VUs as on main: its p95 is 75% higher. It also fails its own
  // k6 thresholds; this pipeline gates on regressions only, so that alone does not fail it.
  const { answer, markdown } = await uploadBranchRun(request, slug, "k6/managedasync/round1/summary.json", { fail_on: "regression" });
  expect(answer.outcome).toBe("inconclusive");
  expect(answer.inconclusive.kind).toBe("too-little-history");
  expect(answer.reasons[0]).toMatch(/^too little history: 1 vs 1, judged against the noise band of recent history: insufficient data: need 5 history points/);
  expect(answer.comparison.url).toContain("test=student");
  expect(markdown.split("\n")[0]).toBe("### ⚠️ Benchtrack: **INCONCLUSIVE**: too little history");
  expect(markdown.split("\n")[2]).toMatch(/^\*\*Why:\*\* too little history: 1 vs 1, /);
  expect(markdown).toContain("Largest changes seen, **not judged**: All endpoints p95 +75.0% (21.7 ms → 38.1 ms)");

  // The comparison the answer links to: the verdict and why, in words; the gate metric named and why.
  await page.goto(answer.comparison.url);
  await expect(page.getByTestId("compare-verdict")).toContainText("inconclusive");
  await expect(page.getByTestId("compare-verdict")).toContainText("No endpoint could be judged.");
  const why = page.getByTestId("compare-inconclusive-reason");
  await expect(why).toBeVisible();
  await expect(why).toContainText(/^Why: too little history: 1 vs 1, judged against the noise band of recent history: insufficient data: need 5 history points/);
  const gate = page.getByTestId("compare-gate-metric");
  await expect(gate).toBeVisible();
  await expect(gate).toHaveText(/^gate: p95 \(auto: every run has ≥ 1,070 requests\)$/);
  const gateRow = page.locator('[data-testid="compare-row"][data-gate="true"]');
  await expect(gateRow).toContainText("+75.0%");
  await expect(gateRow).toContainText("not judged");
  await expect(gateRow).toContainText("inconclusive");
  await expect(page.getByTestId("compare-row-reason")).toBeVisible();
  await expect(page.getByTestId("compare-row-reason")).toContainText(/^Not judged: 1 vs 1, judged against the noise band/);
  await expect(page.getByTestId("compare-view")).not.toContainText(/No change beyond the noise|No metric regressed or improved/);
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  const image = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(image).toContain("/compare/og?");
  await checkWidths(page, "inconclusive-compare");

  // Its preview image (its words are checked where they are shaped: server/domain/report/comparison-image.test.ts).
  const og = await request.get(image!);
  expect(og.status()).toBe(200);
  expect(og.headers()["content-type"]).toBe("image/png");
  if (WRITES_SCREENSHOTS) {
    await page.setViewportSize({ width: 1200, height: 630 });
    await page.goto(image!);
    await lookAt(page, "inconclusive-og", { viewportOnly: true });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  // The branch run's page: its CI gate, the outcome kept at upload, and why.
  await page.goto(answer.url);
  const gateSection = page.getByTestId("run-gate");
  await expect(gateSection.getByTestId("outcome-badge")).toHaveText("? INCONCLUSIVE");
  await expect(gateSection.getByTestId("gate-reasons")).toBeVisible();
  await expect(gateSection.getByTestId("gate-reasons")).toContainText(/^too little history: 1 vs 1, .*need 5 history points/);
  await expect(gateSection.getByTestId("gate-unjudged")).toContainText("Largest changes seen, not judged: All endpoints p95 +75.0% (21.7 ms → 38.1 ms)");
  // Judged now with the project's fail_on (which counts k6's thresholds), it fails: said beside, not instead.
  await expect(gateSection.getByTestId("gate-now")).toContainText("Now: ✗ FAIL");
  await checkWidths(page, "inconclusive-run");

  await showMarkdown(page, markdown, "inconclusive-pr-comment");

  // The comparison's own Markdown ("Copy Markdown", the compare API): inconclusive, why, the change not judged.
  const search = new URL(answer.comparison.url).search;
  const compared = await request.get(`/api/v1/projects/${slug}/compare${search}`, { headers: { Accept: "text/markdown" } });
  expect(compared.status()).toBe(200);
  const compareMarkdown = await compared.text();
  expect(compareMarkdown.split("\n")[0]).toBe("### 🟡 **Inconclusive**: no endpoint could be judged");
  expect(compareMarkdown.split("\n")[2]).toMatch(/^\*\*Why:\*\* too little history: 1 vs 1, .*need 5 history points/);
  expect(compareMarkdown).toMatch(/^\| All endpoints \| p95 \(gate\) \| 21\.7 ms \| 38\.1 ms \| \+75\.0% \| not judged \|$/m);
  expect(compareMarkdown).not.toMatch(/changed beyond the noise/);
  await showMarkdown(page, compareMarkdown, "inconclusive-compare-markdown", "Inconclusive");
});

test("k6's NDJSON output on a branch against k6's summary on main: per-endpoint numbers on one side only, inconclusive and why", async ({ page, request }) => {
  const slug = uniqueSlug("inconclusive-ndjson");
  // The same short k6 test (5 VUs), its end-of-test summary on main: one aggregate, no endpoints.
  await uploadRun(request, slug, fixture("k6/baseline/short-ndjson/summary.json"), { branch: "main", started_at: "2026-11-22T09:00:00Z" });
  const { answer, markdown } = await uploadBranchRun(request, slug, "k6/baseline/short-ndjson/points.ndjson");
  expect(answer.format).toBe("k6-ndjson");
  expect(answer.outcome).toBe("inconclusive");
  expect(answer.comparison.url).toContain("test=student");
  const reason: string = answer.reasons[0];
  expect(reason.length).toBeGreaterThan(10);

  await page.goto(answer.comparison.url);
  await expect(page.getByTestId("compare-verdict")).toContainText("inconclusive");
  await expect(page.getByTestId("compare-inconclusive-reason")).toBeVisible();
  await expect(page.getByTestId("compare-inconclusive-reason")).toContainText(/^Why: \S/);
  // Endpoints only the branch measured are not judged; the aggregate, measured on both sides, is gated.
  await expect(page.getByTestId("compare-gate-metric")).toHaveCount(1);
  await expect(page.getByTestId("compare-row-reason")).toHaveCount(1);
  await expect(page.getByTestId("compare-inconclusive-reason")).toContainText(/^Why: too little history/);
  await checkWidths(page, "inconclusive-ndjson-compare");

  await page.goto(answer.url);
  await expect(page.getByTestId("outcome-badge")).toHaveText("? INCONCLUSIVE");
  await expect(page.getByTestId("gate-reasons")).toContainText(reason);
  // Both sides are one test (its summary and its NDJSON): the gated aggregate p90 did not move, so there
  // is no change to show as "seen, not judged".
  await expect(page.getByTestId("gate-unjudged")).toHaveCount(0);
  expect(markdown).not.toContain("Largest changes seen");
  await checkWidths(page, "inconclusive-ndjson-run");
  await showMarkdown(page, markdown, "inconclusive-ndjson-pr-comment");
});
