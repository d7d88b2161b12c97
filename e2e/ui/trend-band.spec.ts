import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { lookAt, expectNoSidewaysScroll } from "../helpers";

/**
 * The trend page's noise band on the demo (issue 23): gRPC GetAllCategories is a low latency (p95 6–10
 * ms) whose rounds differ by a quarter of its level, with main's slowdown as a step, and five rounds of
 * feature/managed-async drawn over it. The band never goes below 0 ms (nor the axis), is not drawn across
 * the step, and the rounds of one commit are points of their own.
 */
const PAGE = "/projects/listings-grpc-demo/endpoints/GetAllCategories?overlay=branch%3Afeature%2Fmanaged-async";

async function yTicks(page: Page): Promise<number[]> {
  const chart = page.getByTestId("latency-chart");
  await expect(chart.locator(".trend-band path").first()).toBeAttached();
  const texts = await chart.locator(".recharts-yAxis-tick-labels text, .recharts-cartesian-axis-tick-value").allTextContents();
  return texts.filter((text) => /^[−-]?\d+(\.\d+)?$/.test(text.trim())).map((text) => Number(text.trim().replace("−", "-")));
}

test("main's band on a low, noisy latency stays at 0 ms or above, and the axis never goes negative", async ({ page }) => {
  await page.goto(PAGE);
  const ticks = await yTicks(page);
  expect(ticks.length).toBeGreaterThan(1);
  expect(Math.min(...ticks)).toBe(0);
  await expect(page.getByTestId("trend-overlay")).toContainText("never below 0 ms");
  // Two stretches of band: before the step, and after it once 5 runs of the new level are known.
  await expect.poll(() => page.locator('[data-testid="latency-chart"] .trend-band path.recharts-area-area').getAttribute("d")).toMatch(/M.*M/);
  // The branch's five rounds of one commit are five points, side by side.
  await expect(page.getByTestId("trend-rounds-note")).toBeVisible();
  await expect(page.getByTestId("trend-overlay")).toContainText("feature/managed-async p95 (5 runs)");
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await expectNoSidewaysScroll(page);
      await lookAt(page, `trend-band-step-${colorScheme}-${viewport.width}`);
    }
  }
});
