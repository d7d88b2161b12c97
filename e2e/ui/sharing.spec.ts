import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import type { Browser, BrowserContext, Page, Request } from "@playwright/test";
import { E2E_ADMIN_TOKEN, E2E_PRIVATE_BASE_URL } from "../../playwright.config";
import { copyWith, fixture, lookAt, uniqueSlug, WRITES_SCREENSHOTS } from "../helpers";

/**
 * Sharing on a private server (issue 26, item 4): an admin mints a share link with the Share button; a
 * reviewer opens it in a fresh browser, follows the comparison's run links, downloads the raw upload,
 * reads the JSON and copies Markdown whose links open for someone else again; everything outside the
 * link, and an expired or altered link, answers with a page that says so, and nothing outside it is
 * prefetched.
 */
const slug = uniqueSlug("sharing");
/** main, main (base), feature/x (head), and one run outside the comparison (label "other"). */
const runIds: string[] = [];

test.use({ baseURL: E2E_PRIVATE_BASE_URL });

test.beforeAll(async ({ request }) => {
  const uploads = [
    { variant: "baseline", round: 1, label: "nightly", branch: "main" },
    { variant: "baseline", round: 2, label: "nightly", branch: "main" },
    { variant: "managedasync", round: 3, label: "nightly", branch: "feature/x" },
    { variant: "baseline", round: 3, label: "other", branch: "release" },
  ] as const;
  for (const [index, upload] of uploads.entries()) {
    const response = await request.post(
      `${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/runs?label=${upload.label}&branch=${upload.branch}&started_at=2026-11-0${index + 1}T09:00:00Z`,
      {
        data: fixture(`k6/${upload.variant}/round${upload.round}/summary.json`),
        headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Content-Type": "application/json" },
      },
    );
    expect(response.status()).toBe(201);
    runIds.push(((await response.json()) as { id: string }).id);
  }
});

/** A browser with nothing of this server: no cookie, no token. Clipboard allowed, every request recorded. */
async function freshBrowser(browser: Browser): Promise<{ context: BrowserContext; page: Page; requests: Request[] }> {
  const context = await browser.newContext({ baseURL: E2E_PRIVATE_BASE_URL });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_PRIVATE_BASE_URL });
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on("request", (request) => requests.push(request));
  return { context, page, requests };
}

