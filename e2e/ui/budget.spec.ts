import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { WRITES_SCREENSHOTS, fixture, lookAt, uniqueSlug, uploadRun } from "../helpers";

// Budgets as code (docs/ci.md, "Budgets as code"): a run's page says which budget judged it, beside the
// gate's outcome: the benchtrack.json its upload sent (with the commit it was read at), or Settings.
const COMMIT = "3f2a9c1e07b4d5e6f708192a3b4c5d6e7f809102";
const BUDGET = {
  sla: { targets: [{ metric: "p95", op: "<=", threshold: 200, unit: "ms", scope: "aggregate" }] },
  gate: { metric: "p95", minEffectPct: 10, inconclusive: "pass" },
};

/** The run's lead at 1440 px light and 375 px dark (E2E_SCREENSHOTS=1). */
async function screenshots(page: Page, name: string) {
  if (!WRITES_SCREENSHOTS) return;
  for (const [width, colorScheme] of [
    [1440, "light"],
    [375, "dark"],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.reload();
    await expect(page.getByTestId("run-budget")).toBeVisible();
    await lookAt(page, `${name}-${width}-${colorScheme}`, { viewportOnly: true });
  }
}

test("a run's page says which budget judged it: the upload's benchtrack.json at its commit, or Settings", async ({
  page,
  request,
}) => {
  const slug = uniqueSlug("budget");
  const summary = fixture("k6/baseline/round1/summary.json");
  const byFile = await uploadRun(
    request,
    slug,
    summary,
    { label: "nightly", branch: "feature/budget" },
    {
      "Benchtrack-Budget": Buffer.from(JSON.stringify(BUDGET)).toString("base64"),
      "Benchtrack-Budget-Path": "benchtrack.json",
      "Benchtrack-Budget-Commit": COMMIT,
    },
  );
  await page.goto(byFile.url);
  const lead = page.getByTestId("run-lead");
  await expect(lead.getByTestId("run-budget")).toHaveText("Budget from benchtrack.json at 3f2a9c1");
  await expect(lead.getByTestId("run-budget")).toHaveAttribute(
    "title",
    new RegExp(`^SLA targets and gate settings from benchtrack\\.json at commit ${COMMIT}`),
  );
  // Graded against the file's target, not the project's (it has none).
  await expect(page.getByTestId("sla-check").first()).toContainText("p95 <=");
  await screenshots(page, "run-budget-file");

  const bySettings = await uploadRun(request, slug, summary, { label: "nightly", branch: "feature/budget" });
  await page.goto(bySettings.url);
  await expect(page.getByTestId("run-lead").getByTestId("run-budget")).toHaveText("Budget from Settings");
});
