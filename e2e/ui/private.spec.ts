import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN, E2E_PRIVATE_BASE_URL, E2E_READ_TOKEN } from "../../playwright.config";
import { fixture, lookAt, uniqueSlug } from "../helpers";

/**
 * A private server (BENCHTRACK_READ_TOKEN set; the "private" one of playwright.config.ts's E2E_SERVERS):
 * nothing answers with data without a session, a token or a share link, and a share link opens its
 * comparison in a fresh browser and nothing else.
 */
const slug = uniqueSlug("private");
const runIds: string[] = [];

test.use({ baseURL: E2E_PRIVATE_BASE_URL });

test.beforeAll(async ({ request }) => {
  for (const [index, variant] of (["baseline", "baseline", "managedasync"] as const).entries()) {
    const response = await request.post(
      `${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/runs?label=nightly&branch=${index < 2 ? "main" : "feature/x"}&started_at=2026-11-0${index + 1}T09:00:00Z`,
      {
        data: fixture(`k6/${variant}/round${index + 1}/summary.json`),
        headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Content-Type": "application/json" },
      },
    );
    expect(response.status()).toBe(201);
    runIds.push(((await response.json()) as { id: string }).id);
  }
});

test("nothing answers with data without credentials", async ({ page, request }) => {
  for (const path of ["/", `/projects/${slug}`, `/projects/${slug}/runs/${runIds[0]}`, `/projects/${slug}/endpoints/_all`]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in(\?|$)/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.getByText(slug)).toHaveCount(0);
  }
  const anonymous = (path: string) => request.get(`${E2E_PRIVATE_BASE_URL}${path}`, { maxRedirects: 0 });
  // The project list answers what the caller may read: here, no project (none is public).
  const list = await anonymous("/api/trpc/project.list");
  expect(list.status()).toBe(200);
  expect(await list.text()).not.toContain(slug);
  expect((await anonymous(`/api/v1/projects/${slug}/badge.svg`)).status()).toBe(401);
  expect((await anonymous(`/api/v1/projects/${slug}/runs`)).status()).toBe(401);
  const og = await anonymous(`/projects/${slug}/compare/og?base=${runIds[0]}&head=${runIds[2]}`);
  expect([303, 401]).toContain(og.status());
});

test("a share link opens its comparison in a fresh browser, and nothing else", async ({ browser, request }) => {
  const minted = await request.post(`${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/share-links`, {
    data: { compare: { base: `${runIds[0]},${runIds[1]}`, head: runIds[2] } },
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  expect(minted.status()).toBe(201);
  const { url, page: pageUrl } = (await minted.json()) as { url: string; page: string };
  // The short link (…/s/{id}) leads to the page, carrying the link's id.
  const short = new URL(url);
  const shared = new URL(pageUrl);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(short.pathname);
  await expect(page).toHaveURL(shared.toString());
  await expect(page.getByRole("heading", { level: 1, name: "Compare" })).toBeVisible();
  await expect(page.getByTestId("compare-verdict")).toBeVisible();
  await lookAt(page, "private-share-link");
  // Its preview image too, with the same token.
  const image = await context.request.get(`${E2E_PRIVATE_BASE_URL}/projects/${slug}/compare/og?base=${runIds[0]},${runIds[1]}&head=${runIds[2]}&share=${encodeURIComponent(shared.searchParams.get("share")!)}`);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toContain("image/png");

  // Anything else says it is outside the link (e2e/ui/sharing.spec.ts follows the runs it does open).
  await page.goto(`/projects/${slug}?share=${encodeURIComponent(shared.searchParams.get("share")!)}`);
  await expect(page.getByRole("heading", { name: "This page is outside the share link" })).toBeVisible();
  await expect(page.getByTestId("outcome-badge")).toHaveCount(0);
  await context.close();
});

test("signing in with the read token opens everything until signing out", async ({ page }) => {
  await page.goto(`/projects/${slug}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Token").fill("not-the-token-0123456789");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("That token is not valid")).toBeVisible();
  await page.getByLabel("Token").fill(E2E_READ_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}$`));
  await expect(page.getByTestId("aggregate-row")).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === "benchtrack_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  await lookAt(page, "private-signed-in");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?signed-out=1/);
  await page.goto(`/projects/${slug}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
});

// Issue 36, item 7: a page path that ends like a file was skipped by the proxy and answered 500.
test("page paths that end like files go to sign-in like any other, and answer 404 once signed in", async ({ request }) => {
  const paths = [
    `/projects/${slug}/runs/${runIds[0]}.png`,
    `/projects/${slug}/runs/x.svg`,
    `/projects/${slug}/endpoints/report.txt`,
    `/projects/${slug}.css`,
    "/notes.js",
    "/robots.txt",
    "/missing.map",
  ];
  for (const path of paths) {
    const anonymous = await request.get(`${E2E_PRIVATE_BASE_URL}${path}`, { maxRedirects: 0 });
    expect(anonymous.status(), path).toBe(303);
    expect(new URL(anonymous.headers()["location"] ?? "", E2E_PRIVATE_BASE_URL).href, path).toBe(`${E2E_PRIVATE_BASE_URL}/sign-in?${new URLSearchParams({ next: path })}`);
    const reader = await request.get(`${E2E_PRIVATE_BASE_URL}${path}`, { maxRedirects: 0, headers: { Authorization: `Bearer ${E2E_READ_TOKEN}` } });
    expect(reader.status(), path).toBe(404);
  }
  // The real files stay public.
  expect((await request.get(`${E2E_PRIVATE_BASE_URL}/favicon.ico`, { maxRedirects: 0 })).status()).toBe(200);
});

// Issue 36, item 3: a link to this server's own sign-in page could send the browser off-site once the token was typed.
test("a sign-in link whose next leads elsewhere signs in and stays on the site", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|evaluate)/i.test(message.text())) violations.push(message.text());
  });
  for (const next of ["/\t/evil.example", "/\\evil.example", "//evil.example", "/%2F%2Fevil.example"]) {
    await page.context().clearCookies();
    await page.goto(`/sign-in?${new URLSearchParams({ next })}`);
    await page.getByLabel("Token").fill(E2E_READ_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).origin, JSON.stringify(next)).toBe(E2E_PRIVATE_BASE_URL);
  }
  // The sign-in page runs its scripts under a nonce too (issue 36, item 11), and breaks no rule of it.
  await page.context().clearCookies();
  const answer = await page.goto("/sign-in");
  expect(answer?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'(;|$)/);
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});

// Issue 36, item 12: any site could sign a browser out (no Origin check).
test("another site cannot sign the browser out", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Token").fill(E2E_READ_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${E2E_PRIVATE_BASE_URL}/`);

  // A page of another site that posts the sign-out form to this server as soon as it loads.
  await page.route("http://evil.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${E2E_PRIVATE_BASE_URL}/api/auth/session"><input type="hidden" name="action" value="sign-out"></form><script>document.forms[0].submit()</script>`,
    }),
  );
  const refused = page.waitForResponse(`${E2E_PRIVATE_BASE_URL}/api/auth/session`);
  await page.goto("http://evil.example/");
  expect((await refused).status()).toBe(403);
  await page.goto(`/projects/${slug}`);
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}$`));
  await expect(page.getByTestId("aggregate-row")).toBeVisible();

  // Its own sign-out button still works.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?signed-out=1/);
});
