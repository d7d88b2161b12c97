import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { WRITES_SCREENSHOTS, fixture, lookAt, uniqueSlug, uploadRun } from "../helpers";

/**
 * Settings → Tokens (issue 40, item 4): an admin makes a token with the read scope besides upload and a
 * 90-day expiry; the secret is shown once with the curl to run; the list shows its scopes, expiry, last
 * use and maker, and its last use once CI has uploaded with it.
 */
test("an admin makes a scoped, expiring token in Settings; the list shows its scopes, expiry, maker and last use", async ({ page, request }) => {
  const slug = uniqueSlug("tokens");
  await uploadRun(request, slug, fixture("k6/baseline/round1/summary.json"));

  await page.goto(`/projects/${slug}/settings`);
  await page.getByTestId("admin-token-input").fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Unlock settings" }).click();
  const panel = page.getByTestId("tokens-panel");
  await expect(panel).toBeVisible();
  await expect(panel).toContainText("No tokens yet.");

  // Each scope says what it opens; upload alone is ticked.
  await expect(panel.getByLabel(/upload — upload runs, post markers and annotations/)).toBeChecked();
  await expect(panel.getByLabel(/read — read this project, make share links/)).not.toBeChecked();
  await expect(panel.getByLabel(/triage — read this project, post markers and annotations, triage incidents/)).not.toBeChecked();

  await panel.getByTestId("token-name").fill("pr-bot");
  await panel.getByTestId("token-scope-read").check();
  await panel.getByTestId("token-expiry").selectOption("90");
  await panel.getByRole("button", { name: "Create token" }).click();
  const secret = await panel.getByTestId("new-token").textContent();
  expect(secret).toMatch(/^bt_/);
  await expect(panel.getByTestId("new-token-snippet")).toContainText(`export BENCHTRACK_TOKEN=${secret}`);
  await expect(panel.getByTestId("new-token-snippet")).toContainText(`/api/v1/projects/${slug}/runs?label=baseline&branch=main`);

  const row = panel.getByTestId("token-row").filter({ hasText: "pr-bot" });
  await expect(row.getByText("upload", { exact: true })).toBeVisible();
  await expect(row.getByText("read", { exact: true })).toBeVisible();
  await expect(row.getByTestId("token-expiry-text")).toHaveText("expires in 2 mo");
  await expect(row.getByTestId("token-last-use")).toHaveText("never used");
  await expect(row).toContainText("by admin session");

  // A name taken by a live token: refused, naming it.
  await panel.getByRole("button", { name: "Create token" }).click();
  await expect(panel.getByRole("alert")).toContainText('already has a live token named "pr-bot"');

  // CI uploads with it: its last use shows.
  const upload = await request.post(`/api/v1/projects/${slug}/runs?label=pr`, {
    data: fixture("k6/baseline/round2/summary.json"),
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(upload.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("token-row").filter({ hasText: "pr-bot" }).getByTestId("token-last-use")).toHaveText("last used just now");

  if (WRITES_SCREENSHOTS) {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.reload();
      await expect(page.getByTestId("token-row").first()).toBeVisible();
      await lookAt(page.getByTestId("tokens-panel"), `tokens-${colorScheme}`);
    }
  }
});
