import { expect, test, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun } from "../helpers";

// Deleting (issue 39, item 5) in Chromium: a run from its page (after a confirmation), then the project
// from Settings' danger zone, whose button waits for the project's name; the audit log and the retention
// preview on the way.

function nightly(p95: number, day: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 9, day, 9)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
  });
}

/** With E2E_SCREENSHOTS=1: the page in light and dark, at desktop and phone widths. */
async function lookEveryWay(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await lookAt(page, `${name}-${colorScheme}-${viewport.width}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("an admin deletes a run from its page, sees it in the audit log, then deletes the project by typing its name", async ({ page, request }) => {
  const slug = uniqueSlug("delete-ui");
  const runs = [];
  for (const [day, p95] of [20, 21, 19].entries()) runs.push(await uploadRun(request, slug, nightly(p95, day + 1), { branch: "main" }));
  const doomed = runs[1]!;

  await page.goto(`/projects/${slug}/settings`);
  await page.getByTestId("admin-token-input").fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Unlock settings" }).click();
  await expect(page.getByTestId("danger-zone")).toBeVisible();

  // The run page: a confirmation first; Cancel keeps the run.
  await page.goto(`/projects/${slug}/runs/${doomed.id}`);
  const actions = page.getByTestId("run-admin-actions");
  await actions.getByRole("button", { name: "Delete run…" }).click();
  await expect(page.getByTestId("delete-run-confirm")).toContainText("Delete this run");
  await lookEveryWay(page, "delete-run-confirm");
  await actions.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("delete-run-confirm")).toHaveCount(0);
  await actions.getByRole("button", { name: "Delete run…" }).click();
  await actions.getByRole("button", { name: "Delete run", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}/runs$`));
  expect((await request.get(`/api/v1/projects/${slug}/runs/${doomed.id}`)).status()).toBe(404);
  const listed = (await (await request.get(`/api/v1/projects/${slug}/runs`)).json()) as { runs: { id: string }[] };
  expect(listed.runs.map((run) => run.id).sort()).toEqual([runs[0]!.id, runs[2]!.id].sort());

  // Settings: the audit log names the deletion; the retention preview counts before saving.
  await page.goto(`/projects/${slug}/settings`);
  await expect(page.getByTestId("audit-list")).toContainText("admin session deleted a run");
  await page.getByLabel("keep newest runs per series").fill("1");
  await expect(page.getByTestId("retention-preview")).toHaveText("This rule would delete 1 of 2 runs now.");

  // The danger zone: disabled until the name is typed.
  const zone = page.getByTestId("danger-zone");
  const button = zone.getByRole("button", { name: "Delete this project" });
  await expect(button).toBeDisabled();
  await zone.getByTestId("delete-project-confirm").fill(`${slug}-nope`);
  await expect(button).toBeDisabled();
  await zone.getByTestId("delete-project-confirm").fill(slug);
  await expect(button).toBeEnabled();
  await lookEveryWay(page, "delete-settings");
  await button.click();
  await expect(page).toHaveURL(/\/$/);
  expect((await request.get(`/api/v1/projects/${slug}`)).status()).toBe(404);
  // Its audit entries outlive it (the admin's).
  const audit = await request.get(`/api/v1/projects/${slug}/audit`, { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  const { entries } = (await audit.json()) as { entries: { action: string }[] };
  expect(entries.map((entry) => entry.action)).toEqual(["project.delete", "run.delete"]);
});
