import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { formatMs } from "../../server/domain/format";
import { GHZ_METHODS, WRITES_SCREENSHOTS, fixture, ghzRound, lookAt, uniqueSlug, uploadFiles, uploadRun } from "../helpers";

/**
 * Home cards, project overview and run history on one project seeded through the public upload API:
 * k6 summaries of the baseline and ManagedAsync rounds 1-3, then the ghz reports of the same rounds
 * (one multipart run per round). Started times are one day apart, so "newest first" is known.
 */
const slug = uniqueSlug("hist");
const VARIANTS = [
  { variant: "baseline", label: "baseline", branch: "main" },
  { variant: "managedasync", label: "ManagedAsync", branch: "feature/managed-async" },
] as const;
const ROUNDS = [1, 2, 3] as const;
const COMMIT = "9f1c2e7aa0b1c2d3e4f5";

interface SeededRun {
  id: string;
  tool: "k6" | "ghz";
  label: string;
  round: number;
  startedAt: string;
}
const seeded: SeededRun[] = [];

const day = (index: number) => `2026-11-${String(index + 1).padStart(2, "0")}T10:00:00Z`;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  let index = 0;
  for (const tool of ["k6", "ghz"] as const) {
    for (const { variant, label, branch } of VARIANTS) {
      for (const round of ROUNDS) {
        const startedAt = day(index++);
        const query = { label, round: String(round), branch, commit: COMMIT, started_at: startedAt, "attr.variant": variant };
        const answer =
          tool === "k6"
            ? await uploadRun(request, slug, fixture(`k6/${variant}/round${round}/summary.json`), { ...query, format: "k6" })
            : await uploadFiles(request, slug, ghzRound(variant, round), query);
        seeded.push({ id: answer.id, tool, label, round, startedAt });
      }
    }
  }
});

/** The p95 of a ghz report (latencyDistribution, in ns) as the overview shows it. */
function ghzP95(variant: string, round: number, method: string): string {
  const report = JSON.parse(fixture(`ghz/${variant}/round${round}/${method}.json`).toString("utf8")) as {
    latencyDistribution: { percentage: number; latency: number }[];
  };
  const p95 = report.latencyDistribution.find((entry) => entry.percentage === 95);
  return formatMs(p95 ? p95.latency / 1e6 : null);
}

const VIEWPORTS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "375", width: 375, height: 812 },
] as const;

/** Screenshots to look at (E2E_SCREENSHOTS=1) of `url`, light and dark, 1440 and 375 px wide. */
async function screenshots(page: Page, name: string, url: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of VIEWPORTS) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(url);
      await expect(page.locator("html")).toHaveClass(colorScheme === "dark" ? /dark/ : /^(?!.*dark)/);
      // Sparklines draw after hydration (their container measures itself).
      await page.waitForLoadState("networkidle");
      await lookAt(page, `${name}-${colorScheme}-${viewport.name}`);
    }
  }
}

test("the home card shows the run count and the last run", async ({ page }) => {
  await page.goto("/");
  const card = page.getByTestId("project-card").filter({ hasText: slug });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("run-count")).toHaveText("12 runs");
  await expect(card.getByTestId("last-run")).toContainText("ManagedAsync");
  await expect(card.getByTestId("last-run")).toContainText("feature/managed-async");
  await expect(card.getByTestId("sparkline")).toBeVisible();
  await screenshots(page, "home-cards", "/");
});

