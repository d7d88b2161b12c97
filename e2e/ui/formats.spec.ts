import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { FORMAT_LIST } from "../../server/domain/parsers/format-list";
import { WRITES_SCREENSHOTS, fixture, lookAt, uniqueSlug, uploadFiles, uploadRun } from "../helpers";

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
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Lines a Recharts line chart drew with data (a path with at least two points). */
async function drawnLines(page: Page, testId: string): Promise<number> {
  return page
    .getByTestId(testId)
    .locator("path.recharts-curve")
    .evaluateAll((paths) => paths.filter((path) => (path.getAttribute("d") ?? "").split(/[LC]/).length > 2).length);
}

test.describe("every tool's own output, on the run page", () => {
  test("Locust --csv-full-history: each endpoint's timeline is drawn", async ({ page, request }) => {
    const slug = uniqueSlug("locust-history");
    const folder = "locust/baseline/csv-full-history";
    const names = ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"];
    const uploaded = await uploadFiles(
      request,
      slug,
      Object.fromEntries(names.map((name) => [name, fixture(`${folder}/${name}`)])),
      {
        label: "baseline",
      },
    );
    expect(uploaded.format).toBe("locust-csv");

    await page.goto(uploaded.url);
    const timeline = page.getByTestId("run-timeline");
    await expect(timeline).toBeVisible();
    await expect(timeline).toContainText("All endpoints");
    // Requests/s, failures/s and users; then p50 and p95.
    await expect.poll(() => drawnLines(page, "timeline-throughput")).toBe(3);
    await expect.poll(() => drawnLines(page, "timeline-latency")).toBe(2);

    await page.getByTestId("timeline-select").selectOption("SearchListings");
    await expect(page).toHaveURL(/timeline=SearchListings/);
    await expect(timeline).toContainText("SearchListings over");
    await expect.poll(() => drawnLines(page, "timeline-latency")).toBe(2);
    await screenshots(page, "formats-locust-timeline");
  });

  test("k6 --out json NDJSON: the run's timeline, second by second, overall and per endpoint", async ({ page, request }) => {
    const uploaded = await uploadRun(request, uniqueSlug("k6-ndjson-timeline"), fixture("k6/baseline/short-ndjson/points.ndjson"), {
      label: "baseline",
    });
    expect(uploaded.format).toBe("k6-ndjson");

    await page.goto(uploaded.url);
    const timeline = page.getByTestId("run-timeline");
    await expect(timeline).toBeVisible();
    // A 3.5 s run: 3 one-second windows (the last one to the last point), counted from k6's samples.
    await expect(timeline).toContainText("All endpoints over 3.5 s, window by window. 3 one-second windows counted from the tool's samples.");
    // Requests/s, failures/s and VUs; then p50 and p95.
    await expect.poll(() => drawnLines(page, "timeline-throughput")).toBe(3);
    await expect.poll(() => drawnLines(page, "timeline-latency")).toBe(2);
    const ticks = page.getByTestId("timeline-throughput").locator("text.recharts-cartesian-axis-tick-value").filter({ hasText: / s$/ });
    await expect(ticks.first()).toHaveText("0 s");

    await page.getByTestId("timeline-select").selectOption("SearchListings");
    await expect(page).toHaveURL(/timeline=SearchListings/);
    await expect(timeline).toContainText("SearchListings over");
    await expect.poll(() => drawnLines(page, "timeline-latency")).toBe(2);
    await page.getByTestId("timeline-select").selectOption({ index: 0 });
    await screenshots(page, "formats-k6-ndjson-timeline");
  });

  test("artillery report.json with its console: endpoints, ensure checks, windows", async ({ page, request }) => {
    const slug = uniqueSlug("artillery");
    const uploaded = await uploadFiles(request, slug, {
      "report.json": fixture("artillery/baseline/round1/report.json"),
      "artillery-console.txt": fixture("artillery/baseline/round1/artillery-console.txt"),
    });
    expect(uploaded.format).toBe("artillery-json");
    expect([...uploaded.endpoints].sort()).toEqual([
      "CheckStockAvailability",
      "GetAllCategories",
      "GetListing",
      "ListListings",
      "SearchListings",
    ]);

    await page.goto(uploaded.url);
    await expect(page.getByTestId("endpoint-row")).toHaveCount(5);
    await expect(page.getByText("http.response_time.p95 < 35")).toBeVisible();
    await expect(page.getByTestId("run-timeline")).toBeVisible();
    await expect.poll(() => drawnLines(page, "timeline-latency")).toBe(2);
    await screenshots(page, "formats-artillery");
  });

  test("artillery report.json: the timeline spans the run's duration, from its start", async ({ page, request }) => {
    // managedasync's two 10 s windows end 4.4 s and 12 s into its 12 s run: drawn from the first window's
    // end, the timeline said 7.5 s.
    const uploaded = await uploadFiles(request, uniqueSlug("artillery-span"), {
      "report.json": fixture("artillery/managedasync/round1/report.json"),
    });
    await page.goto(uploaded.url);
    const duration = page.locator("dt", { hasText: /^Duration$/ }).locator("xpath=following-sibling::dd");
    await expect(duration).toHaveText("12 s");
    await expect(page.getByTestId("run-timeline")).toContainText("All endpoints over 12 s, window by window.");
    await expect(page.getByTestId("timeline-throughput").locator("path.recharts-curve").first()).toBeAttached();
    // The time axis starts at the run's start.
    const ticks = page.getByTestId("timeline-throughput").locator("text.recharts-cartesian-axis-tick-value").filter({ hasText: / s$/ });
    await expect(ticks.first()).toHaveText("0 s");
    await expect(ticks.last()).toHaveText("12 s");
    await screenshots(page, "formats-artillery-span");
  });

  test("hey -o csv: one row per request becomes a histogram; ?endpoint= names the target", async ({
    page,
    request,
  }) => {
    const slug = uniqueSlug("hey");
    const uploaded = await uploadRun(request, slug, fixture("hey/baseline/csv/hey.csv"), {
      label: "baseline",
      endpoint: "GetListing",
    });
    expect(uploaded.format).toBe("hey-csv");
    expect(uploaded.endpoints).toEqual(["GetListing"]);

    await page.goto(uploaded.url);
    await expect(page.getByTestId("latency-distribution")).toContainText("500 calls");
    await expect(page.getByTestId("latency-histogram").locator(".recharts-bar-rectangle").first()).toBeVisible();
    await expect(page.getByTestId("run-timeline")).toHaveCount(0);
    await screenshots(page, "formats-hey-csv");
  });

  test("wrk and vegeta: what the tool says of itself, and what it does not", async ({ page, request }) => {
    const slug = uniqueSlug("wrk-vegeta");
    const wrk = await uploadRun(request, slug, fixture("wrk/managedasync/round1/wrk.txt"), { label: "wrk" });
    expect(wrk.format).toBe("wrk-text");
    expect(wrk.endpoints).toEqual(["/api/listings/42"]);
    const vegeta = await uploadFiles(request, slug, {
      "report.json": fixture("vegeta/baseline/round1/report.json"),
      "report-hist.txt": fixture("vegeta/baseline/round1/report-hist.txt"),
    });
    expect(vegeta.format).toBe("vegeta-json");
    expect(vegeta.endpoints).toEqual([]);

    await page.goto(vegeta.url);
    await expect(page.getByTestId("endpoints")).toContainText("only the aggregate");
    await expect(page.getByTestId("latency-distribution")).toContainText("1,200 calls");
    await screenshots(page, "formats-vegeta");
  });

  test("the API docs give a recipe per format", async ({ page }) => {
    await page.goto("/docs/api#formats");
    const table = page.getByTestId("format-table");
    // One row per format the server reads (21 load-test formats, 21 microbenchmark formats today).
    await expect(table.locator("tbody tr")).toHaveCount(FORMAT_LIST.length);
    expect(FORMAT_LIST.length).toBeGreaterThanOrEqual(42);
    for (const id of [
      "go-bench-text",
      "cachegrind",
      "callgrind",
      "hyperfine-json",
      "pytest-benchmark",
      "google-benchmark-json",
      "vitest-bench",
      "benchmarkjs-text",
      "criterion-json",
      "vegeta-hist",
      "hey-csv",
      "wrk-text",
      "autocannon-json",
      "artillery-console",
      "jmeter-xml",
      "locust-html",
      "ghz-csv",
      "bencher-bmf",
      "custom-smaller-is-better",
      "custom-bigger-is-better",
    ]) {
      await expect(page.getByTestId(`format-${id}`).locator("pre")).toContainText("curl");
    }
    await expect(page.getByTestId("format-jmeter-csv")).toContainText("documented format");
    await expect(page.getByTestId("format-jmh-json")).toContainText("documented format");
    await page.getByTestId("format-hey-text").scrollIntoViewIfNeeded();
    await screenshots(page, "formats-docs");
  });
});
