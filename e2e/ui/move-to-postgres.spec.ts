import { execFile, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { E2E_FRESH_PORT } from "../../playwright.config";
import { startPostgresCluster } from "../../server/testing/postgres-cluster";
import { lookAt } from "../helpers";

/**
 * A team's move from the embedded database to PostgreSQL, as docs/operations.md tells it: a server on an
 * embedded database gets k6 rounds of two variants through the API; it is stopped; `npm run backup`;
 * `npm run restore` with DATABASE_URL naming a new PostgreSQL; the server started on PostgreSQL shows the
 * same run page and the same comparison, in Chromium. The build is the one the suite's servers use.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = E2E_FRESH_PORT + 1;
const BASE_URL = `http://localhost:${PORT}`;
const ADMIN_TOKEN = "e2e-move-admin-token-0123456789";
const SLUG = "moved";
const FIXTURES = "/work/shared/fixtures/k6";

function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(BENCHTRACK_|E2E_)|^(DATABASE_URL|PORT)$/.test(name)));
  return { ...env, PORT: String(PORT), BENCHTRACK_ADMIN_TOKEN: ADMIN_TOKEN, ...extra } as unknown as NodeJS.ProcessEnv;
}

/** `npm start` in its own process group, once it answers; stop() ends it (and next-server). */
async function npmStart(env: Record<string, string>): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn("npm", ["start"], { cwd: ROOT, env: serverEnv(env), stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // gone already
      }
    };
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    const up = await fetch(`${BASE_URL}/api/v1/projects`).then((response) => response.ok, () => false);
    if (up) return { stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not get ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function npmRun(script: string, args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)("npm", ["run", "-s", script, "--", ...args], { cwd: ROOT, env: serverEnv(env), encoding: "utf8" });
  return stdout;
}

async function upload(file: string, query: Record<string, string>): Promise<string> {
  const response = await fetch(`${BASE_URL}/api/v1/projects/${SLUG}/runs?${new URLSearchParams(query)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    body: readFileSync(file),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** What the pages show of the project: the comparison's verdict and p95 row, and the run page's title and numbers. */
async function pagesOf(page: Page, runId: string) {
  await page.goto(`${BASE_URL}/projects/${SLUG}/compare?base=label:baseline&head=label:ManagedAsync`);
  await expect(page.getByTestId("compare-verdict")).toContainText("regressed");
  const verdict = await page.getByTestId("compare-verdict").innerText();
  const p95 = await page.getByTestId("compare-row").filter({ hasText: "p95" }).first().innerText();
  await page.goto(`${BASE_URL}/projects/${SLUG}/runs/${runId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const heading = await page.getByRole("heading", { level: 1 }).innerText();
  const table = await page.locator("table").first().innerText();
  return { verdict, p95, heading, table };
}

test("an embedded database moved to PostgreSQL shows the same run page and comparison", async ({ page }) => {
  test.setTimeout(600_000);
  const folder = mkdtempSync(path.join(os.tmpdir(), "benchtrack-e2e-move-"));
  const dataDir = path.join(folder, "data");
  const file = path.join(folder, "benchtrack.ndjson.gz");
  const cluster = await startPostgresCluster();
  try {
    const embedded = await npmStart({ BENCHTRACK_DATA_DIR: dataDir });
    let runId = "";
    let before: Awaited<ReturnType<typeof pagesOf>>;
    try {
      for (const round of [1, 2, 3]) {
        await upload(`${FIXTURES}/baseline/round${round}/summary.json`, { label: "baseline", round: String(round), branch: "main" });
        runId = await upload(`${FIXTURES}/managedasync/round${round}/summary.json`, { label: "ManagedAsync", round: String(round), branch: "main" });
      }
      before = await pagesOf(page, runId);
    } finally {
      await embedded.stop();
    }

    expect(await npmRun("backup", [file], { BENCHTRACK_DATA_DIR: dataDir })).toMatch(/Backed up 1 project\(s\), 6 run\(s\)/);
    expect(await npmRun("restore", [file], { DATABASE_URL: cluster.url() })).toContain(`Restored 1 project(s) (${SLUG}), 6 run(s)`);

    const moved = await npmStart({ DATABASE_URL: cluster.url(), BENCHTRACK_DATA_DIR: path.join(folder, "unused") });
    try {
      const after = await pagesOf(page, runId);
      expect(after).toEqual(before);
      await lookAt(page, "moved-run-page");
    } finally {
      await moved.stop();
    }
  } finally {
    await cluster.remove();
    rmSync(folder, { recursive: true, force: true });
  }
});
