import { expect, test } from "@playwright/test";
import { lookAt } from "../helpers";

test.describe("home page", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`renders the shell and the project list in ${colorScheme} mode`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.goto("/");

      await expect(page.getByRole("link", { name: "Benchtrack" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
      await expect(page.getByTestId("empty-projects").or(page.getByTestId("project-list"))).toBeVisible();
      // Dark mode follows the system preference by default.
      await expect(page.locator("html")).toHaveClass(colorScheme === "dark" ? /dark/ : /^(?!.*dark)/);

      await lookAt(page, `home-${colorScheme}`);
    });
  }

  test("the theme toggle overrides the system preference and is remembered", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    const toggle = page.getByTestId("theme-toggle");
    await expect(toggle).toHaveAttribute("title", "Theme: system");

    await toggle.click(); // system → light
    await toggle.click(); // light → dark
    await expect(page.locator("html")).toHaveClass(/dark/);

    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(toggle).toHaveAttribute("title", "Theme: dark");
  });

  test("pages send a Content-Security-Policy that forbids framing, and break none of its rules", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto("/");
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    for (const path of ["/projects/listings-demo", "/projects/listings-demo/endpoints/_all", "/projects/listings-demo/regressions", "/docs/api"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    expect(violations).toEqual([]);
  });
});
