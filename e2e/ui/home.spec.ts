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

  test("pages send a Content-Security-Policy that forbids framing, and break none of its rules", async ({ page, request }) => {
    // A dozen pages, each rendered on demand: more than the default minute on a busy machine.
    test.setTimeout(180_000);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (load|execute|apply|evaluate)/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => violations.push(`${page.url()}: ${error.message}`));
    const response = await page.goto("/");
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    // Issue 36, item 11: no inline script runs without this response's nonce.
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(policy)?.[1] ?? "";
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/]{16,}={0,2}'/);
    const nonceOf = (header: string | undefined) => /'nonce-([^']+)'/.exec(header ?? "")?.[1];
    const nonces = await Promise.all([request.get("/"), request.get("/projects/listings-demo")].map(async (answer) => nonceOf((await answer).headers()["content-security-policy"])));
    expect(new Set([nonceOf(policy), ...nonces]).size).toBe(3);
    // The theme script carries the nonce (the policy lets nothing else inline run).
    expect(await page.locator("head script:not([src])").first().evaluate((script) => (script as HTMLScriptElement).nonce)).toBe(nonceOf(policy));

    const runs = (await (await request.get("/api/v1/projects/listings-demo/runs?tool=k6")).json()) as { runs: { id: string }[] };
    const [head, base] = runs.runs;
    const paths = [
      "/projects/listings-demo",
      `/projects/listings-demo/runs/${base!.id}`,
      `/projects/listings-demo/compare?base=${base!.id}&head=${head!.id}`,
      "/projects/listings-demo/compare?base=label:baseline&head=label:ManagedAsync&tool=k6",
      "/projects/listings-demo/endpoints/_all",
      "/projects/listings-demo/incidents",
      "/sign-in",
      "/docs/api",
      "/projects/listings-demo/runs/no-such-run.png",
    ];
    for (const path of paths) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    // Client-side navigation too: a link on the home page, then back.
    await page.goto("/");
    await page.locator('a[href="/projects/listings-demo"]').first().click();
    await expect(page).toHaveURL(/\/projects\/listings-demo$/);
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });
});
