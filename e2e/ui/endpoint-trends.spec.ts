import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { formatMs } from "../../server/domain/format";
import {
  fixture,
  ghzRound,
  lookAt,
  nightlyGetListing,
  uniqueSlug,
  uploadFiles,
  uploadRun,
  expectNoSidewaysScroll,
} from "../helpers";

/**
 * The per-endpoint trend page on real ghz reports: rounds 1-3 of baseline, then of ManagedAsync, one
 * day apart, uploaded through the public API as CI would.
 */
interface Uploaded {
  id: string;
  /** p95 of GetListing as the page must show it: the fixture's 95th percentile (ns) in ms. */
  p95: string;
}

const PERCENTILES = ["p50Ms", "p90Ms", "p95Ms", "p99Ms"];

const slug = uniqueSlug("trends");
const uploaded: Uploaded[] = [];
/**
 * The six runs as one series: main's baseline rounds and feature/managed-async's, as every branch is
 * drawn when asked (`branch=all`). The page's default, main alone, is tested below and in trend-branches.spec.ts.
 */
const ALL_BRANCHES = "branch=all";

function p95Of(variant: "baseline" | "managedasync", round: 1 | 2 | 3): string {
  const report = JSON.parse(fixture(`ghz/${variant}/round${round}/GetListing.json`).toString("utf8")) as {
    latencyDistribution: { percentage: number; latency: number }[];
  };
  const p95 = report.latencyDistribution.find((entry) => entry.percentage === 95);
  if (!p95) throw new Error("fixture without a p95");
  return formatMs(p95.latency / 1e6);
}

async function linePathCount(page: Page, chart: string, dataKey: string): Promise<number> {
  return page.locator(`[data-testid="${chart}"] .trend-line-${dataKey} path.recharts-line-curve`).count();
}

