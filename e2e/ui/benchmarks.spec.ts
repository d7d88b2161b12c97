import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun, expectNoSidewaysScroll } from "../helpers";

/**
 * Pages speak of benchmarks for benchmark runs (issue 24, docs/benchmarks.md): a project of Go
 * microbenchmarks uploaded as Benchtrack JSON, seven runs on one testbed (the last with one benchmark 2.5x slower) and an
 * older one on another. The run, compare and trend pages say "benchmark", show times per operation in
 * ns and µs, name the testbed, and leave out what only a load test has (capacity, load profile, error
 * columns, an aggregate of no numbers).
 */

const TESTBED = "linux/amd64 · AMD EPYC 7763";
const OTHER_TESTBED = "darwin/arm64 · Apple M2";
/** Mean time per operation in ns, and B/op, of each benchmark. */
const BENCHMARKS = [
  { name: "example.com/sort > BenchmarkSortInts/n=100", meanNs: 4761, bytes: 896 },
  { name: "example.com/sort > BenchmarkSortInts/n=10000", meanNs: 812_000, bytes: 81_920 },
  { name: "example.com/json > BenchmarkEncode", meanNs: 23.4, bytes: 0 },
];
const SORT_100 = BENCHMARKS[0]!.name;

/**
 * One `go test -bench -count 5` run as Benchtrack JSON: each benchmark's 5 samples summed up, ns per op;
 * `slowdown` makes SortInts/n=100 alone slower (a whole run slower alike would read as the machine's shift).
 */
function benchmarkRun(round: number, testbed: string, slowdown: number, day: number): string {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "go-bench",
    label: "main",
    round,
    startedAt: new Date(Date.UTC(2026, 0, day, 9)).toISOString(),
    environment: {
      git: { commit: `${round}abcdef0123456789`, branch: "main" },
      host: { name: `ci-runner-${round}` },
      testbed,
      config: { protocol: "benchmark" },
      attributes: { goos: "linux", pkg: "example.com/sort" },
    },
    // A run of benchmarks' aggregate holds no numbers (a mean over unrelated benchmarks means nothing).
    summary: { protocol: "benchmark" },
    endpoints: BENCHMARKS.map(({ name, meanNs, bytes }) => {
      // A little run-to-run noise, the same for every upload of this spec.
      const mean = meanNs * (name === SORT_100 ? slowdown : 1) * (1 + 0.004 * Math.sin(round * 7 + meanNs));
      return {
        name,
        protocol: "benchmark",
        requests: 5,
        failures: 0,
        throughput: 1e9 / mean,
        latency: {
          unit: "ns",
          mean,
          min: mean * 0.99,
          max: mean * 1.01,
          stdDev: mean * 0.005,
          p50: mean,
          p90: mean * 1.005,
          p99: mean * 1.01,
        },
        metrics: {
          "B/op": { value: bytes, unit: "B/op", better: "lower" },
          "allocs/op": { value: 3, unit: "allocs/op", better: "lower" },
        },
      };
    }),
  });
}

