import { expect, test } from "@playwright/test";
import { E2E_PRIVATE_BASE_URL } from "../../playwright.config";

// Browsers ask every site for /favicon.ico whatever the page says; it answered 404 on every page.
test("the site's icon: /favicon.ico and the icons each page links answer an image, on a private server too", async ({ page, request }) => {
  for (const base of ["", E2E_PRIVATE_BASE_URL]) {
    const favicon = await request.get(`${base}/favicon.ico`, { maxRedirects: 0 });
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO file: reserved 0, type 1 (icon), at least one image.
    const bytes = await favicon.body();
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  }

  await page.goto("/");
  const links = await page.locator('head link[rel="icon"]').evaluateAll((elements) =>
    elements.map((element) => ({ href: element.getAttribute("href") ?? "", type: element.getAttribute("type") })),
  );
  expect(links.map((link) => link.href.split("?")[0]).sort()).toEqual(["/favicon.ico", "/icon.svg"]);
  for (const link of links) {
    const answer = await request.get(link.href);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toMatch(/^image\//);
  }
  const svg = await request.get(links.find((link) => link.href.startsWith("/icon.svg"))!.href);
  expect(svg.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect(await svg.text()).toContain("<svg");
});
