import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { E2E_OIDC_BASE_URL, E2E_OIDC_ISSUER } from "../../playwright.config";
import { WRITES_SCREENSHOTS, lookAt } from "../helpers";

/**
 * Signing in with the team's identity provider (issue 40): a real OpenID Connect provider (oidc-provider,
 * started by `npm run oidc:dev`, the "identity provider" of playwright.config.ts's E2E_SERVERS) and a
 * Benchtrack configured for it (the "oidc" server: admins by the group bench-admins, only example.com
 * emails admitted). Chromium goes through the provider's own login page and back.
 */
test.use({ baseURL: E2E_OIDC_BASE_URL });

async function signInAs(page: Page, name: RegExp): Promise<void> {
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Sign in with the local provider" }).click();
  await expect(page).toHaveURL(new RegExp(`^${E2E_OIDC_ISSUER.replaceAll(".", "\\.")}/interaction/`));
  await page.getByRole("button", { name }).click();
}

test("the sign-in page offers the identity provider first, and the token form", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByRole("link", { name: "Sign in with the local provider" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sign in with a token" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with the token" })).toBeVisible();
});

test("a person signs in through the provider's login page, is named in the header, and signs out", async ({ page }) => {
  await signInAs(page, /Ada Lovelace/);
  await expect(page).toHaveURL(`${E2E_OIDC_BASE_URL}/`);
  const person = page.getByTestId("signed-in-person");
  await expect(person).toContainText("Ada Lovelace");
  // In the group bench-admins: a server admin.
  await expect(person).toContainText("admin");
  await expect(person).toHaveAttribute("title", "ada@example.com");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?signed-out=1$/);
  await expect(page.getByTestId("signed-in-person")).toHaveCount(0);
});

test("one the server does not admit is refused with a page that says why", async ({ page }) => {
  await signInAs(page, /Linus Guest/);
  await expect(page).toHaveURL(/\/sign-in\?error=oidc-domain$/);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "Your email address's domain is not one this Benchtrack admits. Ask its administrator, or sign in with another account.",
  );
  await expect(page.getByTestId("signed-in-person")).toHaveCount(0);
});

test("a forged answer from the provider is refused, never a 500", async ({ page }) => {
  const response = await page.goto("/api/auth/oidc/callback?code=forged&state=forged");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/sign-in\?error=oidc-no-attempt$/);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This sign-in is not one this browser started");
});

/**
 * Light and dark, written only with E2E_SCREENSHOTS=1: the choice, the provider's page, signed in, a
 * refusal. A browser of its own for each scheme: the provider remembers who signed in there.
 */
test("screenshots", async ({ browser }) => {
  test.skip(!WRITES_SCREENSHOTS, "E2E_SCREENSHOTS=1 writes them");
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ baseURL: E2E_OIDC_BASE_URL, colorScheme });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await lookAt(page, `oidc-sign-in-choice-${colorScheme}`);
    await page.getByRole("link", { name: "Sign in with the local provider" }).click();
    await expect(page.getByRole("button", { name: /Ada Lovelace/ })).toBeVisible();
    await lookAt(page, `oidc-provider-login-${colorScheme}`);
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await expect(page.getByTestId("signed-in-person")).toContainText("Ada Lovelace");
    await lookAt(page, `oidc-signed-in-${colorScheme}`, { viewportOnly: true });
    await context.close();
    const refused = await browser.newContext({ baseURL: E2E_OIDC_BASE_URL, colorScheme });
    const refusedPage = await refused.newPage();
    await signInAs(refusedPage, /Linus Guest/);
    await expect(refusedPage.getByRole("main").getByRole("alert")).toBeVisible();
    await lookAt(refusedPage, `oidc-refused-${colorScheme}`);
    await refused.close();
  }
});
