import { expect, test } from "@playwright/test";
import { WRITES_SCREENSHOTS, fixture, lookAt, uniqueSlug, uploadRun } from "../helpers";

/**
 * "Compare with…" on a run page offers only runs a comparison can judge it against (issue 23): on a
 * Locust run of the demo (a project with k6 runs too, labelled alike), Locust runs only; on a run with
 * nothing comparable, a plain sentence instead of an empty menu.
 */
test("on a Locust run of the demo, Compare with… offers Locust runs only, and each link compares", async ({ page, request }) => {
  const answer = await request.get("/api/v1/projects/listings-demo/runs?tool=locust");
  expect(answer.status()).toBe(200);
  const { runs } = (await answer.json()) as { runs: { id: string; tool: string }[] };
  const locust = runs[0]!;
  expect(locust.tool).toBe("locust");

  await page.goto(`/projects/listings-demo/runs/${locust.id}`);
  const menu = page.getByTestId("compare-with");
  await menu.getByText("Compare with…").click();
  await expect(menu).toContainText("locust runs only: another tool is another series.");
  const links = menu.getByRole("link");
  expect(await links.count()).toBeGreaterThan(0);
  for (const href of await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""))) {
    expect(href).toMatch(/[?&]tool=locust(&|$)/);
    expect(href).not.toContain(`base=${locust.id}`);
  }
  // k6 is the demo's only tool with nightly runs: no nightly, no k6 in the menu.
  await expect(menu).not.toContainText("nightly");
  await expect(menu).not.toContainText("k6");
  if (WRITES_SCREENSHOTS) {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const viewport of [
        { width: 1440, height: 700 },
        { width: 375, height: 700 },
      ]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        await lookAt(page, `compare-with-locust-${colorScheme}-${viewport.width}`, { viewportOnly: true });
      }
    }
  }

  await links.last().click();
  await expect(page).toHaveURL(/\/compare\?.*tool=locust/);
  await expect(page.getByTestId("compare-verdict")).toBeVisible();
  await expect(page.getByTestId("compare-not-comparable")).toHaveCount(0);
});

test("a run with nothing comparable says so plainly, with no empty menu", async ({ page, request }) => {
  const slug = uniqueSlug("compare-with-none");
  const { id } = await uploadRun(request, slug, fixture("locust/baseline/round1/locust.json"), { label: "smoke", branch: "main" });
  await page.goto(`/projects/${slug}/runs/${id}`);
  await expect(page.getByTestId("compare-with")).toHaveCount(0);
  const none = page.getByTestId("compare-with-none");
  await none.getByText("Nothing to compare with yet").click();
  await expect(none).toContainText(
    "No comparable run yet: no earlier locust run of this label and load, and no other label with locust runs. Runs of other tools are other series.",
  );
  await expect(none.getByRole("link")).toHaveCount(0);
  await lookAt(page, "compare-with-none", { viewportOnly: true });
});
