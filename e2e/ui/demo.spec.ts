import { expect, test } from "@playwright/test";

// The e2e server starts after `npm run seed:demo` (playwright.config.ts): the demo a newcomer opens
// must show main's slowdown in the regressions inbox and on the trend chart, not an empty inbox.
for (const slug of ["listings-demo", "listings-grpc-demo"]) {
  test(`the demo's slowdown on main is in ${slug}'s inbox and marked on its trend`, async ({ page }) => {
    await page.goto(`/projects/${slug}/regressions`);
    const rows = page.getByTestId("regressions").getByTestId("regression-row");
    await expect(rows.first()).toBeVisible();
    await expect(rows.filter({ hasText: /p9[59]/ }).first()).toContainText(/\+\d+(\.\d)?%/);
    await page.screenshot({ path: `e2e/screenshots/demo-${slug}-regressions.png`, fullPage: true });

    await rows.filter({ hasText: /p9[59]/ }).first().getByRole("link", { name: "trend" }).click();
    await expect(page.getByTestId("latency-chart").locator(".trend-marker").first()).toBeAttached();
    await page.screenshot({ path: `e2e/screenshots/demo-${slug}-trend.png`, fullPage: true });
  });
}
