import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { formatMs, formatNumber, formatRate } from "../../server/domain/format";
import { withoutUnit } from "../../components/runs/display";
import { GHZ_METHODS, WRITES_SCREENSHOTS, fixture, ghzRound, lookAt, uniqueSlug, uploadFiles, uploadRun } from "../helpers";

/** What the page shows for each ghz method, computed here from the fixture files themselves. */
interface GhzReport {
  count: number;
  rps: number;
  latencyDistribution: { percentage: number; latency: number }[];
}

function expectedGhzRow(method: string) {
  const report = JSON.parse(fixture(`ghz/baseline/round1/${method}.json`).toString("utf8")) as GhzReport;
  const p95Ns = report.latencyDistribution.find((entry) => entry.percentage === 95)?.latency;
  if (p95Ns === undefined) throw new Error(`${method}: no p95 in the fixture`);
  const p95Ms = p95Ns / 1e6;
  return {
    method,
    p95Ms,
    count: formatNumber(report.count, 0),
    // The table states units once in its header ("RPS (req/s)", "P95 (ms)"), so cells drop them.
    rps: withoutUnit(formatRate(report.rps), "req/s"),
    p95: withoutUnit(formatMs(p95Ms), "ms"),
  };
}

async function endpointOrder(page: Page): Promise<(string | null)[]> {
  return page.getByTestId("endpoint-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-endpoint")));
}

