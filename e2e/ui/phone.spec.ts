import { expect, test } from "@playwright/test";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { WRITES_SCREENSHOTS, lookAt, expectNoSidewaysScroll } from "../helpers";

/**
 * A reviewer opens a comparison link, the incidents inbox, an incident or a run's page on a phone: at 375 px the
 * verdicts and the numbers they rest on (Δ, its CI and p, base → head) are on screen without scrolling
 * sideways, and at 1440 px the same cells are in their table, all columns in view. On the demo history
 * the e2e server loads first (playwright.config.ts).
 */
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1440, height: 900 };

/**
 * Every cell `cells` finds (at least one) is visible and wholly in view sideways: it has a box, lies
 * within the viewport, and no box that scrolls or clips (a table's scrolling frame) cuts it off. The
 * cells that are not, each with why.
 */
async function expectOnScreen(cells: Locator, what: string) {
  await expect(cells.first(), `no ${what} found`).toBeAttached();
  const offScreen = await cells.evaluateAll((elements) =>
    elements.flatMap((element, index) => {
      const name = `#${index + 1} "${(element as HTMLElement).innerText.replace(/\s+/g, " ").trim()}"`;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return [`${name}: has no box (not rendered)`];
      const span = `x ${Math.round(box.left)}…${Math.round(box.right)}`;
      const viewport = document.documentElement.clientWidth;
      if (box.left < -0.5 || box.right > viewport + 0.5) return [`${name}: ${span} lies outside the viewport's 0…${viewport}`];
      for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
        if (getComputedStyle(ancestor).overflowX === "visible") continue;
        const frame = ancestor.getBoundingClientRect();
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) {
          return [`${name}: ${span} is cut off by a scrolling ${ancestor.tagName.toLowerCase()} at x ${Math.round(frame.left)}…${Math.round(frame.right)}`];
        }
      }
      return [];
    }),
  );
  expect(offScreen, `${what} off screen at ${cells.page().viewportSize()?.width} px`).toEqual([]);
}

/** `[data-column=…]` cells of the rows `rows` finds. */
function cellsOf(rows: Locator, column: string): Locator {
  return rows.locator(`[data-column="${column}"]`);
}

/** Screenshots to look at (E2E_SCREENSHOTS=1): light and dark, 375 and 1440 px; four full pages take a while. */
async function screenshots(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  test.slow();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.reload();
    await expect(page.locator("html")).toHaveClass(colorScheme === "dark" ? /dark/ : /^(?!.*dark)/);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await expectNoSidewaysScroll(page, name);
      await lookAt(page, `${name}-${viewport.width}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** A run of the demo whose CI gate found regressions against its baseline: the newest one, asked of the API. */
async function runWithGateRegressions(request: APIRequestContext, slug: string): Promise<string> {
  const runs = (await (await request.get(`/api/v1/projects/${slug}/runs?limit=30`)).json()) as { runs: { id: string }[] };
  for (const { id } of runs.runs) {
    const gate = (await (await request.get(`/api/v1/projects/${slug}/runs/${id}/verdict`)).json()) as {
      comparison: { regressions: unknown[] };
    };
    if (gate.comparison.regressions.length > 0) return id;
  }
  throw new Error(`none of ${slug}'s 30 newest runs has a regression in its gate: the demo's slowdown on main should give some`);
}

for (const { slug, query } of [
  { slug: "listings-demo", query: "base=label:baseline&head=label:ManagedAsync&tool=k6" },
  { slug: "listings-grpc-demo", query: "base=label:baseline&head=label:ManagedAsync" },
]) {
  test(`${slug}'s comparison: every verdict, Δ, CI, p and base → head is on screen at 375 px, and in its table at 1440 px`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(`/projects/${slug}/compare?${query}`);
    await expect(page.getByTestId("compare-verdict")).toContainText("Head is worse than base.");
    const rows = page.getByTestId("compare-row");
    await expect(page.getByRole("columnheader", { name: "Verdict" })).toBeHidden();
    for (const column of ["verdict", "delta", "ci", "p", "base", "head", "metric"]) {
      await expectOnScreen(cellsOf(rows, column), `compare ${column}`);
    }
    // Each endpoint's card is headed by its name.
    await expectOnScreen(page.getByTestId("compare-group").locator('[data-column="endpoint"]:not(:empty)'), "compare endpoint");
    await expectNoSidewaysScroll(page, "the compare page");

    await page.setViewportSize(DESKTOP);
    await expect(page.getByRole("columnheader", { name: "Verdict" })).toBeVisible();
    for (const column of ["verdict", "delta", "p"]) await expectOnScreen(cellsOf(rows, column), `compare ${column} at 1440 px`);
    await screenshots(page, `phone-compare-${slug}`);
  });
}

