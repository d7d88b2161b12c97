import { expect, test } from "@playwright/test";
import { uniqueSlug, uploadRun } from "../helpers";

// The compare issue's table: five rounds of baseline vs five of ManagedAsync (seconds).
const ROUNDS = {
  baseline: { p50: [1.12, 1.15, 1.13, 1.14, 1.14], p90: [2.2, 2.25, 2.21, 2.24, 2.215], p95: [2.31, 2.56, 2.45, 2.62, 2.476], completion: [6.5, 6.7, 6.6, 6.6, 6.6] },
  ManagedAsync: { p50: [1.75, 1.78, 1.77, 1.76, 1.785], p90: [3.95, 3.99, 3.96, 3.98, 3.965], p95: [4.09, 4.63, 4.35, 4.64, 4.154], completion: [9.1, 9.3, 9.2, 9.2, 9.2] },
};

test("a compare link opened in a fresh browser shows the verdict and copies the PR Markdown", async ({ browser, request }) => {
  const slug = uniqueSlug("compare");
  for (const [label, values] of Object.entries(ROUNDS)) {
    for (let round = 0; round < 5; round++) {
      await uploadRun(
        request,
        slug,
        JSON.stringify({
          schema: "benchtrack/v1",
          tool: "custom-go-loadtester",
          label,
          round: round + 1,
          startedAt: `2026-11-${label === "baseline" ? 10 : 11}T0${round}:00:00Z`,
          summary: { latency: { unit: "s", p50: values.p50[round], p90: values.p90[round], p95: values.p95[round] } },
          metrics: { completion: { value: values.completion[round], unit: "s", better: "lower" } },
        }),
      );
    }
  }

  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`/projects/${slug}/compare?base=label:baseline&head=label:ManagedAsync`);

    await expect(page.getByTestId("compare-verdict")).toContainText("regressed");
    const p95 = page.getByTestId("compare-row").filter({ hasText: "p95" });
    await expect(p95).toContainText("2.48 s (n=5)");
    await expect(p95).toContainText("4.37 s (n=5)");
    await expect(p95).toContainText("+76.1%");
    await expect(p95).toContainText("< 0.001");
    await expect(page.getByTestId("rounds-mean-base")).toContainText("2.48 s");
    await expect(page.getByTestId("rounds-mean-head")).toContainText("9.2 s");
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/compare\/og\?base=label%3Abaseline/);

    await page.getByTestId("copy-markdown").click();
    await expect(page.getByTestId("copy-markdown")).toContainText("Copied");
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown.split("\n")[0]).toBe("### 🔴 **Regressed**: head is worse than base");
    expect(markdown).toContain("| All endpoints | p95 | 2.48 s | 4.37 s | +76.1%");

    await page.screenshot({ path: `e2e/screenshots/compare-${colorScheme}.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: `e2e/screenshots/compare-${colorScheme}-375.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  }

  const og = await request.get(`/projects/${slug}/compare/og?base=label:baseline&head=label:ManagedAsync`);
  expect(og.status()).toBe(200);
  expect(og.headers()["content-type"]).toBe("image/png");
});
