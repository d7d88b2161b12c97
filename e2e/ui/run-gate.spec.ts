import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { WRITES_SCREENSHOTS, copyWith, fixture, ghzRound, lookAt, uniqueSlug, uploadFiles, uploadRun } from "../helpers";

/** Screenshots to look at (E2E_SCREENSHOTS=1), light and dark, 1440 and 375 px wide. */
async function screenshots(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await lookAt(page, `${name}-${colorScheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await lookAt(page, `${name}-375-${colorScheme}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * Three ghz baseline rounds on main, then three slower rounds (ManagedAsync) of one commit on a branch,
 * judged together (6 runs in all): the gate fails. Answers the last round's upload.
 */
async function uploadSlowedBranch(request: APIRequestContext, slug: string) {
  const hour = (index: number) => new Date(Date.UTC(2026, 0, 1, index)).toISOString();
  for (const round of [1, 2, 3] as const) {
    await uploadFiles(request, slug, ghzRound("baseline", round), { label: "nightly", branch: "main", round: String(round), started_at: hour(round) });
  }
  let slow = { url: "" };
  for (const round of [1, 2, 3] as const) {
    slow = await uploadFiles(request, slug, ghzRound("managedasync", round), {
      label: "nightly",
      branch: "feature/async",
      commit: "a5c0ffee",
      round: String(round),
      started_at: hour(4 + round),
    });
  }
  return slow;
}

test("a run page opens with its CI gate: the baseline, what regressed, and a link to the comparison", async ({ page, request }) => {
  const slow = await uploadSlowedBranch(request, uniqueSlug("gate"));

  await page.goto(slow.url);
  const gate = page.getByTestId("run-gate");
  await expect(gate.getByTestId("outcome-badge")).toHaveText("✗ FAIL");
  await expect(gate).toContainText("Against the 3 ghz runs labelled nightly on main; judged with 2 earlier rounds of commit a5c0ffe");
  await expect(gate.getByTestId("gate-reasons")).toContainText("regressed against the baseline");
  await expect(gate.getByTestId("gate-change").filter({ hasText: "SearchListings" }).first()).toContainText(/\+\d+(\.\d)?%/);
  await screenshots(page, "run-gate-fail");

  await gate.getByTestId("gate-compare-link").click();
  await expect(page).toHaveURL(/\/compare\?base=[^&]+,[^&]+,[^&]+&head=[^&]+,[^&]+,[^&]+&test=student/);

  // A first round: nothing to compare with, and the gate says so rather than PASS.
  const first = await uploadFiles(request, uniqueSlug("gate"), ghzRound("baseline", 1), { label: "nightly", branch: "main" });
  await page.goto(first.url);
  await expect(page.getByTestId("outcome-badge")).toHaveText("? INCONCLUSIVE");
  await expect(page.getByTestId("gate-reasons")).toContainText("too little history: no earlier ghz runs labelled nightly on main");
  await expect(page.getByTestId("run-gate")).toContainText("Nothing to compare with yet: no earlier ghz runs labelled nightly on main");
  await screenshots(page, "run-gate-inconclusive");
});

test("a reviewer on a phone sees the outcome, its reason and the largest changes first, and copies the PR Markdown", async ({ browser, request }) => {
  const slow = await uploadSlowedBranch(request, uniqueSlug("lead"));

  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(slow.url);
  const lead = page.getByTestId("run-lead");
  await expect(lead.getByTestId("lead-outcome")).toHaveText("✗ FAIL");
  await expect(lead.getByTestId("lead-reason")).toContainText("regressed against the baseline");
  await expect(lead.getByTestId("lead-changes")).toContainText(/\+\d+(\.\d)?%/);
  // All of it in the first screen of a phone.
  const box = (await lead.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(812);

  // The PR comment's Markdown: the outcome first, and a link back to this very page.
  const markdown = await copyWith(lead.getByTestId("copy-markdown"));
  expect(markdown).toContain("FAIL");
  expect(markdown).toContain(`[open the run](${slow.url})`);
  expect(await copyWith(lead.getByTestId("copy-link"))).toBe(slow.url);
  await context.close();
});

test("a k6 run whose own thresholds failed says so first", async ({ page, request }) => {
  const run = await uploadRun(request, uniqueSlug("thresholds"), fixture("k6/managedasync/round1/summary.json"));
  await page.goto(run.url);
  const gate = page.getByTestId("run-gate");
  await expect(gate.getByTestId("outcome-badge")).toHaveText("✗ FAIL");
  await expect(gate.getByTestId("gate-reasons").locator("li").first()).toHaveText(
    "2 of 4 k6 thresholds failed: http_req_duration p(95)<35, http_req_duration p(99)<60",
  );
  await expect(gate.getByTestId("gate-thresholds")).toContainText("p(95)<35 on http_req_duration");
  await screenshots(page, "run-gate-thresholds");
});