const relative = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** The admin mints a share link of the comparison main vs feature/x with the Share button, 7 days. */
async function mintWithShareButton(browser: Browser): Promise<{ url: string; context: BrowserContext; page: Page }> {
  const { context, page } = await freshBrowser(browser);
  await page.goto(`/sign-in?next=${encodeURIComponent(`/projects/${slug}/compare?base=branch:main&head=branch:feature/x`)}`);
  await page.getByLabel("Token").fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("compare-view")).toBeVisible();
  const dialog = page.getByTestId("share-dialog");
  // A click before hydration opens nothing: click until the dialog shows.
  await expect(async () => {
    await page.getByTestId("share-button").click();
    await expect(dialog.getByRole("heading", { name: "Share this comparison" })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await dialog.getByLabel("7 days").check();
  await dialog.getByTestId("share-create").click();
  await expect(dialog.getByTestId("share-expires")).toContainText("Opens until");
  const url = await dialog.getByTestId("share-url").inputValue();
  expect(await copyWith(dialog.getByTestId("share-copy-link"))).toBe(url);
  return { url, context, page };
}

/** A short link's path: /s/ and the link's id of 22 characters. */
const SHORT_LINK = /^\/s\/[A-Za-z0-9_-]{22}$/;

test("a share link minted with the Share button opens its comparison, its runs, their raw uploads and JSON, and Copy Markdown, in fresh browsers", async ({ browser }) => {
  const admin = await mintWithShareButton(browser);
  // Short: the stored link's id alone (issue 38), where a sealed token made this link over 450 characters.
  expect(new URL(admin.url).pathname).toMatch(SHORT_LINK);
  expect(admin.url.length).toBeLessThan(60);
  // The admin's own Copy link is a share link too (minted on click), never the bare page.
  await admin.page.keyboard.press("Escape");
  expect(new URL(await copyWith(admin.page.getByTestId("copy-link"))).pathname).toMatch(SHORT_LINK);
  await admin.context.close();

  const reviewer = await freshBrowser(browser);
  const { page } = reviewer;
  await page.goto(relative(admin.url));
  await expect(page.getByTestId("compare-verdict")).toBeVisible();
  // It led to the comparison, pinned: the selectors became the runs they stood for.
  const shared = new URL(page.url());
  expect(shared.pathname).toBe(`/projects/${slug}/compare`);
  expect(shared.searchParams.get("base")!.split(",").sort()).toEqual([runIds[0], runIds[1]].sort());
  expect(shared.searchParams.get("head")).toBe(runIds[2]);
  const token = shared.searchParams.get("share")!;
  expect(token).toBe(new URL(admin.url).pathname.slice(3));
  await expect(page.getByTestId("shared-banner")).toContainText("one comparison and its runs");
  // Nothing leads outside: no project tabs; the share button is the admin's only.
  await expect(page.getByRole("navigation", { name: "Project" })).toHaveCount(0);
  await expect(page.getByTestId("share-button")).toHaveCount(0);

  // Copy Markdown: its links carry the token, and open in yet another fresh browser.
  const markdown = await copyWith(page.getByTestId("copy-markdown"));
  const links = [...markdown.matchAll(/\]\((http[^)]+)\)/g)].map((match) => match[1]!);
  expect(links.length).toBeGreaterThan(0);
  const other = await freshBrowser(browser);
  for (const link of links) {
    expect(new URL(link).searchParams.get("share")).toBe(token);
    await other.page.goto(relative(link));
    await expect(other.page.getByTestId("compare-verdict")).toBeVisible();
  }
  expect(new URL(await copyWith(other.page.getByTestId("copy-link"))).searchParams.get("share")).toBe(token);
  await other.context.close();

  // The JSON button, through the link.
  const json = await reviewer.context.request.get((await page.getByRole("link", { name: "JSON", exact: true }).getAttribute("href"))!);
  expect(json.status()).toBe(200);

  // Each run of the comparison opens, with its raw upload and JSON.
  const runLinks = page.getByTestId("compare-view").locator(`a[href*="/projects/${slug}/runs/"]`);
  await expect(runLinks).toHaveCount(3);
  const hrefs = await runLinks.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href")!));
  for (const href of hrefs) expect(new URL(href, E2E_PRIVATE_BASE_URL).searchParams.get("share")).toBe(token);
  await runLinks.last().click();
  await expect(page).toHaveURL(new RegExp(`/projects/${slug}/runs/${runIds[2]}\\?share=`));
  await expect(page.getByTestId("run-header")).toBeVisible();
  await expect(page.getByTestId("shared-banner-back")).toBeVisible();
  for (const name of ["Download raw", "View JSON"]) {
    const href = (await page.getByRole("link", { name }).getAttribute("href"))!;
    const answer = await reviewer.context.request.get(href);
    expect(answer.status(), name).toBe(200);
  }
  await page.getByTestId("shared-banner-back").click();
  await expect(page.getByTestId("compare-verdict")).toBeVisible();

  // Nothing went to sign-in, and nothing outside the link was asked for (prefetches included).
  const inScope = new RegExp(`^(/projects/${slug}/(compare(/og)?|runs/(${[runIds[0], runIds[1], runIds[2]].join("|")}))|/s/${token})$`);
  const pages = reviewer.requests
    .map((request) => new URL(request.url()))
    .filter((url) => url.origin === E2E_PRIVATE_BASE_URL && !/^\/(_next|api)\//.test(url.pathname) && !/\.(png|svg|ico|css|js)$/.test(url.pathname));
  expect(pages.length).toBeGreaterThan(0);
  expect(pages.filter((url) => url.pathname === "/sign-in")).toEqual([]);
  expect(pages.map((url) => url.pathname).filter((path) => !inScope.test(path))).toEqual([]);
  const prefetches = reviewer.requests.filter((request) => request.headers()["next-router-prefetch"] !== undefined);
  expect(prefetches.map((request) => request.url())).toEqual([]);
  await reviewer.context.close();
});

test("outside its link, or expired or altered, a share link answers with a page that says so", async ({ browser, request }) => {
  const minted = await request.post(`${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/share-links`, {
    data: { compare: { base: "branch:main", head: "branch:feature/x" } },
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  expect(minted.status()).toBe(201);
  const { page: url } = (await minted.json()) as { page: string };
  const token = new URL(url).searchParams.get("share")!;
  const share = `share=${encodeURIComponent(token)}`;
  const { context, page } = await freshBrowser(browser);

  for (const path of ["/", `/projects/${slug}`, `/projects/${slug}/runs/${runIds[3]}`, `/projects/${slug}/endpoints/_all`, `/projects/${slug}/settings`]) {
    await page.goto(`${path}${path.includes("?") ? "&" : "?"}${share}`);
    await expect(page).toHaveURL(/\/share-link\?reason=outside/);
    await expect(page.getByRole("heading", { name: "This page is outside the share link" })).toBeVisible();
    await expect(page.getByTestId("run-header")).toHaveCount(0);
  }
  await lookAt(page, "share-link-outside");
  // Its ways out: back to the shared comparison, or sign in for the page asked for.
  await expect(page.getByTestId("share-refused-sign-in")).toHaveAttribute("href", `/sign-in?next=${encodeURIComponent(`/projects/${slug}/settings`)}`);
  await page.getByTestId("share-refused-back").click();
  await expect(page.getByTestId("compare-verdict")).toBeVisible();
  // The shared page offers no way out of the link: no site navigation, no breadcrumb link.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Projects", exact: true })).toHaveCount(0);

  // The REST API refuses what the link does not open.
  expect((await context.request.get(`/api/v1/projects/${slug}/runs/${runIds[3]}?${share}`)).status()).toBe(403);
  expect((await context.request.get(`/api/v1/projects/${slug}/runs/${runIds[0]}?${share}`)).status()).toBe(200);

  // Altered, or expired: refused, saying so.
  const altered = `${token.slice(0, -6)}AAAAAA`;
  const alteredUrl = new URL(url);
  alteredUrl.searchParams.set("share", altered);
  await page.goto(relative(alteredUrl.toString()));
  await expect(page.getByRole("heading", { name: "This share link is not valid" })).toBeVisible();
  // A hostile one (too long, other characters): the same page, never an error.
  for (const hostile of ["x".repeat(5000), "<script>", "..%2F..%2F"]) {
    const answer = await page.goto(`/projects/${slug}/runs/${runIds[0]}?share=${encodeURIComponent(hostile)}`);
    expect(answer!.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "This share link is not valid" })).toBeVisible();
  }
  const unknownShort = await page.goto(`/s/${"A".repeat(22)}`);
  expect(unknownShort!.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This share link is not valid" })).toBeVisible();
  // Ten seconds: long enough to open once on a loaded machine, then waited out.
  const shortLived = await request.post(`${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/share-links`, {
    data: { run: runIds[0], expiresInDays: 10 / 86_400 },
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  const { url: expiring, expiresAt } = (await shortLived.json()) as { url: string; expiresAt: string };
  await page.goto(relative(expiring));
  await expect(page.getByTestId("run-header")).toBeVisible();
  await page.waitForTimeout(Math.max(0, Date.parse(expiresAt) - Date.now()) + 1_000);
  await page.goto(relative(expiring));
  await expect(page.getByRole("heading", { name: "This share link has expired" })).toBeVisible();
  await lookAt(page, "share-link-invalid");
  await context.close();
});

test("a reviewer follows a short run link: only what works inside it, Download raw as uploaded, Copy Markdown; revoked in Settings, it stops", async ({ browser, request }) => {
  const minted = await request.post(`${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/share-links`, {
    data: { run: runIds[0], expiresInDays: 2 },
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  expect(minted.status()).toBe(201);
  const { url } = (await minted.json()) as { url: string };
  expect(new URL(url).pathname).toMatch(SHORT_LINK);
  const id = new URL(url).pathname.slice(3);

  const reviewer = await freshBrowser(browser);
  const { page } = reviewer;
  expect(await reviewer.context.cookies()).toEqual([]);
  await page.goto(relative(url));
  await expect(page).toHaveURL(`${E2E_PRIVATE_BASE_URL}/projects/${slug}/runs/${runIds[0]}?share=${id}`);
  await expect(page.getByTestId("run-header")).toBeVisible();
  await expect(page.getByTestId("shared-banner")).toContainText("one run");

  // Only controls that work inside the link: no site navigation, project tabs, breadcrumb links,
  // "Compare with…" or "Set SLA targets"; every link left on the page opens through it.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Project" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Projects", exact: true })).toHaveCount(0);
  await expect(page.getByText("Compare with…")).toHaveCount(0);
  await expect(page.getByTestId("compare-with-none")).toHaveCount(0);
  await expect(page.getByText("Set SLA targets")).toHaveCount(0);
  const hrefs = await page.locator("main a[href^='/'], header a[href^='/']").evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href")!));
  const outside = hrefs.map((href) => new URL(href, E2E_PRIVATE_BASE_URL)).filter((link) => link.pathname !== "/sign-in" && link.searchParams.get("share") !== id);
  expect(outside.map((link) => link.toString())).toEqual([]);

  // Download raw: the bytes uploaded.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-header").getByRole("link", { name: "Download raw" }).click()]);
  expect(Buffer.compare(readFileSync(await download.path()), fixture("k6/baseline/round1/summary.json"))).toBe(0);

  // Copy Markdown: its link to the run opens through the share link.
  const markdown = await copyWith(page.getByTestId("copy-markdown"));
  const links = [...markdown.matchAll(/\]\((http[^)]+)\)/g)].map((match) => new URL(match[1]!));
  const runLink = links.find((link) => link.pathname === `/projects/${slug}/runs/${runIds[0]}`);
  expect(runLink?.searchParams.get("share")).toBe(id);
  expect(new URL(await copyWith(page.getByTestId("copy-link"))).searchParams.get("share")).toBe(id);
  await lookAt(page, "sharing-run-page");

  // The admin revokes it in Settings: the link and the page it opened stop working, saying so.
  const admin = await freshBrowser(browser);
  await admin.page.goto(`/sign-in?next=${encodeURIComponent(`/projects/${slug}/settings`)}`);
  await admin.page.getByLabel("Token").fill(E2E_ADMIN_TOKEN);
  await admin.page.getByRole("button", { name: "Sign in" }).click();
  const row = admin.page.getByTestId("share-link-row").filter({ hasText: url });
  await expect(row).toContainText(`Run ${runIds[0]}`);
  await expect(row).toContainText("by admin");
  await expect(row).toContainText("open until");
  await lookAt(admin.page.getByTestId("share-links-panel"), "sharing-settings-list");
  await row.getByTestId("share-link-revoke").click();
  await expect(row).toContainText("revoked");
  await expect(row.getByTestId("share-link-revoke")).toHaveCount(0);
  await admin.context.close();

  await page.reload();
  await expect(page.getByRole("heading", { name: "This share link was revoked" })).toBeVisible();
  await expect(page.getByTestId("run-header")).toHaveCount(0);
  await page.goto(relative(url));
  await expect(page.getByRole("heading", { name: "This share link was revoked" })).toBeVisible();
  const raw = await reviewer.context.request.get(`/api/v1/projects/${slug}/runs/${runIds[0]}/raw?share=${id}`);
  expect(raw.status()).toBe(401);
  expect(((await raw.json()) as { error: { message: string } }).error.message).toContain("share link was revoked");
  await reviewer.context.close();
});

test("screenshots of the Share dialog, a shared comparison and the refusal page", async ({ browser, request }) => {
  test.skip(!WRITES_SCREENSHOTS, "only with E2E_SCREENSHOTS=1");
  const admin = await mintWithShareButton(browser);
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [1440, 375]) {
      const name = `${scheme}-${width}`;
      await admin.page.emulateMedia({ colorScheme: scheme });
      await admin.page.setViewportSize({ width, height: 900 });
      await lookAt(admin.page, `sharing-dialog-${name}`, { viewportOnly: true });
      const { context, page } = await freshBrowser(browser);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(relative(admin.url));
      await expect(page.getByTestId("compare-verdict")).toBeVisible();
      await lookAt(page, `sharing-compare-${name}`, { viewportOnly: true });
      await page.goto(`/projects/${slug}?share=${new URL(admin.url).pathname.slice(3)}`);
      await expect(page.getByTestId("share-refused")).toBeVisible();
      await lookAt(page, `sharing-refused-${name}`, { viewportOnly: true });
      await context.close();
    }
  }
  // A shared run page (1440 light, 375 dark), and the Settings list of share links.
  const minted = await request.post(`${E2E_PRIVATE_BASE_URL}/api/v1/projects/${slug}/share-links`, {
    data: { run: runIds[1] },
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  const { url } = (await minted.json()) as { url: string };
  for (const [scheme, width] of [["light", 1440], ["dark", 375]] as const) {
    const { context, page } = await freshBrowser(browser);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 900 });
    await page.goto(relative(url));
    await expect(page.getByTestId("run-header")).toBeVisible();
    await lookAt(page, `sharing-run-${scheme}-${width}`, { viewportOnly: true });
    await context.close();
    await admin.page.emulateMedia({ colorScheme: scheme });
    await admin.page.setViewportSize({ width, height: 900 });
    await admin.page.goto(`/projects/${slug}/settings`);
    await expect(admin.page.getByTestId("share-link-row").first()).toBeVisible();
    await lookAt(admin.page.getByTestId("share-links-panel"), `sharing-settings-${scheme}-${width}`);
  }
  await admin.context.close();
});
