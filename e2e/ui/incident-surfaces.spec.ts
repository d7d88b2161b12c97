import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun } from "../helpers";

/**
 * One step on main, seen from every page that shows its series: the overview's trend column names the
 * incident (and stops naming it once it is accepted), the run where it started says so, a later run's
 * gate links it, the trend's marker links it, and Settings' alert precision counts it once it is closed.
 */
const slug = uniqueSlug("incident-pages");
const NOISE = [0.1, -0.1, 0.2, -0.2, 0, 0.15, -0.15, 0.05, -0.05, 0.1];
// 20 nightly runs at p95 ≈ 20 ms, then 8 at ≈ 26 ms (+30%); Search stays at ≈ 8 ms.
const SERIES = Array.from({ length: 28 }, (_, index) => (index < 20 ? 20 : 26) + NOISE[index % NOISE.length]!);

function nightly(p95: number, hour: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "loadgen",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    endpoints: [
      { name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95, p99: p95 * 1.5 } },
      { name: "Search", requests: 1000, failures: 0, latency: { unit: "ms", p50: 4, p95: 8 + NOISE[hour % NOISE.length]! / 2, p99: 12 } },
    ],
  });
}

interface IncidentAnswer {
  number: number;
  state: string;
  firstRun: { id: string };
}

const runUrls: string[] = [];
let incident: IncidentAnswer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  for (const [hour, p95] of SERIES.entries()) runUrls.push((await uploadRun(request, slug, nightly(p95, hour), { branch: "main" })).url);
  // Change-point detection is a background job after each upload: the incident opens a moment later.
  await expect(async () => {
    const answer = await request.get(`/api/v1/projects/${slug}/incidents`);
    const incidents = (await answer.json()) as IncidentAnswer[];
    expect(incidents).toHaveLength(1);
    incident = incidents[0]!;
  }).toPass({ timeout: 60_000 });
});

const VIEWPORTS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "375", width: 375, height: 812 },
] as const;

/** Screenshots to look at (E2E_SCREENSHOTS=1) of the page as it is, light and dark, 1440 and 375 px wide. */
async function screenshots(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of VIEWPORTS) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.reload();
      // Charts and sparklines draw after hydration (their containers measure themselves).
      await page.waitForTimeout(1000);
      await lookAt(page, `${name}-${colorScheme}-${viewport.name}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

const rowOf = (page: Page, endpoint: string) =>
  page.getByTestId("endpoints-table").locator("tr").filter({ has: page.getByRole("link", { name: endpoint, exact: true }) });

test("the overview names the open incident on the endpoint it moved, and no 'no sig. change' beside it", async ({ page }) => {
  expect(incident).toMatchObject({ number: 1, state: "open" });
  await page.goto(`/projects/${slug}`);
  const trend = rowOf(page, "GetListing").getByTestId("trend");
  const badge = trend.getByTestId("trend-incident");
  await expect(badge).toHaveText(/^Incident #1 · \+(2\d|3\d)\.\d% p95$/);
  await expect(badge).toHaveAttribute("href", `/projects/${slug}/incidents/1`);
  await expect(trend).not.toContainText("no sig. change");
  // Against the level before the step, the latest run is worse.
  await expect(trend).toContainText("↑");
  await expect(trend).toHaveAttribute("title", /before incident #1/);
  // Search did not move.
  await expect(rowOf(page, "Search").getByTestId("trend-incident")).toHaveCount(0);
  await expect(page.getByTestId("open-regressions-banner")).toContainText("1 active incident");
  await screenshots(page, "incident-overview");
});

test("the run where the incident started says so; a later run's gate links it", async ({ page }) => {
  const startUrl = runUrls.find((url) => url.endsWith(`/runs/${incident.firstRun.id}`));
  expect(startUrl).toBeDefined();
  await page.goto(startUrl!);
  const banner = page.getByTestId("run-incident-start");
  await expect(banner).toContainText(/^This run is where incident #1 started: \S+ of GetListing \+\d+\.\d%/);
  await expect(banner).toContainText("Open");
  await expect(banner.getByRole("link")).toHaveAttribute("href", `/projects/${slug}/incidents/1`);
  await screenshots(page, "incident-run-start");

  await page.goto(runUrls.at(-1)!);
  await expect(page.getByTestId("run-incident-start")).toHaveCount(0);
  const notes = page.getByTestId("gate-notes");
  await expect(notes).toContainText(/open regression on this series: .*incident #1; runs are judged against the level before it/);
  await expect(notes.getByTestId("gate-incident-link").first()).toHaveAttribute("href", `/projects/${slug}/incidents/1`);
});

test("the trend's marker of the step names the incident and links to it", async ({ page }) => {
  await page.goto(`/projects/${slug}/endpoints/GetListing`);
  const link = page.getByTestId("trend-marker-legend").first().getByTestId("trend-marker-link");
  await expect(link).toHaveText(/^◆ Incident #1 \(Open\): p\d+ \+\d+\.\d%/);
  await expect(link).toHaveAttribute("href", `/projects/${slug}/incidents/1`);
  await screenshots(page, "incident-trend-marker");
});

test("accepted: the overview names no incident and the new level is its reference; alert precision counts it", async ({ page, request }) => {
  await page.goto(`/projects/${slug}/settings`);
  await expect(page.getByTestId("alert-precision-headline")).toHaveText(
    "Alert precision: not measured yet. No incident closed yet (1 still open or investigating): precision is measured on closed incidents.",
  );

  const answer = await request.patch(`/api/v1/projects/${slug}/incidents/1`, {
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Content-Type": "application/json" },
    data: { state: "accepted", by: "e2e" },
  });
  expect(answer.status()).toBe(200);

  await page.goto(`/projects/${slug}`);
  const trend = rowOf(page, "GetListing").getByTestId("trend");
  await expect(trend).toBeVisible();
  await expect(trend.getByTestId("trend-incident")).toHaveCount(0);
  await expect(trend).toHaveAttribute("title", /since accepted incident #1/);
  await expect(page.getByTestId("open-regressions-banner")).toHaveCount(0);

  await page.goto(`/projects/${slug}/settings`);
  await expect(page.getByTestId("alert-precision-headline")).toHaveText("Alert precision: 1 valid / 0 invalid of 1 closed (100.0%, 95% CI 20.7–100%)");
  await expect(page.getByTestId("precision-by-version").locator("tr")).toHaveCount(1);
  await expect(page.getByTestId("precision-by-month").locator("tr")).toHaveCount(1);
  await screenshots(page, "incident-alert-precision");
});
