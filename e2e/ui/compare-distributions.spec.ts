import { expect, test } from "@playwright/test";
import { fixture, ghzRound, lookAt, uniqueSlug, uploadFiles, uploadRun, expectNoSidewaysScroll } from "../helpers";

// ghz JSON with complete details[] is per-request: each run carries HDR histograms (aggregate and per
// method), so three rounds a side pool exactly and the compare page overlays the two distributions.
test("the compare page overlays base and head latency distributions pooled across rounds, with a KS test", async ({ browser, request }) => {
  const slug = uniqueSlug("compare-dist");
  let day = 0;
  for (const variant of ["baseline", "managedasync"] as const) {
    for (const round of [1, 2, 3] as const) {
      await uploadFiles(request, slug, ghzRound(variant, round), {
        label: variant === "baseline" ? "baseline" : "ManagedAsync",
        round: String(round),
        started_at: new Date(Date.UTC(2026, 10, 1 + day++, 9, 0)).toISOString(),
      });
    }
  }

  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(`/projects/${slug}/compare?base=label:baseline&head=label:ManagedAsync`);
    const overlay = page.getByTestId("distribution-overlay");
    await expect(overlay).toContainText("Latency distribution: All endpoints");
    await expect(overlay).toContainText("pooled from 3 runs");
    await expect(overlay.getByTestId("latency-cdf-chart")).toBeVisible();
    await expect(overlay.locator(".recharts-line")).toHaveCount(2);
    await expect(overlay.getByTestId("distribution-test")).toContainText("Shapes differ");
    await expect(overlay.getByTestId("distribution-test")).toContainText("What this does not prove");
    await overlay.scrollIntoViewIfNeeded();
    await lookAt(overlay, `compare-distribution-${colorScheme}`);

    // The endpoint whose shape changed most is marked; picking an endpoint redraws for it.
    const starred = overlay.getByRole("link", { name: /★/ });
    await expect(starred).toHaveCount(1);
    const href = await starred.getAttribute("href");
    expect(href).toMatch(/endpoint=/);
    await page.goto(href!);
    await expect(page.getByTestId("distribution-overlay")).not.toContainText("Latency distribution: All endpoints");
    await expect(page.getByTestId("distribution-overlay").getByTestId("latency-cdf-chart")).toBeVisible();

    await page.setViewportSize({ width: 375, height: 800 });
    await lookAt(page.getByTestId("distribution-overlay"), `compare-distribution-${colorScheme}-375`);
    await expectNoSidewaysScroll(page);
    await context.close();
  }
});

test("a side without a histogram is said, not drawn as an empty chart", async ({ page, request }) => {
  const slug = uniqueSlug("compare-nohist");
  await uploadRun(request, slug, fixture("k6/baseline/round1/summary.json"), { label: "summary", started_at: "2026-11-01T09:00:00Z" });
  await uploadRun(request, slug, fixture("k6/baseline/short-ndjson/points.ndjson"), { label: "ndjson", started_at: "2026-11-02T09:00:00Z" });
  await page.goto(`/projects/${slug}/compare?base=label:summary&head=label:ndjson`);
  const overlay = page.getByTestId("distribution-overlay");
  await expect(overlay.getByTestId("distribution-unavailable")).toContainText("No base run carries a latency histogram");
  await expect(overlay.getByTestId("latency-cdf-chart")).toHaveCount(0);
  await lookAt(overlay, "compare-distribution-missing");
});