test.describe("endpoint trends page", () => {
  test.beforeAll(async ({ request }) => {
    let day = 0;
    for (const variant of ["baseline", "managedasync"] as const) {
      for (const round of [1, 2, 3] as const) {
        const answer = await uploadFiles(request, slug, ghzRound(variant, round), {
          label: variant === "baseline" ? "baseline" : "ManagedAsync",
          round: String(round),
          branch: variant === "baseline" ? "main" : "feature/managed-async",
          commit: `${variant === "baseline" ? "aa" : "bb"}${round}f00dcafe1234`,
          started_at: new Date(Date.UTC(2026, 10, 1 + day, 9, 0)).toISOString(),
        });
        uploaded.push({ id: answer.id, p95: p95Of(variant, round) });
        day += 1;
      }
    }
  });

  test("draws the percentile lines and lists the latest runs with their p95", async ({ page }) => {
    await page.goto(`/projects/${slug}/endpoints/GetListing?${ALL_BRANCHES}`);
    await expect(page.getByRole("heading", { level: 1, name: "GetListing" })).toBeVisible();
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 6 runs");

    for (const dataKey of PERCENTILES) {
      await expect.poll(() => linePathCount(page, "latency-chart", dataKey), { message: dataKey }).toBeGreaterThan(0);
    }
    await expect.poll(() => linePathCount(page, "throughput-chart", "throughput")).toBeGreaterThan(0);
    await expect.poll(() => linePathCount(page, "error-rate-chart", "errorRate")).toBeGreaterThan(0);
    // Y axes say their unit.
    await expect(page.getByTestId("latency-chart").getByText("Latency (ms)")).toBeVisible();
    await expect(page.getByTestId("throughput-chart").getByText("req/s")).toBeVisible();

    // Newest first: the table's p95 column is the fixtures' p95, in reverse upload order.
    const p95Cells = page.getByTestId("latest-run-p95");
    await expect(p95Cells).toHaveText([...uploaded].reverse().map((run) => run.p95));
  });

  test("line toggles and the x mode live in the URL", async ({ page }) => {
    await page.goto(`/projects/${slug}/endpoints/GetListing?${ALL_BRANCHES}`);
    const p90 = page.getByTestId("toggle-p90");
    await expect(p90).toHaveAttribute("aria-pressed", "true");
    await p90.click();
    await expect(page).toHaveURL(/[?&]lines=p50%2Cp95%2Cp99(&|$)/);
    await expect(p90).toHaveAttribute("aria-pressed", "false");
    await expect.poll(() => linePathCount(page, "latency-chart", "p90Ms")).toBe(0);
    await expect.poll(() => linePathCount(page, "latency-chart", "p95Ms")).toBeGreaterThan(0);

    await page.getByRole("group", { name: "X axis" }).getByRole("button", { name: "Run order" }).click();
    await expect(page).toHaveURL(/[?&]x=order(&|$)/);
    await expect(page.getByTestId("latency-chart").getByText("#6")).toBeVisible();

    // The state survives a reload (it is the URL's).
    await page.reload();
    await expect(page.getByTestId("toggle-p90")).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByRole("button", { name: "Run order" })).toHaveAttribute("aria-pressed", "true");
  });

  test("draws main by default, and filters by branch and label from the runs' own values", async ({ page }) => {
    await page.goto(`/projects/${slug}/endpoints/GetListing`);
    // The default: main, the default branch, alone.
    await expect(page.getByTestId("trend-branch-note")).toContainText("Showing main, the default branch, only");
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 3 runs");
    await expect(page.getByTestId("latest-run-p95")).toHaveText(
      uploaded
        .slice(0, 3)
        .reverse()
        .map((run) => run.p95),
    );
    await expect(page.getByLabel("Branch", { exact: true }).locator("option")).toHaveText([
      "main (default)",
      "feature/managed-async",
      "No branch (runs without one)",
      "All branches (mixed series)",
    ]);
    await page.getByLabel("Branch", { exact: true }).selectOption("feature/managed-async");
    await expect(page).toHaveURL(/[?&]branch=feature%2Fmanaged-async(&|$)/);
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 3 runs");
    await expect(page.getByTestId("latest-run-p95")).toHaveText(
      uploaded
        .slice(3)
        .reverse()
        .map((run) => run.p95),
    );
    await page.getByLabel("Branch", { exact: true }).selectOption("all");
    await expect(page).toHaveURL(/[?&]branch=all(&|$)/);
    await expect(page.getByTestId("trend-branch-note")).toContainText(
      "Showing every branch's runs as one series, as asked",
    );
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 6 runs");

    await page.getByLabel("Label").selectOption("ManagedAsync");
    await expect(page).toHaveURL(/[?&]label=ManagedAsync(&|$)/);
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 3 runs");
    await page.getByLabel("Label").selectOption("baseline");
    // Each choice is a navigation: the next is made on the URL the last one left.
    await expect(page).toHaveURL(/[?&]label=baseline(&|$)/);
    await page.getByLabel("Branch", { exact: true }).selectOption("feature/managed-async");
    await expect(page).toHaveURL(/[?&]branch=feature%2Fmanaged-async(&|$)/);
    await expect(page.getByText("No runs match these filters")).toBeVisible();
    await page.getByRole("link", { name: "Clear the filters" }).click();
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 3 runs");
    await expect(page.getByTestId("trend-branch-note")).toContainText("Showing main, the default branch, only");
  });

  test("clicking a point or a table row opens that run", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`/projects/${slug}/endpoints/GetListing?${ALL_BRANCHES}`);
    const chart = page.getByTestId("latency-chart");
    await expect.poll(() => linePathCount(page, "latency-chart", "p95Ms")).toBeGreaterThan(0);
    const surface = chart.locator(".recharts-surface").first();
    const box = await surface.boundingBox();
    if (!box) throw new Error("chart not laid out");
    // The right edge of the plot is the newest run.
    await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
    const tooltip = page.locator(".recharts-tooltip-wrapper").first();
    await expect(tooltip).toContainText("Run #6");
    await expect(tooltip).toContainText("ManagedAsync · round 3");
    await expect(tooltip).toContainText("feature/managed-async @ bb3f00d");
    await expect(tooltip).toContainText(uploaded[5]!.p95);
    // Hover is synced: the throughput chart shows the same run.
    await expect(page.getByTestId("throughput-chart").locator(".recharts-tooltip-wrapper")).toContainText("Run #6");
    await lookAt(page, "endpoint-trends-tooltip-dark", { viewportOnly: true });
    await page.mouse.click(box.x + box.width - 20, box.y + box.height / 2);
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/runs/${uploaded[5]!.id}$`));

    await page.goto(`/projects/${slug}/endpoints/GetListing?${ALL_BRANCHES}`);
    await page.getByTestId("latest-run-link").nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/runs/${uploaded[3]!.id}$`));
  });

  test("the aggregate lives at _all, and unknown endpoints are 404", async ({ page }) => {
    await page.goto(`/projects/${slug}/endpoints/_all`);
    await expect(page.getByRole("heading", { level: 1, name: "All endpoints" })).toBeVisible();
    // main's three runs: the default branch, alone by default.
    await expect(page.getByTestId("latest-run-p95")).toHaveCount(3);
    await page.getByLabel("Endpoint").selectOption("SearchListings");
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/endpoints/SearchListings\\?protocol=grpc$`));
    await expect(page.getByRole("heading", { level: 1, name: "SearchListings" })).toBeVisible();

    const response = await page.goto(`/projects/${slug}/endpoints/${encodeURIComponent("NoSuch/Method")}`);
    expect(response?.status()).toBe(404);
  });

  test("one run shows its values and says a trend needs two", async ({ page, request }) => {
    const single = uniqueSlug("trends-one");
    await uploadFiles(request, single, ghzRound("baseline", 1), { label: "baseline", branch: "main" });
    await page.goto(`/projects/${single}/endpoints/GetListing`);
    await expect(page.getByTestId("single-run")).toContainText("A trend needs at least 2 runs");
    await expect(page.getByTestId("single-run")).toContainText(p95Of("baseline", 1));
    await expect(page.locator(".recharts-surface")).toHaveCount(0);
  });

  test("custom metrics trend with their unit and direction", async ({ page, request }) => {
    const metricsSlug = uniqueSlug("trends-metrics");
    const samples = [
      [40, 1200, 101],
      [46, 1150, 104],
      [38, 1320, 99],
    ] as const;
    for (const [day, [cpu, messages, memory]] of samples.entries()) {
      const document = {
        schema: "benchtrack/v1",
        tool: "custom-loadtester",
        label: "baseline",
        round: day + 1,
        startedAt: new Date(Date.UTC(2026, 10, 1 + day, 9)).toISOString(),
        environment: { git: { branch: "main", commit: `cafe${day}` } },
        endpoints: [
          {
            name: "Publish",
            requests: 1000,
            failures: day,
            throughput: 33.3,
            latency: { unit: "ms", p50: 2 + day, p95: 5 + day, p99: 9 + day },
            metrics: {
              cpu: { value: cpu, unit: "%", better: "lower" },
              messages: { value: messages, unit: "msg/s", better: "higher" },
            },
          },
        ],
        metrics: { memory: { value: memory, unit: "MB", better: "lower" } },
      };
      await uploadRun(request, metricsSlug, JSON.stringify(document));
    }

    await page.goto(`/projects/${metricsSlug}/endpoints/Publish`);
    await expect(page.getByTestId("metric-cpu")).toContainText("lower is better");
    await expect(page.getByTestId("metric-messages")).toContainText("higher is better");
    await expect(page.getByTestId("metric-messages")).toContainText("msg/s");
    for (const key of ["cpu", "messages"]) {
      await expect.poll(() => linePathCount(page, `metric-chart-${key}`, "value")).toBeGreaterThan(0);
    }
    await lookAt(page, "endpoint-trends-metrics-light");

    // Run-level metrics belong to the aggregate page.
    await page.goto(`/projects/${metricsSlug}/endpoints/_all`);
    await expect(page.getByTestId("metric-memory")).toContainText("MB");
    await expect(page.getByTestId("metric-cpu")).toHaveCount(0);
  });

  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      test(`${colorScheme} at ${viewport.width} px: drawn, and the page never scrolls sideways`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await page.goto(`/projects/${slug}/endpoints/GetListing`);
        await expect.poll(() => linePathCount(page, "latency-chart", "p99Ms")).toBeGreaterThan(0);
        // The page never scrolls sideways; wide tables scroll inside their own box.
        await expectNoSidewaysScroll(page);
        await lookAt(page, `endpoint-trends-${colorScheme}-${viewport.width}`);
      });
    }
  }
});

test("gRPC and HTTP endpoints of one name are two endpoints, each with its own page", async ({ page, request }) => {
  const shared = uniqueSlug("protocols");
  await uploadFiles(request, shared, ghzRound("baseline", 1), {
    label: "nightly",
    branch: "main",
    started_at: "2026-11-01T09:00:00Z",
  });
  const locust = ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"];
  await uploadFiles(
    request,
    shared,
    Object.fromEntries(locust.map((name) => [name, fixture(`locust/baseline/round1/${name}`)])),
    { label: "nightly", branch: "main", started_at: "2026-11-02T09:00:00Z" },
  );

  // Without a protocol: the GetListing measured last (Locust, HTTP); the select offers both.
  await page.goto(`/projects/${shared}/endpoints/GetListing`);
  await expect(page.getByRole("heading", { level: 1, name: "GetListing" })).toBeVisible();
  await expect(page.getByTestId("trend-count")).toHaveCount(0);
  const select = page.getByLabel("Endpoint");
  await expect(select.locator("option", { hasText: "GetListing (grpc)" })).toHaveCount(1);
  await expect(select.locator("option", { hasText: "GetListing (http)" })).toHaveCount(1);
  await expect(select.locator("option:checked")).toHaveText("GetListing (http)");

  await select.selectOption({ label: "GetListing (grpc)" });
  await expect(page).toHaveURL(new RegExp(`/projects/${shared}/endpoints/GetListing\\?protocol=grpc$`));
  await expect(page.locator("main").getByText("grpc", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("listings.v1.ListingService.GetListing")).toBeVisible();

  // The overview lists two rows, each linking to its own page.
  await page.goto(`/projects/${shared}`);
  await expect(page.locator(`a[href="/projects/${shared}/endpoints/GetListing?protocol=grpc"]`)).toHaveCount(1);
  await expect(page.locator(`a[href="/projects/${shared}/endpoints/GetListing?protocol=http"]`)).toHaveCount(1);
});

test.describe("a branch over main, with main's noise band", () => {
  const overlaySlug = uniqueSlug("trends-overlay");
  // main: 8 nightly runs of GetListing near 20 ms; feature/cache (PR #12): 3 runs near 26 ms after main's
  // 6th, 7th and 8th runs, above main's p95 noise band.
  const MAIN_P95 = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3];
  const BRANCH_P95 = [26.2, 25.8, 26.5];

  test.beforeAll(async ({ request }) => {
    for (const [i, p95] of MAIN_P95.entries())
      await uploadRun(request, overlaySlug, nightlyGetListing(i * 12, p95, "main", null));
    for (const [i, p95] of BRANCH_P95.entries()) {
      await uploadRun(request, overlaySlug, nightlyGetListing((5 + i) * 12 + 6, p95, "feature/cache", 12));
    }
  });

  test("the overlay select draws the branch's runs, the band and a caption", async ({ page }) => {
    await page.goto(`/projects/${overlaySlug}/endpoints/GetListing`);
    const select = page.getByLabel("Overlay on main");
    await expect(select.locator("option")).toHaveText(["None", "feature/cache", "PR #12"]);
    await select.selectOption({ label: "feature/cache" });
    await expect(page).toHaveURL(/[?&]overlay=branch%3Afeature%2Fcache(&|$)/);
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 8 runs");
    await expect(page.getByTestId("trend-overlay-caption")).toHaveText(
      "The branch feature/cache's last 3 runs are above main's p95 noise band.",
    );
    await expect(page.getByTestId("trend-overlay")).toContainText("feature/cache p95 (3 runs)");
    await expect.poll(() => linePathCount(page, "latency-chart", "overlayP95Ms")).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid="latency-chart"] .trend-band path').count()).toBeGreaterThan(0);

    // A PR reads the same runs; on the run axis they sit after main's runs #6, #7 and #8.
    await select.selectOption({ label: "PR #12" });
    await expect(page.getByTestId("trend-overlay-caption")).toHaveText(
      "PR #12's last 3 runs are above main's p95 noise band.",
    );
    await page.getByRole("group", { name: "X axis" }).getByRole("button", { name: "Run order" }).click();
    await expect.poll(() => linePathCount(page, "latency-chart", "overlayP95Ms")).toBeGreaterThan(0);
  });

  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      test(`overlay, ${colorScheme} at ${viewport.width} px: drawn, and the page never scrolls sideways`, async ({
        page,
      }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await page.goto(`/projects/${overlaySlug}/endpoints/GetListing?overlay=branch%3Afeature%2Fcache`);
        await expect.poll(() => linePathCount(page, "latency-chart", "overlayP95Ms")).toBeGreaterThan(0);
        await expectNoSidewaysScroll(page);
        await lookAt(page, `endpoint-trends-overlay-${colorScheme}-${viewport.width}`);
      });
    }
  }
});
