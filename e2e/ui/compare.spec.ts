import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { lookAt, uniqueSlug, uploadRun, expectNoSidewaysScroll } from "../helpers";

// The compare issue's table: five rounds of baseline vs five of ManagedAsync (seconds).
const ROUNDS = {
  baseline: { p50: [1.12, 1.15, 1.13, 1.14, 1.14], p90: [2.2, 2.25, 2.21, 2.24, 2.215], p95: [2.31, 2.56, 2.45, 2.62, 2.476], completion: [6.5, 6.7, 6.6, 6.6, 6.6] },
  ManagedAsync: { p50: [1.75, 1.78, 1.77, 1.76, 1.785], p90: [3.95, 3.99, 3.96, 3.98, 3.965], p95: [4.09, 4.63, 4.35, 4.64, 4.154], completion: [9.1, 9.3, 9.2, 9.2, 9.2] },
};

test("a compare link opened in a fresh browser shows the verdict and copies the PR Markdown", async ({ browser, request }) => {
  const slug = uniqueSlug("compare");
  for (const [label, values] of Object.entries(ROUNDS)) {
    for (let round = 0; round < 5; round++) {
      await uploadRun(
        request,
        slug,
        JSON.stringify({
          schema: "benchtrack/v1",
          tool: "custom-go-loadtester",
          label,
          round: round + 1,
          startedAt: `2026-11-${label === "baseline" ? 10 : 11}T0${round}:00:00Z`,
          summary: { latency: { unit: "s", p50: values.p50[round], p90: values.p90[round], p95: values.p95[round] } },
          metrics: { completion: { value: values.completion[round], unit: "s", better: "lower" } },
        }),
      );
    }
  }

  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`/projects/${slug}/compare?base=label:baseline&head=label:ManagedAsync`);

    await expect(page.getByTestId("compare-verdict")).toContainText("regressed");
    const p95 = page.getByTestId("compare-row").filter({ hasText: "p95" });
    await expect(p95).toContainText("2.48 s (n=5)");
    await expect(p95).toContainText("4.37 s (n=5)");
    await expect(p95).toContainText("+76.1%");
    await expect(p95).toContainText("< 0.001");
    await expect(page.getByTestId("rounds-mean-base")).toContainText("2.48 s");
    await expect(page.getByTestId("rounds-mean-head")).toContainText("9.2 s");
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/compare\/og\?base=label%3Abaseline/);

    await page.getByTestId("copy-markdown").click();
    await expect(page.getByTestId("copy-markdown")).toContainText("Copied");
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown.split("\n")[0]).toBe("### 🔴 **Regressed**: head is worse than base");
    expect(markdown).toContain("| All endpoints | p95 | 2.48 s | 4.37 s | +76.1%");

    await lookAt(page, `compare-${colorScheme}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await lookAt(page, `compare-${colorScheme}-375`);
    await expectNoSidewaysScroll(page);
    await context.close();
  }

  const og = await request.get(`/projects/${slug}/compare/og?base=label:baseline&head=label:ManagedAsync`);
  expect(og.status()).toBe(200);
  expect(og.headers()["content-type"]).toBe("image/png");
});

/** One round of a k6 nightly as a CI wrapper uploads it (Benchtrack format: k6's summary has no host or versions). */
function nightlyRound(round: {
  label: string;
  round: number;
  day: number;
  commit: string;
  p95Ms: number;
  toolVersion: string;
  host: { name: string; cpus: number; memoryGb: number };
  vus: number;
}) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "k6",
    toolVersion: round.toolVersion,
    label: round.label,
    round: round.round,
    startedAt: `2026-11-${round.day}T0${round.round}:00:00Z`,
    durationSeconds: 30,
    environment: {
      git: { branch: round.label === "nightly" ? "main" : "feature/listing-cache", commit: round.commit },
      host: round.host,
      appVersion: round.label === "nightly" ? "1.4.2" : "1.5.0",
      config: { vus: round.vus, duration: "30s" },
      attributes: { db: "postgres15" },
    },
    endpoints: [
      {
        name: "GET /api/listings/:id",
        protocol: "http",
        requests: 4500,
        failures: 0,
        throughput: 150,
        latency: { unit: "ms", p50: +(round.p95Ms * 0.4).toFixed(2), p95: round.p95Ms },
      },
    ],
  });
}

test("a compare across another host and load profile warns beside the verdict, lists what changed and how many rounds would tell", async ({ browser, request }) => {
  const slug = uniqueSlug("compare-env");
  const created = await request.post("/api/v1/projects", {
    data: { slug, repoUrl: "https://github.com/acme/listings" },
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  expect(created.status()).toBe(201);
  const perf1 = { name: "perf-1", cpus: 16, memoryGb: 32 };
  const small = { name: "ci-small-3", cpus: 4, memoryGb: 8 };
  // Noisy rounds, head +4%: no verdict either way at 5 vs 5.
  for (const [index, p95Ms] of [30.0, 33.0, 28.5, 31.5, 27.0].entries()) {
    await uploadRun(request, slug, nightlyRound({ label: "nightly", round: index + 1, day: 10, commit: "9f1c2e7aa41b", p95Ms, toolVersion: "0.52.0", host: perf1, vus: 50 }));
  }
  for (const [index, p95Ms] of [31.2, 28.8, 33.6, 29.7, 32.7].entries()) {
    await uploadRun(request, slug, nightlyRound({ label: "pr-311", round: index + 1, day: 11, commit: "4b1d2aa0c9d3", p95Ms, toolVersion: "0.54.0", host: small, vus: 100 }));
  }

  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`/projects/${slug}/compare?base=label:nightly&head=label:pr-311`);

    await expect(page.getByTestId("compare-verdict")).toContainText("unchanged");
    const unfair = page.getByTestId("compare-unfair");
    await expect(unfair).toContainText("Unfair comparison");
    await expect(unfair).toContainText("Different load profiles (base → head): vus 50 → 100");
    await expect(unfair).toContainText("Different host sizes (base → head): 16 CPUs, 32 GB → 4 CPUs, 8 GB");
    await expect(page.getByTestId("compare-rounds")).toContainText("About 45 rounds per side would detect a 5% change in p95 (All endpoints)");
    await expect(page.getByTestId("compare-rounds")).toContainText("this comparison has 5 vs 5");
    // The unfair differences are not repeated among the other warnings.
    await expect(page.getByTestId("compare-warnings")).toHaveCount(0);

    const differences = page.getByTestId("compare-difference");
    await expect(differences).toHaveText([
      /vus base 50 → head 100 ⚠ unfair/,
      /host size base 16 CPUs, 32 GB → head 4 CPUs, 8 GB ⚠ unfair/,
      /tool version base 0\.52\.0 → head 0\.54\.0$/,
      /host base perf-1 → head ci-small-3$/,
      /app version base 1\.4\.2 → head 1\.5\.0$/,
    ]);
    await expect(page.getByTestId("compare-diff-link")).toHaveAttribute("href", "https://github.com/acme/listings/compare/9f1c2e7aa41b...4b1d2aa0c9d3");
    await expect(page.getByTestId("compare-same")).toHaveText("Same tool k6, protocol http, load duration 30s.");

    await page.getByTestId("copy-markdown").click();
    await expect(page.getByTestId("copy-markdown")).toContainText("Copied");
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown.split("\n")[2]).toMatch(/^> ⚠️ \*\*Unfair comparison:\*\* Different load profiles/);
    expect(markdown).toContain("**How many rounds?** About 45 rounds per side");
    expect(markdown).toContain("[commits 9f1c2e7 → 4b1d2aa](https://github.com/acme/listings/compare/9f1c2e7aa41b...4b1d2aa0c9d3)");

    await lookAt(page, `compare-environment-${colorScheme}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await lookAt(page, `compare-environment-${colorScheme}-375`);
    await expectNoSidewaysScroll(page);
    await context.close();
  }
});