/** Screenshots to look at (E2E_SCREENSHOTS=1), light and dark, 1440 and 375 px wide. */
async function screenshots(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await expect(page.locator("html")).toHaveClass(colorScheme === "dark" ? /dark/ : /^(?!.*dark)/);
    await lookAt(page, `${name}-${colorScheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await lookAt(page, `${name}-375-${colorScheme}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe("run report", () => {
  test("a ghz baseline round: header, per-method numbers, sorting, histogram", async ({ page, request }) => {
    const slug = uniqueSlug("report-ghz");
    const uploaded = await uploadFiles(request, slug, ghzRound("baseline", 1), {
      label: "baseline",
      round: "1",
      branch: "main",
      commit: "9f1c2e7d4b5a6c7e8f9012345678901234567890",
      pr: "42",
      build_url: "https://ci.example/build/1",
      "attr.db": "postgres15",
    });
    expect(uploaded.format).toBe("ghz");

    await page.setViewportSize({ width: 1440, height: 900 });
    const response = await page.goto(uploaded.url);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(`Run baseline #1 · ${slug} · Benchtrack`);

    // Header
    const header = page.getByTestId("run-header");
    await expect(header.getByRole("heading", { level: 1, name: "baseline #1" })).toBeVisible();
    await expect(header).toContainText("ghz");
    await expect(header).toContainText("grpc");
    await expect(header.getByText("9f1c2e7", { exact: true })).toBeVisible();
    await expect(header).toContainText("main");
    await expect(header).toContainText("#42");
    await expect(header.getByRole("link", { name: "open build" })).toHaveAttribute("href", "https://ci.example/build/1");
    await expect(header).toContainText("db=postgres15");
    await expect(header.getByRole("link", { name: "Download raw" })).toHaveAttribute(
      "href",
      `/api/v1/projects/${slug}/runs/${uploaded.id}/raw`,
    );
    await expect(header.getByRole("link", { name: "View JSON" })).toHaveAttribute("href", `/api/v1/projects/${slug}/runs/${uploaded.id}`);
    // ghz cut calls off at shutdown in this round; the parser's note says so.
    await expect(page.getByTestId("run-notes")).toContainText("counted as failures");

    // Per-method numbers, formatted as the page formats them.
    const expected = GHZ_METHODS.map(expectedGhzRow);
    await expect(page.getByTestId("endpoint-row")).toHaveCount(GHZ_METHODS.length);
    for (const row of expected) {
      const tableRow = page.locator(`[data-testid="endpoint-row"][data-endpoint="${row.method}"]`);
      await expect(tableRow.getByRole("link", { name: row.method })).toHaveAttribute(
        "href",
        // The trend of the run's own branch.
        `/projects/${slug}/endpoints/${encodeURIComponent(row.method)}?protocol=grpc&branch=main`,
      );
      await expect(tableRow.locator('[data-column="count"]')).toHaveText(row.count);
      await expect(tableRow.locator('[data-column="rps"]')).toHaveText(row.rps);
      await expect(tableRow.locator('[data-column="p95"]')).toHaveText(row.p95);
    }
    await expect(page.getByTestId("aggregate-row")).toContainText("All endpoints");

    // Sorting by P95: descending first, then ascending; the state is in the URL, the aggregate stays last.
    const byP95 = [...expected].sort((a, b) => b.p95Ms - a.p95Ms).map((row) => row.method);
    const p95Header = page.getByRole("columnheader", { name: /P95/ });
    await p95Header.getByRole("button").click();
    await expect(page).toHaveURL(/[?&]sort=p95&dir=desc/);
    await expect(p95Header).toHaveAttribute("aria-sort", "descending");
    await expect.poll(() => endpointOrder(page)).toEqual(byP95);
    // From the keyboard this time.
    await p95Header.getByRole("button").focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]sort=p95&dir=asc/);
    await expect.poll(() => endpointOrder(page)).toEqual([...byP95].reverse());
    await expect(page.locator("tfoot [data-testid=aggregate-row]")).toHaveCount(1);

    // A shared sorted link opens sorted.
    await page.goto(`${uploaded.url}?sort=p95&dir=desc`);
    await expect.poll(() => endpointOrder(page)).toEqual(byP95);

    // Latency distribution: one method at a time, chosen in the URL.
    const distribution = page.getByTestId("latency-distribution");
    await expect(distribution.getByTestId("latency-histogram").locator(".recharts-bar-rectangle").first()).toBeVisible();
    await distribution.getByTestId("histogram-select").selectOption("SearchListings");
    await expect(page).toHaveURL(/[?&]hist=SearchListings/);
    await expect(distribution).toContainText("SearchListings:");

    // Status codes and errors from ghz's distributions.
    await expect(page.getByTestId("status-codes")).toContainText("OK");

    await page.goto(uploaded.url);
    await expect(page.getByTestId("endpoint-row")).toHaveCount(GHZ_METHODS.length);
    await screenshots(page, "run-report");
  });

  test("a k6 summary shows its thresholds and checks", async ({ page, request }) => {
    const slug = uniqueSlug("report-k6");
    const file = fixture("k6/managedasync/round1/summary.json");
    const summary = JSON.parse(file.toString("utf8")) as { metrics: Record<string, { thresholds?: Record<string, boolean> }> };
    // In --summary-export, `true` means the threshold was crossed (failed).
    const thresholds = Object.entries(summary.metrics).flatMap(([metric, { thresholds = {} }]) =>
      Object.entries(thresholds).map(([expression, failed]) => ({ metric, expression, passed: !failed })),
    );
    expect(thresholds.length).toBeGreaterThan(0);

    const uploaded = await uploadRun(request, slug, file, { format: "k6", label: "ManagedAsync", round: "1" });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(uploaded.url);

    const rows = page.getByTestId("threshold-row");
    await expect(rows).toHaveCount(thresholds.length);
    for (const threshold of thresholds) {
      const row = rows.filter({ hasText: threshold.expression }).filter({ hasText: threshold.metric });
      await expect(row).toContainText(threshold.passed ? "✓ passed" : "✗ failed");
    }
    await expect(page.getByTestId("checks")).toBeVisible();
    // k6 summaries have no histogram: the page says so instead of drawing an empty chart.
    await expect(page.getByTestId("latency-distribution")).toContainText("no latency histogram");
    await screenshots(page, "run-report-k6");
  });

  test("Download raw saves the bytes as uploaded, named with the format's extension", async ({ page, request }) => {
    const slug = uniqueSlug("report-raw");
    const file = fixture("k6/managedasync/round1/summary.json");
    const uploaded = await uploadRun(request, slug, file, { format: "k6", label: "ManagedAsync" });
    await page.goto(uploaded.url);
    // The browser asks for gzip, as every browser does: the saved file is still the JSON uploaded.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-header").getByRole("link", { name: "Download raw" }).click()]);
    expect(download.suggestedFilename()).toBe(`${uploaded.id}-k6-summary.json`);
    const saved = await download.path();
    expect(Buffer.compare(readFileSync(saved), file)).toBe(0);
  });

  test("a Locust CSV set shows its failures", async ({ page, request }) => {
    const slug = uniqueSlug("report-locust");
    const folder = "locust/baseline/round1";
    const uploaded = await uploadFiles(
      request,
      slug,
      Object.fromEntries(
        ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv"].map((name) => [name, fixture(`${folder}/${name}`)]),
      ),
      { label: "baseline", round: "1" },
    );
    expect(uploaded.format).toBe("locust-csv");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(uploaded.url);

    await expect(page.getByTestId("endpoint-row")).toHaveCount(5);
    const getAll = page.locator('[data-testid="endpoint-row"][data-endpoint="GetAllCategories"]');
    await expect(getAll.locator('[data-column="errors"]')).toHaveText("1");
    await expect(page.getByTestId("errors")).toContainText("500 Server Error");
    await screenshots(page, "run-report-locust");
  });

  test("an unknown run is a 404", async ({ page, request }) => {
    const slug = uniqueSlug("report-404");
    await uploadFiles(request, slug, ghzRound("baseline", 1));
    const response = await page.goto(`/projects/${slug}/runs/no-such-run`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Run not found")).toBeVisible();
  });
});