/** Light and dark, desktop and phone, written only with E2E_SCREENSHOTS=1; the phone never scrolls sideways. */
async function lookAtEverySize(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      if (viewport.width === 375) await expectNoSidewaysScroll(page);
      if (WRITES_SCREENSHOTS) await lookAt(page, `benchmarks-${name}-${colorScheme}-${viewport.width}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

test.describe("a project of benchmarks", () => {
  const slug = uniqueSlug("benchmarks");
  const ids: string[] = [];

  test.beforeAll(async ({ request }) => {
    // An older run on another machine: another series, linked from the trend page.
    await uploadRun(request, slug, benchmarkRun(1, OTHER_TESTBED, 0.7, 1));
    for (let round = 1; round <= 7; round++) {
      const answer = await uploadRun(request, slug, benchmarkRun(round, TESTBED, round === 7 ? 2.5 : 1, round + 1));
      expect(answer.format).toBe("benchtrack");
      ids.push(answer.id);
    }
  });

  test("the run page: a table of benchmarks in ns and µs, the testbed, no aggregate, errors or load profile", async ({
    page,
  }) => {
    await page.goto(`/projects/${slug}/runs/${ids.at(-1)}`);
    await expect(page.getByTestId("run-testbed")).toHaveText(TESTBED);
    const header = page.getByTestId("run-header");
    await expect(header).not.toContainText("Load configuration");

    const section = page.getByTestId("endpoints");
    await expect(section.getByRole("heading", { name: "Benchmarks" })).toBeVisible();
    await expect(section).toContainText("3 benchmarks, each judged on its own");
    const table = section.getByRole("table");
    for (const column of ["Benchmark", "Samples", "Ops/s", "Mean", "P50", "P99"]) {
      await expect(table.getByRole("columnheader", { name: column, exact: false }).first()).toBeVisible();
    }
    await expect(table.getByRole("columnheader", { name: /Error|Count|RPS/ })).toHaveCount(0);
    await expect(page.getByTestId("aggregate-row")).toHaveCount(0);
    await expect(page.getByText("All endpoints")).toHaveCount(0);

    const sort = table.locator(`tr[data-endpoint="${SORT_100}"]`);
    await expect(sort.locator('[data-column="count"]')).toHaveText("5");
    // 4,761 ns × 2.5 per operation, in µs; 1e9 / that many operations per second.
    await expect(sort.locator('[data-column="avg"]')).toHaveText(/^11\.\d\d? µs$/);
    await expect(sort.locator('[data-column="rps"]')).toHaveText(/^8\d,\d{3}$/);
    await expect(
      table.locator('tr[data-endpoint="example.com/json > BenchmarkEncode"] [data-column="avg"]'),
    ).toHaveText(/ ns$/);

    // The CI gate names the benchmark that regressed, by its mean time per operation (2.5x: beyond what a
    // burst during one benchmark alone does, so one head run can fail it).
    await expect(page.getByTestId("outcome-badge")).toContainText(/fail/i);
    await expect(page.getByTestId("gate-reasons")).toContainText("1 benchmark regressed against the baseline");
    const changes = page.getByRole("table", { name: "Benchmarks the gate named as changed, slowdowns first, largest first" });
    await expect(changes).toContainText("mean time/op");
    await expect(changes.getByTestId("gate-change")).toHaveCount(1);
    await expect(changes.getByTestId("gate-change")).toContainText(SORT_100);

    await expect(page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Capacity" })).toHaveCount(
      0,
    );
    await lookAtEverySize(page, "run");
  });

  test("the compare page: per benchmark, time/op in ns and µs, the testbed among what stayed the same, no aggregate", async ({
    page,
  }) => {
    const base = ids.slice(0, 6).join(",");
    await page.goto(`/projects/${slug}/compare?base=${base}&head=${ids.at(-1)}`);
    await expect(page.getByTestId("compare-verdict")).toContainText("regressed");
    await expect(page.getByTestId("compare-counts")).toContainText("(of 3 benchmarks)");
    await expect(page.getByText("Per benchmark and metric")).toBeVisible();
    await expect(page.getByText(`testbed ${TESTBED}`)).toBeVisible();

    const table = page.getByRole("table", { name: "Comparison per benchmark and metric" });
    await expect(table.getByRole("columnheader", { name: "Benchmark" })).toBeVisible();
    const gateRows = table.locator('[data-testid="compare-row"][data-gate="true"]');
    await expect(gateRows).toHaveCount(3);
    await expect(gateRows.first().locator('[data-column="metric"]')).toContainText("mean time/op");
    const heads = await table
      .locator('[data-testid="compare-row"][data-gate="true"] [data-column="head"]')
      .allTextContents();
    expect(heads.some((text) => / µs/.test(text))).toBe(true);
    expect(heads.some((text) => / ns/.test(text))).toBe(true);
    await expect(page.getByText(/All (endpoints|benchmarks)/)).toHaveCount(0);

    // Their values span ns to ms: the chart is of changes, one bar per benchmark.
    await expect(page.getByTestId("change-chart")).toBeVisible();
    await expect(page.getByText("Change per benchmark: mean time/op")).toBeVisible();
    await lookAtEverySize(page, "compare");
  });

  test("the trend page: Benchmark trends, time/op in µs, ops/s, the other testbed linked, no Capacity link", async ({
    page,
  }) => {
    await page.goto(`/projects/${slug}/endpoints/${encodeURIComponent(SORT_100)}?protocol=benchmark`);
    await expect(page.getByText("Benchmark trends")).toBeVisible();
    await expect(page.getByTestId("trend-capacity-link")).toHaveCount(0);
    const note = page.getByTestId("trend-testbed-note");
    await expect(note).toContainText(`Showing runs on testbed ${TESTBED} only`);
    await expect(note.getByRole("link", { name: `${OTHER_TESTBED} (1 run)` })).toBeVisible();
    await expect(page.getByTestId("trend-count")).toHaveText("Showing all 7 runs");
    await expect(page.getByTestId("latency-chart")).toContainText("µs");
    const latest = page.getByTestId("latest-runs");
    await expect(latest.locator("tr").first()).toContainText("ops/s");
    await expect(latest.locator("tr").first()).toContainText("µs");
    await expect(page.getByRole("columnheader", { name: "Error rate" })).toHaveCount(0);
    await lookAtEverySize(page, "trend");

    await note.getByRole("link", { name: `${OTHER_TESTBED} (1 run)` }).click();
    await expect(page.getByTestId("single-run")).toContainText("A trend needs at least 2 runs; these filters match 1");
  });

  test("the overview and history count benchmarks, show the testbed and no aggregate of dashes", async ({ page }) => {
    await page.goto(`/projects/${slug}`);
    await expect(page.getByRole("heading", { name: "Benchmarks" })).toBeVisible();
    await expect(page.getByTestId("aggregate-row")).toHaveCount(0);
    await expect(page.getByTestId("endpoints-table")).toContainText("ops/s");
    await expect(page.getByTestId("recent-runs").locator("tr").first()).toContainText("3");

    await page.goto(`/projects/${slug}/runs`);
    await expect(page.getByRole("columnheader", { name: "Benchmarks" })).toBeVisible();
    await expect(page.getByTestId("history-testbed").first()).toHaveText(TESTBED);
    await lookAtEverySize(page, "history");
  });
});
