import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, fixture, ghzRound, lookAt, uniqueSlug, uploadFiles, uploadRun, expectNoSidewaysScroll } from "../helpers";

/**
 * The capacity page (issue 14, item 6) on real tool outputs uploaded through the public API at three
 * load levels, the level given as `config.<key>` metadata: ghz on main (baseline rounds at concurrency
 * 10 and 20, a ManagedAsync round at 40) and on a feature branch (ManagedAsync rounds at all three), k6
 * at 10, 20 and 40 VUs, and a nightly ghz run at one load.
 */
const slug = uniqueSlug("capacity");
const GET_LISTING = "endpoint=GetListing&protocol=grpc&tool=ghz&label=capacity";

/** Paths a Recharts scatter line drew (one per series with two or more points). */
async function drawnSeries(page: Page): Promise<number> {
  return page.locator('[data-testid="capacity-chart"] .capacity-series path.recharts-curve').count();
}

test.describe("capacity page", () => {
  test.beforeAll(async ({ request }) => {
    let day = 0;
    const at = () => new Date(Date.UTC(2026, 10, 1 + day++, 9)).toISOString();
    const ghz = [
      ["main", "baseline", 1, "10"],
      ["main", "baseline", 2, "10"],
      ["main", "baseline", 3, "20"],
      ["main", "managedasync", 1, "40"],
      ["feature/async", "managedasync", 2, "10"],
      ["feature/async", "managedasync", 3, "20"],
      ["feature/async", "managedasync", 1, "40"],
    ] as const;
    for (const [branch, variant, round, concurrency] of ghz) {
      await uploadFiles(request, slug, ghzRound(variant, round), {
        label: "capacity",
        branch,
        "config.concurrency": concurrency,
        started_at: at(),
      });
    }
    for (const [variant, round, vus] of [
      ["baseline", 1, "10"],
      ["baseline", 2, "20"],
      ["managedasync", 1, "40"],
    ] as const) {
      await uploadRun(request, slug, fixture(`k6/${variant}/round${round}/summary.json`), {
        label: "capacity",
        branch: "main",
        "config.vus": vus,
        started_at: at(),
      });
    }
    await uploadFiles(request, slug, ghzRound("baseline", 1), { label: "nightly", branch: "main", started_at: at() });
    const sla = await request.put(`/api/v1/projects/${slug}/sla`, {
      data: {
        targets: [
          { metric: "p95", op: "<=", threshold: 15, scope: { match: "Get*" } },
          { metric: "p95", op: "<=", threshold: 30, scope: "aggregate" },
        ],
      },
      headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
    });
    expect(sla.status()).toBe(200);
  });

  test("draws a series at three load levels with its knee and SLA limit, in the chart and in words", async ({
    page,
  }) => {
    await page.goto(`/projects/${slug}/capacity?${GET_LISTING}&base=branch%3Amain`);
    await expect(page.getByRole("heading", { level: 1, name: "GetListing" })).toBeVisible();
    await expect.poll(() => drawnSeries(page)).toBe(3);
    // ghz held its rate at 100 req/s at every level: the chart says so and draws against the level.
    await expect(page.getByTestId("capacity-axis-note")).toContainText("Achieved throughput hardly changed");
    await expect(page.getByTestId("capacity-chart").getByText("Concurrency", { exact: true })).toBeVisible();
    await expect(page.getByTestId("capacity-chart").locator(".capacity-knee")).toHaveCount(1);
    await expect(page.getByTestId("capacity-chart").locator(".capacity-sla-limit")).toHaveCount(1);
    await expect(page.getByTestId("capacity-chart").getByText("p95 SLA 15 ms")).toBeVisible();

    const caption = page.getByTestId("capacity-caption-all");
    await expect(caption).toContainText("3 load levels, 4 runs.");
    await expect(caption.getByTestId("capacity-knee")).toHaveText(
      /^p95 bends at concurrency 20 \(99\.\d\d req\/s\): 9\.8 ms there, 18\.2 ms at concurrency 40\.$/,
    );
    await expect(caption.getByTestId("capacity-sla")).toHaveText(
      /^Highest load that met the SLA: concurrency 20 \(99\.\d\d req\/s\); concurrency 40 missed it/,
    );

    const rows = page.getByTestId("capacity-levels-all").getByTestId("capacity-level");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText("median of 2:");
    await expect(rows.nth(1)).toContainText("knee");
    await expect(rows.nth(1)).toContainText("SLA limit");
    await expect(rows.nth(2)).toContainText("✗ p95 18.2 ms, target <= 15 ms");
  });

  test("compares two branches' curves on one chart, from the form", async ({ page }) => {
    await page.goto(`/projects/${slug}/capacity?${GET_LISTING}`);
    // Without a selector both branches pool into one curve, and the page says so.
    await expect(page.getByTestId("capacity-branches-note")).toContainText("2 branches (feature/async, main)");
    const form = page.getByTestId("capacity-compare-form");
    await form.getByLabel("base").fill("branch:main");
    await form.getByLabel("head").fill("branch:feature/async");
    await form.getByRole("button", { name: "Compare curves" }).click();
    await expect(page).toHaveURL(/[?&]base=branch%3Amain&head=branch%3Afeature%2Fasync(&|$)/);

    await expect.poll(() => drawnSeries(page)).toBe(2);
    await expect(page.getByTestId("capacity-legend")).toContainText("base p95");
    await expect(page.getByTestId("capacity-legend")).toContainText("head p95");
    await expect(page.getByTestId("capacity-caption-base").getByTestId("capacity-knee")).toContainText(
      "p95 bends at concurrency 20",
    );
    await expect(page.getByTestId("capacity-caption-head").getByTestId("capacity-knee")).toHaveText(
      "No knee in the measured range: p95 does not rise from the lowest load to the highest.",
    );
    await expect(page.getByTestId("capacity-caption-head").getByTestId("capacity-sla")).toContainText(
      "No measured load level met the SLA: even concurrency 10",
    );
    await expect(page.getByTestId("capacity-levels-head").getByTestId("capacity-level")).toHaveCount(3);
  });

  test("is reached from the project's tabs and from an endpoint's trends", async ({ page }) => {
    await page.goto(`/projects/${slug}`);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Capacity" }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/capacity$`));
    // The run aggregate, and the newest series with three or more load levels: k6's.
    await expect(page.getByRole("heading", { level: 1, name: "All endpoints" })).toBeVisible();
    await expect(page.getByLabel("Series").locator("option:checked")).toHaveText("k6 · capacity (3 runs, 3 levels)");
    await expect(page.getByTestId("capacity-knee")).toHaveText(/^p95 bends at 20 VUs \(\d+\.\d\d req\/s\)/);
    await expect(page.getByTestId("capacity-sla")).toHaveText(
      /^Highest load that met the SLA: 20 VUs .*; 40 VUs missed it/,
    );

    await page.goto(`/projects/${slug}/endpoints/GetListing?protocol=grpc`);
    await page.getByTestId("trend-capacity-link").click();
    await expect(page).toHaveURL(/\/capacity\?endpoint=GetListing&protocol=grpc&tool=ghz$/);
    await expect(page.getByRole("heading", { level: 1, name: "GetListing" })).toBeVisible();
    await expect.poll(() => drawnSeries(page)).toBe(3);
  });

  test("says honestly when a series has a single load level", async ({ page }) => {
    await page.goto(`/projects/${slug}/capacity?endpoint=GetListing&protocol=grpc&tool=ghz&label=nightly`);
    await expect(
      page.getByText("Capacity needs runs at 3 or more load levels: upload runs with different VUs/rate"),
    ).toBeVisible();
    // ghz states its own rate limit (rps 100), concurrency and connections: one level of each.
    await expect(page.getByTestId("capacity-empty-detail")).toContainText("has 1 run, all at rps 100");
    await expect(page.getByTestId("capacity-chart")).toHaveCount(0);
    if (WRITES_SCREENSHOTS) {
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width: 1440, height: 900 });
        await lookAt(page, `capacity-single-level-${colorScheme}-1440`);
        await page.setViewportSize({ width: 375, height: 812 });
        await lookAt(page, `capacity-single-level-${colorScheme}-375`);
      }
    }
  });

  test("draws against achieved throughput when it grows with the load (a rate sweep in the Benchtrack format)", async ({
    page,
    request,
  }) => {
    // An open-model sweep that saturates near 350 req/s: offered rate, achieved rate, p50, p95, p99 (ms).
    const sweep = [
      [100, 100, 6, 12, 16],
      [200, 199, 6.4, 13, 18],
      [300, 296, 8, 19, 30],
      [400, 352, 40, 85, 140],
    ] as const;
    for (const [index, [rate, throughput, p50, p95, p99]] of sweep.entries()) {
      const run = {
        schema: "benchtrack/v1",
        tool: "custom-loadgen",
        label: "sweep",
        startedAt: new Date(Date.UTC(2026, 10, 20 + index, 9)).toISOString(),
        environment: { git: { branch: "main" }, config: { rate } },
        endpoints: [
          {
            name: "SearchListings",
            requests: throughput * 60,
            failures: rate === 400 ? 90 : 2,
            throughput,
            latency: { unit: "ms", p50, p95, p99 },
          },
        ],
      };
      await uploadRun(request, slug, JSON.stringify(run));
    }
    await page.goto(`/projects/${slug}/capacity?endpoint=SearchListings&tool=custom-loadgen&label=sweep`);
    await expect.poll(() => drawnSeries(page)).toBe(3);
    await expect(page.getByTestId("capacity-axis-note")).toHaveCount(0);
    await expect(page.getByTestId("capacity-chart").getByText("Achieved throughput (req/s)")).toBeVisible();
    await expect(page.getByTestId("capacity-knee")).toHaveText(
      "p95 bends at rate 300 (296 req/s): 19 ms there, 85 ms at rate 400.",
    );
    await expect(page.getByTestId("capacity-sla")).toHaveText("No SLA limit: no SLA target applies to this endpoint.");
    if (WRITES_SCREENSHOTS) {
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
          await lookAt(page, `capacity-throughput-${colorScheme}-${width}`);
        }
      }
    }
  });

  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      for (const [name, query] of [
        ["one", `${GET_LISTING}&base=branch%3Amain`],
        ["compare", `${GET_LISTING}&base=branch%3Amain&head=branch%3Afeature%2Fasync`],
      ] as const) {
        test(`${name === "one" ? "one curve" : "two curves"}, ${colorScheme} at ${viewport.width} px: drawn, and the page never scrolls sideways`, async ({
          page,
        }) => {
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme });
          await page.goto(`/projects/${slug}/capacity?${query}`);
          await expect.poll(() => drawnSeries(page)).toBeGreaterThan(0);
          // The page never scrolls sideways; the levels tables scroll inside their own box.
          await expectNoSidewaysScroll(page);
          await lookAt(page, `capacity-${name}-${colorScheme}-${viewport.width}`);
        });
      }
    }
  }
});
