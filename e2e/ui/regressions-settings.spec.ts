import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun } from "../helpers";

function nightly(p95: number, hour: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
  });
}

test("a step on main shows up in the inbox as an incident, on the trend, and can be acknowledged with the admin token", async ({ page, request }) => {
  const slug = uniqueSlug("inbox");
  const series = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3, 20.1, 19.9, 20.2, 20.0, 26.1, 26.4, 25.9, 26.3, 26.0, 26.2, 26.5];
  let last: Awaited<ReturnType<typeof uploadRun>> | undefined;
  for (const [hour, p95] of series.entries()) last = await uploadRun(request, slug, nightly(p95, hour), { branch: "main" });
  expect(last).toBeDefined();

  // Change-point detection is a background job after each upload: the inbox fills a moment later.
  const incident = page.getByTestId("incident-row");
  await expect(async () => {
    await page.goto(`/projects/${slug}/incidents`);
    await expect(incident).toContainText("GetListing", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await expect(incident.getByTestId("incident-state")).toHaveText("Open");
  await incident.getByRole("button", { name: /Show its \d+ regressions?/ }).click();
  const row = incident.getByTestId("incident-regression").filter({ hasText: "p95" });
  await expect(row).toContainText("20.1 ms → 26.2 ms");
  await expect(row).toContainText(/\+30\.\d%/);
  await lookAt(page, "regressions-light");

  await row.getByRole("link", { name: /^Trend:/ }).click();
  await expect(page.getByTestId("latency-chart").locator(".trend-marker").first()).toBeAttached();

  await page.goto(`/projects/${slug}/settings`);
  await page.getByTestId("admin-token-input").fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Unlock settings" }).click();
  await expect(page.getByTestId("sla-editor")).toBeVisible();
  // The admin token signed the browser in (an httpOnly cookie): the page's scripts never hold it.
  const storage = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }) + document.cookie);
  expect(storage).not.toContain(E2E_ADMIN_TOKEN);
  expect((await page.context().cookies()).find((cookie) => cookie.name === "benchtrack_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  await page.getByRole("button", { name: "Add target" }).click();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Saved. Every run is now graded against this policy.")).toBeVisible();
  // The background work of this project: the detection jobs the uploads queued, all done.
  const jobs = page.getByTestId("jobs-panel");
  await expect(jobs.getByTestId("failed-jobs")).toHaveText("No job has failed for good.");
  // (Another job of the project, a trend rollup, may have finished after them and be listed first.)
  const detection = jobs.getByTestId("job-row").filter({ hasText: "change-point detection" }).first();
  await expect(detection).toBeVisible();
  await expect(detection).toContainText("completed");
  await lookAt(page, "settings-light");
  if (WRITES_SCREENSHOTS) {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(page.getByTestId("jobs-panel").getByTestId("job-row").first()).toBeVisible();
    await lookAt(page, "settings-dark");
    await page.emulateMedia({ colorScheme: "light" });
  }

  // Signed in as admin: the step's incident is acknowledged from the inbox (one incident, however many series).
  await page.goto(`/projects/${slug}/incidents`);
  await page.getByRole("checkbox", { name: "Select incident #1" }).check();
  await page.getByRole("button", { name: "Acknowledge" }).click();
  await page.getByTestId("triage-confirm").getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("incident-row").getByTestId("incident-state")).toHaveText("Investigating");
  await page.goto(`/projects/${slug}/incidents?state=investigating`);
  await expect(page.getByTestId("incident-row")).toContainText("Incident #1");

  // The SLA policy saved above (p95 <= 50 ms) grades the runs: the run page says why.
  await page.goto(last!.url);
  await expect(page.getByTestId("grade-badge")).toContainText("SLA A");
  await expect(page.getByTestId("sla-check").first()).toContainText("pass");
});
