import { execFile, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { E2E_FRESH_PORT } from "../../playwright.config";
import { FORMAT_LIST } from "../../server/domain/parsers/format-list";
import { WRITES_SCREENSHOTS, lookAt } from "../helpers";

/**
 * The first ten minutes, as a newcomer lives them: `npm start` with nothing of Benchtrack's in the
 * environment (only an empty data folder in a temporary directory instead of ./.data, and the port),
 * then the commands the empty home page shows and the README's quick start and token recipes, run
 * as written in bash with curl, ending with stored runs the API lists. The commands are read from the
 * rendered page and from README.md, so the test breaks when either drifts from what works. The build
 * is the one the other servers of this suite use (`npm start` finds it current).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const BASE_URL = `http://localhost:${E2E_FRESH_PORT}`;
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** A newcomer's shell: the machine's environment, without any Benchtrack variable. */
function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(BENCHTRACK_|E2E_)|^(DATABASE_URL|PORT)$/.test(name)),
  );
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

interface StartedServer {
  output: () => string;
  stop: () => Promise<void>;
}

/** `npm start` in the repository, in its own process group (stop() ends next-server too), once it serves. */
async function npmStart(dataDir: string): Promise<StartedServer> {
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: ROOT,
    env: newcomerEnv({ PORT: String(E2E_FRESH_PORT), BENCHTRACK_DATA_DIR: dataDir }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
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
  // Ready once start.ts has said where it runs and what it did about the admin token (both after next's "Ready").
  const deadline = Date.now() + 150_000;
  while (!/Benchtrack is running at[\s\S]*\n\n[\s\S]*Admin token/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not get ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { output: () => output, stop };
}

/** Runs shell lines as a person would paste them, in the repository's folder; their output is curl's JSON answer. */
async function runInShell(script: string, env: Record<string, string> = {}): Promise<any> {
  const { stdout } = await promisify(execFile)("bash", ["-c", `set -euo pipefail\n${script}`], {
    cwd: ROOT,
    env: newcomerEnv(env),
    encoding: "utf8",
  });
  try {
    return JSON.parse(stdout);
  } catch {
    throw new Error(`not a JSON answer from:\n${script}\n---\n${stdout}`);
  }
}

/** The text of a README section (from its heading to the next one of its level). */
function readmeSection(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(-1);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

test.describe("a first upload on a fresh server", () => {
  test.describe.configure({ mode: "serial" });

  let dataDir: string;
  let server: StartedServer;
  let adminToken: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "benchtrack-first-upload-")), "data");
    server = await npmStart(dataDir);
  });

  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  test("npm start makes an admin token, prints it once and keeps it in the data folder, readable by its owner only", () => {
    const tokenFile = path.join(dataDir, "admin-token");
    const printed = /Admin token, made on this first start[^\n]*\n\n {2}(\S+)\n/.exec(server.output());
    expect(printed, server.output()).not.toBeNull();
    adminToken = printed![1]!;
    expect(adminToken).toMatch(/^bt_admin_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(adminToken);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(server.output()).toContain(`export BENCHTRACK_ADMIN_TOKEN=$(cat ${tokenFile})`);
  });

  test("the empty home page's commands upload a first run to this server", async ({ page, request }) => {
    await page.goto(BASE_URL);
    const hint = page.getByTestId("empty-projects");
    await expect(hint).toBeVisible();
    // Every format the registry reads is listed, by tool, and the token itself is never on the page.
    await expect(page.getByTestId("first-upload-formats").locator("dt")).toHaveText([...new Set(FORMAT_LIST.map((format) => format.tool))]);
    await expect(hint).toContainText(`Formats read (${FORMAT_LIST.length})`);
    expect(await page.content()).not.toContain(adminToken);

    if (WRITES_SCREENSHOTS) {
      for (const width of [1440, 375]) {
        for (const colorScheme of ["light", "dark"] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          await lookAt(page, `first-upload-empty-${width}-${colorScheme}`);
        }
      }
    }

    const takeToken = await page.getByRole("figure", { name: "Take the admin token" }).locator("code").textContent();
    const upload = await page.getByRole("figure", { name: "Upload a first run" }).locator("code").textContent();
    expect(takeToken).toBe(`export BENCHTRACK_ADMIN_TOKEN=$(cat ${path.join(dataDir, "admin-token")})`);
    expect(upload).toContain(`"${BASE_URL}/api/v1/projects/my-service/runs?`);

    const answer = await runInShell(`${takeToken}\n${upload}`);
    expect(answer, JSON.stringify(answer)).toMatchObject({ project: "my-service", format: "k6-summary" });
    expect(answer.url).toBe(`${BASE_URL}/projects/my-service/runs/${answer.id}`);

    const listed = await (await request.get(`${BASE_URL}/api/v1/projects/my-service/runs`)).json();
    expect(listed.runs.map((run: { id: string }) => run.id)).toEqual([answer.id]);
    await page.reload();
    await expect(page.getByTestId("project-card")).toContainText(["my-service"]);
  });

  test("the README's quick start, then its token recipe, then an upload with that token, in this order", async ({ request }) => {
    const [quickStart, ...more] = [...readmeSection("Quick start: a first upload").matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(more).toEqual([]);
    // The README is written for the default port and data folder; this server has its own.
    expect(quickStart).toContain("http://localhost:3000");
    expect(quickStart).toContain("$(cat .data/admin-token)");
    const script = quickStart!.replaceAll("http://localhost:3000", BASE_URL).replaceAll(".data/admin-token", path.join(dataDir, "admin-token"));
    const first = await runInShell(script);
    expect(first, JSON.stringify(first)).toMatchObject({ project: "listings", format: "k6-summary" });

    // The same shell goes on: the quick start's exports, then the "Upload from CI" token recipe over the API.
    const exports = script.split("\n").filter((line) => line.startsWith("export ")).join("\n");
    const uploadFromCi = readmeSection("Upload from CI");
    const tokenRecipe = /^curl -X POST [^\n]*\/api\/v1\/projects\/listings\/tokens"$/m.exec(uploadFromCi)?.[0];
    expect(tokenRecipe, "the token recipe of Upload from CI").toBeDefined();
    const minted = await runInShell(`${exports}\n${tokenRecipe}`);
    expect(minted.token, JSON.stringify(minted)).toMatch(/^bt_/);

    // And the project token uploads with the recipe for any other tool (the Benchtrack JSON format).
    const anyTool = /^# Any other tool[^\n]*\n[\s\S]*?\nJSON$/m.exec(uploadFromCi)?.[0];
    expect(anyTool, "the Benchtrack JSON recipe of Upload from CI").toBeDefined();
    const second = await runInShell(`${exports}\nexport BENCHTRACK_TOKEN=${minted.token}\n${anyTool}`);
    expect(second, JSON.stringify(second)).toMatchObject({ project: "listings", format: "benchtrack" });

    const listed = await (await request.get(`${BASE_URL}/api/v1/projects/listings/runs`)).json();
    expect(listed.runs.map((run: { id: string }) => run.id).sort()).toEqual([first.id, second.id].sort());
  });
});
