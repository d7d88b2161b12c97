import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun } from "../helpers";

/**
 * Pages say what the CI gate knows (docs/statistics.md, "Series", the overview): main steps up and each
 * later run fails the gate, before change-point detection can confirm the step (it needs 6 runs after it).
 * Real go test -bench runs (scripts/seed/go-bench/runs): 9 of the package as it is, then 5 with JoinInts
 * made slower, each uploaded on main with its commit, one a day up to an hour ago. The overview's rows name
 * the gate's outcome, its banner says main fails since the first slower run, nothing reads "no significant
 * change", and the home card says main fails the gate.
 */
const slug = uniqueSlug("gate-pages");
const GO_RUNS = path.resolve(import.meta.dirname, "../../scripts/seed/go-bench/runs");
const FILES = [...Array.from({ length: 9 }, (_, index) => `baseline-${index + 1}.txt`), ...Array.from({ length: 5 }, (_, index) => `slow-joinints-${index + 1}.txt`)];
const JOIN_INTS = "example.com/microbench > BenchmarkJoinInts";
/**
 * The largest change the gate names, as the pages write it: the slower JoinInts' allocations (an exact count)
 * or its time/op. In a row: "+100,000.0% allocs/op"; with its name (banner, card): "… > BenchmarkJoinInts allocs/op +100,000.0%".
 */
const METRIC = "(mean time/op|allocs/op|B/op)";
const DELTA = String.raw`\+[\d,]+\.\d%`;
const NAMED_CHANGE = `${JOIN_INTS.replaceAll(".", "\\.")} ${METRIC} ${DELTA}`;
const commitOf = (index: number) => `${(0xc0ffee00 + index).toString(16)}aa51`;
const startOf = (index: number) => {
  const at = new Date(Date.now() - (FILES.length - index) * 86_400_000 - 3_600_000);
  at.setUTCMinutes(0, 0, 0);
  return at;
};

const runIds: string[] = [];
/** The outcome each upload answered. */
const outcomes: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  for (const [index, file] of FILES.entries()) {
    const answer = await uploadRun(request, slug, readFileSync(path.join(GO_RUNS, file)), {
      label: "nightly",
      branch: "main",
      commit: commitOf(index),
      started_at: startOf(index).toISOString(),
    });
    runIds.push(answer.id);
    outcomes.push((answer as unknown as { outcome: string }).outcome);
  }
});

const VIEWPORTS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "375", width: 375, height: 812 },
] as const;

/** Screenshots to look at (E2E_SCREENSHOTS=1) of `url`, light and dark, 1440 and 375 px wide; `element` also alone. */
async function screenshots(page: Page, name: string, url: string, element?: (page: Page) => ReturnType<Page["getByTestId"]>) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of VIEWPORTS) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(url);
      await expect(page.locator("html")).toHaveClass(colorScheme === "dark" ? /dark/ : /^(?!.*dark)/);
      // Sparklines draw after hydration (their container measures itself).
      await page.waitForLoadState("networkidle");
      await lookAt(page, `${name}-${colorScheme}-${viewport.name}`, { viewportOnly: !!element });
      if (element) await lookAt(element(page), `${name}-element-${colorScheme}-${viewport.name}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

const rowOf = (page: Page, name: string) =>
  page.getByTestId("endpoints-table").locator("tr").filter({ has: page.getByRole("link", { name, exact: true }) });

test("the overview says main fails the gate since the first slower run, on each row, and never 'no significant change'", async ({ page }) => {
  expect(outcomes.slice(-5)).toEqual(["fail", "fail", "fail", "fail", "fail"]);
  expect(outcomes.at(-6)).not.toBe("fail");

  await page.goto(`/projects/${slug}`);
  const banner = page.getByTestId("gate-failing-banner");
  await expect(banner).toBeVisible();
  const firstSlow = FILES.indexOf("slow-joinints-1.txt");
  const day = startOf(firstSlow).toISOString().slice(0, 10);
  await expect(banner.getByTestId("gate-failing-series")).toHaveText(
    new RegExp(`^main fails the gate since run ${day} \\d\\d:00 · ${commitOf(firstSlow).slice(0, 7)} \\(5 runs\\): ${NAMED_CHANGE}.* · no incident yet`),
  );
  await expect(banner.getByTestId("gate-failing-since")).toHaveAttribute("href", `/projects/${slug}/runs/${runIds[firstSlow]}`);
  await expect(page.getByTestId("open-regressions-banner")).toHaveCount(0);

  const joinInts = rowOf(page, JOIN_INTS).getByTestId("trend");
  await expect(joinInts.getByTestId("trend-gate")).toHaveText(new RegExp(`^Gate: fail · ${DELTA} ${METRIC}$`));
  await expect(joinInts.getByTestId("trend-gate")).toHaveAttribute("href", `/projects/${slug}/runs/${runIds.at(-1)}`);
  await expect(joinInts.getByTestId("trend-gate")).toHaveAttribute("title", /^The CI gate's answer to the latest run of go · nightly · main · linux\/amd64 · AMD EPYC .*: fail\. This benchmark: /);
  // Against the level before the failed runs (as the gate's baseline), the step is a change.
  await expect(joinInts.getByTestId("trend-arrow")).toHaveText(/^↑ \+\d+\.\d%/);

  // Every row says what the gate answered; none reads as settled.
  const rows = page.getByTestId("endpoints-table").locator("tr");
  await expect(rows).toHaveCount(7);
  for (const row of await rows.all()) await expect(row.getByTestId("trend-gate")).toHaveText(/^Gate: fail/);
  await expect(page.getByTestId("endpoints-table")).not.toContainText("no sig. change");
  await expect(page.getByText("no significant change")).toHaveCount(0);
  await expect(page.getByTestId("endpoints-table")).toContainText(`too few runs since the step on ${day} to tell (5 of 6)`);

  await screenshots(page, "gate-overview", `/projects/${slug}`);
});

test("the home card says main fails the gate, since when, and the largest change", async ({ page }) => {
  await page.goto("/");
  const card = page.getByTestId("project-card").filter({ hasText: slug });
  await expect(card.getByTestId("gate-chip-fail")).toHaveText("✗ main fails the gate");
  const firstSlow = FILES.indexOf("slow-joinints-1.txt");
  await expect(card.getByTestId("gate-failing-series")).toHaveText(
    new RegExp(`^go · nightly since ${startOf(firstSlow).toISOString().slice(0, 10)} \\(5 runs\\) · ${NAMED_CHANGE}$`),
  );
  await expect(card.getByTestId("gate-chip-pass")).toHaveCount(0);
  await screenshots(page, "gate-home", "/", (page) => page.getByTestId("project-card").filter({ hasText: slug }));
});

test("once main passes again, the banner goes and the card says so", async ({ page, request }) => {
  await uploadRun(request, slug, readFileSync(path.join(GO_RUNS, "baseline-8.txt")), {
    label: "nightly",
    branch: "main",
    commit: "f1eed0000001",
    started_at: new Date(Date.now() - 1_800_000).toISOString(),
  });
  await page.goto(`/projects/${slug}`);
  await expect(page.getByTestId("gate-failing-banner")).toHaveCount(0);
  await expect(rowOf(page, JOIN_INTS).getByTestId("trend-gate")).toHaveText(/^Gate: (pass|inconclusive)/);
  await page.goto("/");
  const card = page.getByTestId("project-card").filter({ hasText: slug });
  await expect(card.getByTestId("gate-chip-fail")).toHaveCount(0);
  await expect(card.getByTestId("gate-chip-pass").or(card.getByTestId("gate-chip-inconclusive"))).toBeVisible();
});
