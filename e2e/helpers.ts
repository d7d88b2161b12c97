import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Locator, type Page, expect } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../playwright.config";

/**
 * Screenshots are for a person to look at what a change did to the pages: nothing compares them, so a
 * run writes them only with E2E_SCREENSHOTS=1 (to e2e/screenshots/, git-ignored), and skips otherwise
 * the page changes (colour scheme, viewport) made only to take them.
 */
export const WRITES_SCREENSHOTS = process.env.E2E_SCREENSHOTS === "1";
export const SCREENSHOT_DIR = "e2e/screenshots";

/** Writes e2e/screenshots/<name>.png with E2E_SCREENSHOTS=1: a page whole (or only its viewport), or one element. */
export async function lookAt(
  target: Page | Locator,
  name: string,
  options: { viewportOnly?: boolean } = {},
): Promise<void> {
  if (!WRITES_SCREENSHOTS) return;
  const path = `${SCREENSHOT_DIR}/${name}.png`;
  if ("goto" in target) await target.screenshot({ path, fullPage: !options.viewportOnly });
  else await target.screenshot({ path });
}

/**
 * Clicks a Copy button until it says it copied (a click before hydration does nothing), then reads the
 * clipboard (the context must grant clipboard-read and clipboard-write).
 */
export async function copyWith(button: Locator): Promise<string> {
  await expect(async () => {
    await button.click();
    await expect(button).toHaveText("Copied", { timeout: 2_000 });
  }).toPass();
  return button.page().evaluate(() => navigator.clipboard.readText());
}

/** The real tool outputs the parser tests use; the e2e suite uploads them through the public API. */
/**
 * The page never scrolls sideways (wide tables scroll inside their own box). Polled: after a viewport change
 * the charts follow the new width only once their ResizeObserver fires, which on a loaded machine comes
 * after the first measure (CI once read 744 px of overflow at 375 px before it had).
 */
export async function expectNoSidewaysScroll(page: Page, what = "the page"): Promise<void> {
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect
    .poll(overflow, { message: `${what} scrolls sideways at ${page.viewportSize()?.width} px` })
    .toBeLessThanOrEqual(0);
}

export const FIXTURES = path.resolve(import.meta.dirname, "../server/domain/parsers/fixtures");

export function fixture(relative: string): Buffer {
  return readFileSync(path.join(FIXTURES, relative));
}

export function uniqueSlug(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Uploads one body as curl --data-binary would (with `headers` besides: a budget's); returns the API's answer. */
export async function uploadRun(
  request: APIRequestContext,
  slug: string,
  body: Buffer | string,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const params = new URLSearchParams(query);
  return postUpload(request, `/api/v1/projects/${slug}/runs?${params}`, {
    data: body,
    headers: { "Content-Type": "application/octet-stream", ...headers },
  });
}

type UploadAnswer = { id: string; url: string; format: string; endpoints: string[]; run: any };

/**
 * POSTs an upload with an Idempotency-Key, as a CI client should, and sends it once more if the
 * connection was reset before an answer (a keep-alive socket the server closed as it was reused): the
 * key makes the retry safe, the server answers 200 with the same run if the first one was stored.
 */
async function postUpload(
  request: APIRequestContext,
  url: string,
  options: {
    data?: Buffer | string;
    multipart?: Record<string, { name: string; mimeType: string; buffer: Buffer }>;
    headers?: Record<string, string>;
  },
): Promise<UploadAnswer> {
  const headers = { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Idempotency-Key": randomUUID(), ...options.headers };
  const send = () => request.post(url, { ...options, headers });
  const response = await send().catch((error: Error) => {
    if (!/ECONNRESET|socket hang up/.test(error.message)) throw error;
    return send();
  });
  if (response.status() !== 201 && response.status() !== 200)
    throw new Error(`upload failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as UploadAnswer;
}

/** Uploads several files as one multipart run (curl -F name=@file …). */
export async function uploadFiles(
  request: APIRequestContext,
  slug: string,
  files: Record<string, Buffer>,
  query: Record<string, string> = {},
) {
  const params = new URLSearchParams(query);
  const multipart = Object.fromEntries(
    Object.entries(files).map(([name, buffer]) => [name, { name, mimeType: "application/octet-stream", buffer }]),
  );
  return postUpload(request, `/api/v1/projects/${slug}/runs?${params}`, { multipart });
}

/**
 * A Benchtrack JSON run of GetListing labelled nightly, `hour` hours into 2026-11-01 on `branch` (a pull
 * request's with `pullRequest`): p95 as given, p50, p90 and p99 in proportion to it.
 */
export function nightlyGetListing(
  hour: number,
  p95: number,
  branch: string,
  pullRequest: number | null,
  throughput = 100,
): string {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "custom-loadtester",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    environment: { git: { branch, commit: `${branch === "main" ? "aa" : "bb"}${hour}f00dcafe`, pullRequest } },
    endpoints: [
      {
        name: "GetListing",
        requests: 1000,
        failures: 0,
        throughput,
        latency: { unit: "ms", p50: p95 / 2, p90: p95 * 0.9, p95, p99: p95 * 1.4 },
      },
    ],
  });
}

export const GHZ_METHODS = [
  "GetListing",
  "ListListings",
  "SearchListings",
  "CheckStockAvailability",
  "GetAllCategories",
];

/** The five ghz reports of one round, as one run. */
export function ghzRound(variant: "baseline" | "managedasync", round: 1 | 2 | 3): Record<string, Buffer> {
  return Object.fromEntries(
    GHZ_METHODS.map((method) => [`${method}.json`, fixture(`ghz/${variant}/round${round}/${method}.json`)]),
  );
}

/** The CI step (scripts/ci/benchtrack-pr.mjs) as GitHub Actions runs it, with `env` only, in `cwd`: its exit code and output. */
export async function runGithubPrStep(
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  const script = path.resolve(import.meta.dirname, "../scripts/ci/benchtrack-pr.mjs");
  const child = spawn(process.execPath, [script, "github"], { env: { NODE_ENV: "test", ...env }, cwd });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, output };
}
