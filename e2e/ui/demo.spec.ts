import { expect, test } from "@playwright/test";
import { lookAt } from "../helpers";

// The e2e server starts after `npm run seed:demo` (playwright.config.ts): the demo a newcomer opens
// must show main's slowdown in the incidents inbox and on the trend chart, not an empty inbox.
for (const slug of ["listings-demo", "listings-grpc-demo"]) {
  test(`the demo's slowdown on main is in ${slug}'s inbox and marked on its trend`, async ({ page }) => {
    await page.goto(`/projects/${slug}/incidents`);
    // One step, one incident: every series that stepped at that run is a regression of one row.
    const incidents = page.getByTestId("incident-row");
    await expect(incidents.first()).toBeVisible();
    await expect(incidents.first().getByTestId("incident-state")).toHaveText("Open");
    await expect(incidents.first().locator('[data-column="delta"]')).toHaveText(/^\+\d+(\.\d)?%$/);
    await incidents.first().getByRole("button", { name: /Show its \d+ regressions/ }).click();
    const rows = incidents.first().getByTestId("incident-regression");
    expect(await rows.count()).toBeGreaterThan(1);
    await expect(rows.filter({ hasText: /p9[59]/ }).first()).toContainText(/\+\d+(\.\d)?%/);
    await expect(page.getByTestId("incident-regression").filter({ hasText: "metrics.iterations" })).toHaveCount(0);
    await lookAt(page, `demo-${slug}-regressions`);

    await rows.filter({ hasText: /p9[59]/ }).first().getByRole("link", { name: /^Trend:/ }).click();
    // The trend page's first view after the seed reads the whole series (its history cache is cold):
    // with two spec files in flight it has taken longer than the 5 s default to arrive.
    await page.waitForURL(/\/endpoints\//, { timeout: 20_000 });
    await expect(page.getByTestId("latency-chart").locator(".trend-marker").first()).toBeAttached({ timeout: 20_000 });
    await lookAt(page, `demo-${slug}-trend`);
  });
}

test("the README's compare example on the demo gives no pooled verdict over two tools, and one per tool", async ({ page }) => {
  await page.goto("/projects/listings-demo/compare?base=label:baseline&head=label:ManagedAsync");
  const banner = page.getByTestId("compare-not-comparable");
  await expect(banner).toContainText("No verdict: runs of different tools are different series.");
  await expect(page.getByTestId("compare-verdict")).toContainText("Not comparable");
  await lookAt(page, "demo-compare-not-comparable");

  await banner.getByTestId("compare-per-tool").filter({ hasText: "k6" }).click();
  await expect(page).toHaveURL(/[?&]tool=k6(&|$)/);
  await expect(page.getByTestId("compare-verdict")).toContainText("Head is worse than base.");
  await expect(page.getByTestId("compare-not-comparable")).toHaveCount(0);
  // Sides named as people name runs, not as selectors or ids.
  await expect(page.getByTestId("compare-sides")).toContainText("head ManagedAsync #1–5 on feature/managed-async");
  await lookAt(page, "demo-compare-k6");
});

test("the compare picker offers one tool and puts the older selection on the base side", async ({ page }) => {
  await page.goto("/projects/listings-demo/compare");
  const base = await page.locator("select[name=base]").inputValue();
  const head = await page.locator("select[name=head]").inputValue();
  expect(base).not.toBe(head);
  await expect(page.locator("select[name=tool] option")).toHaveText([/^k6 \(\d+ runs\)$/, /^locust \(\d+ runs\)$/]);
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/[?&]tool=k6(&|$)/);
  await expect(page.getByTestId("compare-verdict")).toBeVisible();
  await expect(page.getByTestId("compare-not-comparable")).toHaveCount(0);
  await lookAt(page, "demo-compare-picker-default");
});

test("the demo's aggregate trend draws one tool's series by default, and mixes them only when asked", async ({ page }) => {
  await page.goto("/projects/listings-demo/endpoints/_all");
  const note = page.getByTestId("trend-tool-note");
  await expect(note).toContainText(/Showing (k6|locust) runs only, the tool of the latest run/);
  const tool = (await note.textContent())!.includes("k6") ? "k6" : "locust";
  await expect(page.locator("#trend-tool")).toHaveValue(tool);
  await lookAt(page, "demo-aggregate-trend-one-tool");
  await page.locator("#trend-tool").selectOption("all");
  await expect(page).toHaveURL(/[?&]tool=all(&|$)/);
  await expect(page.getByTestId("trend-tool-note")).toHaveCount(0);
});
