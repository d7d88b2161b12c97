import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN, E2E_PRIVATE_BASE_URL, E2E_READ_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug } from "../helpers";

/**
 * Triage by incident: a step on main opens one incident (every series that stepped at that run); an
 * admin acknowledges it from the inbox in bulk, then accepts it on its page with a note and a link, and
 * its history says who did what. A reader of a private server sees the state and the history, and
 * "Sign in to triage" brings them back to the page they were on.
 */

const ENDPOINTS = ["GetListing", "SearchListings"];
/** 12 nightly runs around 20 ms p95, then 7 around 26 ms: one step, on both endpoints, at run 13. */
const SERIES = [
  20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3, 20.1, 19.9, 20.2, 20.0, 26.1, 26.4, 25.9, 26.3, 26.0, 26.2, 26.5,
];

function nightly(p95: number, hour: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    endpoints: ENDPOINTS.map((name, index) => ({
      name,
      requests: 1000,
      failures: 0,
      latency: { unit: "ms", p50: (p95 * (1 + index)) / 2, p95: p95 * (1 + index) },
    })),
  });
}

/** Uploads the series to `baseURL`'s server and waits for change-point detection (a background job) to open the incident. */
async function seedStep(request: APIRequestContext, baseURL: string, slug: string) {
  for (const [hour, p95] of SERIES.entries()) {
    const response = await request.post(`${baseURL}/api/v1/projects/${slug}/runs?branch=main`, {
      data: nightly(p95, hour),
      headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Content-Type": "application/json" },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  let incidents: { number: number; regressions: { id: string }[] }[] = [];
  await expect
    .poll(
      async () => {
        const response = await request.get(`${baseURL}/api/v1/projects/${slug}/incidents`, {
          headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
        });
        incidents = (await response.json()) as typeof incidents;
        return incidents.map((incident) => incident.number);
      },
      { timeout: 60_000, message: "detection should open incident #1" },
    )
    .toEqual([1]);
  return incidents[0]!;
}

async function signIn(page: Page, token: string) {
  await page.getByLabel("Token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function screenshots(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await lookAt(page, `${name}-${width}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("an admin acknowledges a step's incident from the inbox, then accepts it with a note and a link on its page", async ({
  page,
  request,
  baseURL,
}) => {
  test.slow();
  const slug = uniqueSlug("incidents");
  await seedStep(request, baseURL!, slug);

  // Signing in from a page's link comes back to that page.
  await page.goto(`/sign-in?next=${encodeURIComponent(`/projects/${slug}/incidents`)}`);
  await signIn(page, E2E_ADMIN_TOKEN);
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}/incidents$`));
  await expect(page.getByRole("link", { name: "Incidents", exact: true })).toHaveAttribute("aria-current", "page");

  // One row for the step, however many series moved.
  const rows = page.getByTestId("incident-row");
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText("Incident #1");
  await expect(row.getByTestId("incident-state")).toHaveText("Open");
  // Both endpoints stepped by about as much: either may come first (largest change first).
  await expect(row.getByTestId("incident-summary")).toContainText(
    /^(GetListing, SearchListings|SearchListings, GetListing) · \d+ changes/,
  );
  await expect(row.locator('[data-column="delta"]')).toHaveText(/^\+3\d\.\d%$/);
  await expect(page.getByTestId("incident-filter").filter({ hasText: "Active" })).toHaveText("Active 1");

  // Its regressions, on demand: each series that stepped, with its level before → after.
  await row.getByRole("button", { name: /Show its \d+ regressions/ }).click();
  const regressions = row.getByTestId("incident-regression");
  expect(await regressions.count()).toBeGreaterThanOrEqual(2);
  await expect(regressions.filter({ hasText: "GetListing" }).filter({ hasText: "p95" })).toContainText(
    /20\.\d ms → 26\.\d ms/,
  );
  await lookAt(page, "incidents-inbox-expanded");

  // Bulk: select, Acknowledge, read what it does to the gate, confirm.
  await page.getByRole("checkbox", { name: "Select incident #1" }).check();
  await expect(page.getByTestId("bulk-triage")).toContainText("1 selected");
  await page.getByRole("button", { name: "Acknowledge" }).click();
  const confirmation = page.getByTestId("triage-confirm");
  await expect(confirmation).toContainText("Acknowledge #1?");
  await expect(confirmation).toContainText("the CI gate still judges runs against the level before the step");
  await confirmation.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status").filter({ hasText: "#1: Investigating." })).toBeVisible();
  await expect(row.getByTestId("incident-state")).toHaveText("Investigating");
  await expect(row).toContainText("admin session");
  await expect(page.getByTestId("incident-filter").filter({ hasText: "Investigating" })).toHaveText("Investigating 1");

  // Its page: the state and what each does, the current one marked.
  await row.getByTestId("incident-link").click();
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}/incidents/1$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Incident #1");
  await expect(page.getByTestId("incident-origin")).toContainText("Opened at run nightly");
  const actions = page.getByTestId("incident-state-actions");
  await expect(actions.locator("[data-current]")).toContainText("current state");
  await expect(actions.locator("[data-current]")).toContainText("Investigating");

  // Accepted with a note, then a link.
  await actions.getByRole("button", { name: "Accept as the new normal" }).click();
  await expect(page.getByTestId("triage-confirm")).toContainText("Accept #1 as the new normal?");
  await page.getByTestId("triage-note").fill("The new search index costs 30%; worth it.");
  await page.getByTestId("triage-confirm").getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status").filter({ hasText: "#1: Accepted." })).toBeVisible();
  await expect(page.getByTestId("incident-state").first()).toHaveText("Accepted");
  await expect(page.getByTestId("incident-note-input")).toHaveValue("The new search index costs 30%; worth it.");

  await page.getByTestId("incident-link-input").fill("https://github.com/acme/shop/pull/12");
  await page.getByRole("button", { name: "Add link" }).click();
  const link = page.getByTestId("incident-links").getByRole("link", { name: "acme/shop#12" });
  await expect(link).toHaveAttribute("href", "https://github.com/acme/shop/pull/12");

  // The history: who did what, when, from → to, with the note and the link.
  const events = page.getByTestId("incident-event");
  await expect(events).toHaveCount(4);
  await expect(events.nth(0)).toContainText("Opened by detector");
  await expect(events.nth(1)).toContainText("Open → Investigating by admin session");
  await expect(events.nth(2)).toContainText("Investigating → Accepted by admin session");
  await expect(events.nth(2)).toContainText("Note: The new search index costs 30%; worth it.");
  await expect(events.nth(3)).toContainText("Links: https://github.com/acme/shop/pull/12");
  await screenshots(page, "incident-page-admin");

  // Accepted is closed: no longer active, listed under Accepted.
  await page.goto(`/projects/${slug}/incidents`);
  await expect(page.getByText("No active incidents")).toBeVisible();
  await page.getByTestId("incident-filter").filter({ hasText: "Accepted" }).click();
  await expect(page).toHaveURL(/[?&]state=accepted$/);
  await expect(page.getByTestId("incident-row").getByTestId("incident-state")).toHaveText("Accepted");
});

test("the inbox's older URL (/regressions) redirects permanently to /incidents, its query kept", async ({ request }) => {
  const slug = "listings-demo";
  const response = await request.get(`/projects/${slug}/regressions?state=all`, { maxRedirects: 0 });
  expect(response.status()).toBe(308);
  const location = new URL(response.headers()["location"]!, "http://localhost");
  expect(`${location.pathname}${location.search}`).toBe(`/projects/${slug}/incidents?state=all`);
});

test.describe("a reader of a private server", () => {
  test.use({ baseURL: E2E_PRIVATE_BASE_URL });

  test("sees the incident's state and history, and 'Sign in to triage' returns to its page", async ({
    page,
    request,
  }) => {
    test.slow();
    const slug = uniqueSlug("incidents-private");
    const incident = await seedStep(request, E2E_PRIVATE_BASE_URL, slug);
    const path = `/projects/${slug}/incidents/1`;

    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await signIn(page, E2E_READ_TOKEN);
    await expect(page).toHaveURL(new RegExp(`${path}$`));

    // Read-only: the state, what each state means, the history; nothing to press.
    await expect(page.getByTestId("incident-state").first()).toHaveText("Open");
    await expect(page.getByTestId("incident-state-actions")).toContainText(
      "Accepted as the new normal: the level after the step is the CI gate's baseline",
    );
    await expect(page.getByTestId("incident-state-actions").getByRole("button")).toHaveCount(0);
    await expect(page.getByTestId("incident-event")).toHaveCount(1);
    await expect(page.getByTestId("incident-link-input")).toHaveCount(0);
    await lookAt(page, "incident-page-reader");

    // The inbox too: rows, no checkboxes, the same way to sign in. A link to one regression (as webhooks
    // send) opens its incident's regressions at it, an older one (/regressions) by its permanent redirect.
    const regressionId = incident.regressions.at(-1)!.id;
    await page.goto(`/projects/${slug}/regressions#regression-${regressionId}`);
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/incidents#regression-${regressionId}$`));
    await expect(page.getByTestId("incident-row")).toHaveCount(1);
    await expect(page.locator(`#regression-${regressionId}`)).toBeInViewport();
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByTestId("sign-in-to-triage")).toHaveAttribute(
      "href",
      `/sign-in?next=${encodeURIComponent(`/projects/${slug}/incidents`)}`,
    );

    await page.goto(path);
    await page.getByTestId("sign-in-to-triage").click();
    await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(path)}`);
    await signIn(page, E2E_ADMIN_TOKEN);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByTestId("incident-state-actions").getByRole("button", { name: "Acknowledge" })).toBeVisible();
    await expect(page.getByTestId("sign-in-to-triage")).toHaveCount(0);
  });
});