test("the overview lists the ghz endpoints with their latest p95 and the recent runs", async ({ page }) => {
  const response = await page.goto(`/projects/${slug}`);
  // Server-rendered: the first HTML already has the numbers.
  const html = (await response?.text()) ?? "";
  expect(html).toContain(ghzP95("managedasync", 3, "GetListing"));

  const rows = page.getByTestId("endpoints-table").locator("tr");
  for (const method of GHZ_METHODS) {
    const row = rows.filter({ has: page.getByRole("link", { name: method, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("p95")).toHaveText(ghzP95("managedasync", 3, method));
    await expect(row.getByRole("link", { name: method, exact: true })).toHaveAttribute(
      "href",
      `/projects/${slug}/endpoints/${encodeURIComponent(method)}?protocol=grpc`,
    );
    // The trend arrow explains itself, on the latest run's series only (not the baseline ghz rounds on main, nor k6).
    await expect(row.getByTestId("trend")).toHaveAttribute(
      "title",
      /Latest p95 .* vs median .* of the previous 2 runs of this series: .*Series: ghz · ManagedAsync · feature\/managed-async\./,
    );
  }
  await expect(page.getByTestId("aggregate-row")).toContainText("All endpoints");

  const recent = page.getByTestId("recent-runs").locator("tr");
  await expect(recent).toHaveCount(10);
  const newest = seeded.at(-1)!;
  await expect(recent.first()).toContainText("ManagedAsync");
  await expect(recent.first().getByRole("link")).toHaveAttribute("href", `/projects/${slug}/runs/${newest.id}`);
  await expect(page.getByRole("link", { name: "All runs →" })).toHaveAttribute("href", `/projects/${slug}/runs`);
  await screenshots(page, "overview", `/projects/${slug}`);
});

test("history: newest first, filters in the URL, and a Compare link for two selected runs", async ({ page }) => {
  await page.goto(`/projects/${slug}/runs`);
  const rows = page.getByTestId("history-rows").locator("tr");
  await expect(rows).toHaveCount(12);
  const newestFirst = [...seeded].reverse();
  for (const [index, run] of newestFirst.entries()) {
    await expect(rows.nth(index)).toHaveAttribute("data-run-id", run.id);
  }
  await expect(rows.first()).toContainText("9f1c2e7");
  // The CI outcome each upload answered: k6 ManagedAsync rounds failed their own thresholds; ghz
  // ManagedAsync rounds had no ManagedAsync runs on main to compare with: inconclusive, not pass.
  const outcomeOf = (tool: string, label: string, round: number) =>
    rows.nth(newestFirst.findIndex((run) => run.tool === tool && run.label === label && run.round === round)).getByTestId("history-outcome").locator("span");
  await expect(outcomeOf("k6", "ManagedAsync", 1)).toHaveText("✗ fail");
  await expect(outcomeOf("k6", "ManagedAsync", 1)).toHaveAttribute("title", /^At upload: 2 of 4 k6 thresholds failed: http_req_duration p\(95\)<35/);
  await expect(outcomeOf("ghz", "ManagedAsync", 3)).toHaveText("? inconclusive");
  await expect(outcomeOf("ghz", "baseline", 1)).toHaveAttribute("title", /^At upload: too little history: no earlier ghz runs labelled baseline on main/);

  // Filter by label: a GET form, landing on the clean URL.
  await page.getByLabel("Label").selectOption("baseline");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}/runs\\?label=baseline$`));
  await expect(rows).toHaveCount(6);
  await expect(rows.filter({ hasText: "ManagedAsync" })).toHaveCount(0);

  // More filters: tool and an attribute, typed as key=value.
  await page.getByLabel("Tool").selectOption("ghz");
  await page.getByLabel("Attribute").fill("variant=baseline");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\?label=baseline&tool=ghz&attr\.variant=baseline$/);
  await expect(rows).toHaveCount(3);

  // Nothing matches: the empty state says how to get out.
  await page.goto(`/projects/${slug}/runs?label=baseline&from=2030-01-01`);
  await expect(page.getByText("No runs match these filters")).toBeVisible();
  await page.getByRole("status").getByRole("link", { name: "clear filters" }).click();
  await expect(rows).toHaveCount(12);

  // Select two runs (newer first): the older is the base, the newer the head.
  const [older, newer] = [seeded[0]!, seeded[4]!];
  await page.locator(`tr[data-run-id="${newer.id}"] input[type=checkbox]`).check();
  await expect(page.getByTestId("compare-link")).toHaveCount(0);
  await page.locator(`tr[data-run-id="${older.id}"] input[type=checkbox]`).check();
  await expect(page.getByTestId("compare-link")).toHaveAttribute(
    "href",
    `/projects/${slug}/compare?base=${older.id}&head=${newer.id}`,
  );
  await expect(page.getByTestId("selection-count")).toHaveText("2 selected");

  // Screenshots with the page as a reviewer would leave it: two runs selected on the full list.
  if (WRITES_SCREENSHOTS) {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const viewport of VIEWPORTS) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await lookAt(page, `history-${colorScheme}-${viewport.name}`);
      }
    }
  }
});

test("history says so when the URL has a bad value, and still shows runs", async ({ page }) => {
  await page.goto(`/projects/${slug}/runs?tool=k6&from=2026-02-31&cursor=nonsense`);
  await expect(page.getByText("from=2026-02-31 ignored: not a calendar date")).toBeVisible();
  await expect(page.getByText("The page cursor was not valid")).toBeVisible();
  await expect(page.getByTestId("history-rows").locator("tr")).toHaveCount(6);
});
