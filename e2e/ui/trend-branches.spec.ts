import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { expectNoSidewaysScroll, lookAt, nightlyGetListing, uniqueSlug, uploadRun } from "../helpers";

/**
 * Branches on the trend page (docs/trends.md, "Branches"): a project with main and a pull request's
 * branch draws main alone by default, with main's noise band and the gate's threshold; choosing both
 * draws one labelled line per branch; a PR run's page links to its own branch's trend.
 */
const slug = uniqueSlug("trend-branches");
// main: 8 nightly runs near 20 ms; feature/cache (PR #12): 4 runs near 26 ms among them.
const MAIN_P95 = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3];
const BRANCH_P95 = [26.2, 25.8, 26.5, 26.1];
const branchRunIds: string[] = [];

async function linePathCount(page: Page, dataKey: string): Promise<number> {
  return page.locator(`[data-testid="latency-chart"] .trend-line-${dataKey} path.recharts-line-curve`).count();
}

test.beforeAll(async ({ request }) => {
  for (const [i, p95] of MAIN_P95.entries())
    await uploadRun(request, slug, nightlyGetListing(i * 12, p95, "main", null, 100 - p95));
  for (const [i, p95] of BRANCH_P95.entries()) {
    const answer = await uploadRun(
      request,
      slug,
      nightlyGetListing((4 + i) * 12 + 6, p95, "feature/cache", 12, 100 - p95),
    );
    branchRunIds.push(answer.id);
  }
});

test("main and a PR branch: main alone by default, with its band and the gate's threshold", async ({ page }) => {
  await page.goto(`/projects/${slug}/endpoints/GetListing`);
  await expect(page.getByTestId("trend-branch-note")).toContainText("Showing main, the default branch, only");
  await expect(page.getByTestId("trend-count")).toHaveText("Showing all 8 runs");
  await expect(page.getByTestId("trend-branch-legend")).toHaveCount(0);
  // main's band, and the gate's threshold: mean p95 of main's 8 runs (20.05 ms) + 5 % = 21.05 ms.
  await expect(page.locator('[data-testid="latency-chart"] .trend-band path.recharts-area-area')).toHaveCount(1);
  const threshold = page.locator('[data-testid="latency-chart"] .trend-threshold');
  await expect(threshold).toHaveCount(1);
  await expect(page.getByTestId("latency-chart").getByText("gate: p95 +5% = 21.1 ms")).toBeVisible();
  await expect(page.getByTestId("trend-gate-threshold")).toContainText(
    "(8 runs, 20.1 ms) + the project's minimum effect of 5% = 21.1 ms",
  );
  await expect(page.getByTestId("trend-band-legend")).toContainText("main's p95 noise band");
});

test("choosing both branches draws two labelled lines, one per branch, and the URL says so", async ({ page }) => {
  await page.goto(`/projects/${slug}/endpoints/GetListing`);
  await page.getByLabel("Add a line for").selectOption("feature/cache");
  await expect(page).toHaveURL(/[?&]branch=main&branch=feature%2Fcache(&|$)/);
  await expect(page.getByTestId("trend-count")).toHaveText("Showing all 12 runs");
  await expect(page.getByTestId("trend-branch-note")).toContainText("One line per branch: main, feature/cache.");
  await expect(page.getByTestId("trend-branch-legend-item")).toHaveText([
    "main (8 runs drawn)",
    "feature/cache (4 runs drawn)",
  ]);
  // p95 per branch by default: two lines, no mixed one; no band or threshold (they belong to main alone).
  await expect.poll(() => linePathCount(page, "b0_p95Ms")).toBe(1);
  await expect.poll(() => linePathCount(page, "b1_p95Ms")).toBe(1);
  await expect.poll(() => linePathCount(page, "p95Ms")).toBe(0);
  await expect(page.locator('[data-testid="latency-chart"] .trend-threshold')).toHaveCount(0);
  // Each line keeps its own runs: the PR's line stays at its own level.
  const tooltip = page.locator('[data-testid="latency-chart"] .recharts-tooltip-wrapper');
  const box = await page.getByTestId("latency-chart").locator(".recharts-surface").boundingBox();
  if (!box) throw new Error("chart not laid out");
  await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
  await expect(tooltip).toContainText("main p95");
  await expect(tooltip).toContainText("feature/cache p95");

  for (const [colorScheme, width] of [
    ["light", 1440],
    ["dark", 1440],
    ["light", 375],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectNoSidewaysScroll(page);
    await lookAt(page, `trend-branches-${colorScheme}-${width}`);
  }

  // A chip takes a branch off again.
  await page.getByTestId("trend-branch-remove").filter({ hasText: "feature/cache" }).click();
  await expect(page).toHaveURL(/[?&]branch=main$/);
  await expect(page.getByTestId("trend-count")).toHaveText("Showing all 8 runs");
});

test("from a PR run's page, an endpoint's trend shows that run's branch", async ({ page }) => {
  await page.goto(`/projects/${slug}/runs/${branchRunIds.at(-1)}`);
  await page.getByRole("link", { name: "GetListing", exact: true }).first().click();
  await expect(page).toHaveURL(/\/endpoints\/GetListing\?branch=feature%2Fcache$/);
  await expect(page.getByTestId("trend-branch-note")).toContainText("Showing feature/cache only");
  await expect(page.getByTestId("trend-count")).toHaveText("Showing all 4 runs");
  // One step to see it beside main.
  await page.getByRole("link", { name: "feature/cache and main" }).click();
  await expect(page).toHaveURL(/[?&]branch=feature%2Fcache&branch=main$/);
  await expect(page.getByTestId("trend-branch-legend-item")).toHaveText([
    "feature/cache (4 runs drawn)",
    "main (8 runs drawn)",
  ]);
});