test("the incidents inbox: each incident's state, largest Δ and before → after, and each regression's Δ, p and levels are on screen at 375 px, and in view at 1440 px", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto("/projects/listings-demo/incidents");
  const incidents = page.getByTestId("incident-row");
  await expect(incidents.first()).toBeVisible();
  await expectOnScreen(incidents.getByTestId("incident-state"), "incident state");
  for (const column of ["delta", "values", "first-run", "changed"]) await expectOnScreen(cellsOf(incidents, column), `incident ${column}`);
  await incidents.first().getByRole("button", { name: /Show its \d+ regressions/ }).click();
  const rows = incidents.first().getByTestId("incident-regression");
  await expect(page.getByRole("columnheader", { name: "Δ" })).toBeHidden();
  for (const column of ["endpoint", "metric", "delta", "p", "values", "returned"]) {
    await expectOnScreen(cellsOf(rows, column), `inbox regression ${column}`);
  }
  await expectNoSidewaysScroll(page, "the inbox");

  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole("columnheader", { name: "Δ" }).first()).toBeVisible();
  for (const column of ["delta", "values", "changed"]) await expectOnScreen(cellsOf(incidents, column), `incident ${column} at 1440 px`);
  for (const column of ["delta", "p", "links"]) await expectOnScreen(cellsOf(rows, column), `inbox regression ${column} at 1440 px`);
  await screenshots(page, "phone-inbox");
});

test("an incident's page: its state, each regression's Δ, p and levels, and its history are on screen at 375 px", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/projects/listings-demo/incidents/1");
  await expectOnScreen(page.getByTestId("incident-state"), "incident state");
  const rows = page.getByTestId("incident-regression");
  for (const column of ["endpoint", "metric", "delta", "p", "values", "returned", "links"]) {
    await expectOnScreen(cellsOf(rows, column), `incident regression ${column}`);
  }
  await expectOnScreen(page.getByTestId("incident-event"), "history event");
  await expectNoSidewaysScroll(page, "the incident page");

  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole("columnheader", { name: "Δ" })).toBeVisible();
  for (const column of ["delta", "p", "links"]) await expectOnScreen(cellsOf(rows, column), `incident regression ${column} at 1440 px`);
  await screenshots(page, "phone-incident");
});

test("a run's page: the gate's outcome, each regression's Δ, p and baseline → this run, and each endpoint's numbers are on screen at 375 px", async ({
  page,
  request,
}) => {
  const slug = "listings-demo";
  const id = await runWithGateRegressions(request, slug);
  await page.setViewportSize(PHONE);
  await page.goto(`/projects/${slug}/runs/${id}`);
  await expectOnScreen(page.getByTestId("outcome-badge"), "the gate's outcome");
  const regressions = page.getByTestId("gate-change");
  for (const column of ["endpoint", "metric", "delta", "status", "base", "head"]) {
    await expectOnScreen(cellsOf(regressions, column), `gate regression ${column}`);
  }
  const endpoints = page.getByTestId("endpoint-row").or(page.getByTestId("aggregate-row"));
  for (const column of ["name", "count", "rps", "p50", "p95", "p99", "max", "errorRate"]) {
    await expectOnScreen(cellsOf(endpoints, column), `endpoint ${column}`);
  }
  await expectNoSidewaysScroll(page, "the run page");

  // The phone's sort menu sorts the same rows the headers do, in the URL.
  await page.getByLabel("Sort by").selectOption("p95");
  await expect(page).toHaveURL(/[?&]sort=p95&dir=desc/);
  const p95s = await cellsOf(page.getByTestId("endpoint-row"), "p95").allInnerTexts();
  const values = p95s.map((text) => Number(text.replace(/[^\d.]/g, "")));
  expect(values).toEqual([...values].sort((a, b) => b - a));

  await page.setViewportSize(DESKTOP);
  await expect(page.getByLabel("Sort by")).toBeHidden();
  await expect(page.getByRole("button", { name: "P95" })).toBeVisible();
  for (const column of ["delta", "status"]) await expectOnScreen(cellsOf(regressions, column), `gate change ${column} at 1440 px`);
  for (const column of ["p95", "errorRate"]) await expectOnScreen(cellsOf(endpoints, column), `endpoint ${column} at 1440 px`);
  await screenshots(page, "phone-run");
});
