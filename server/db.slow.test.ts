import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "benchtrack-lock-"));
const dataDir = path.join(dir, "data");

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A process that opens the embedded database and stops as `next start` does on SIGTERM: process.exit
// from a signal handler, with no close() of the database.
const CHILD = `
import { openDatabase } from ${JSON.stringify(path.join(ROOT, "server", "db.ts"))};
await openDatabase({ kind: "embedded", dataDir: ${JSON.stringify(dataDir)} });
process.on("SIGTERM", () => process.exit(0));
console.log("open");
setInterval(() => undefined, 1000);
`;

describe("the embedded database's lock", () => {
  it("is released when the serving process stops normally", async () => {
    const script = path.join(dir, "serve.mts");
    writeFileSync(script, CHILD);
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("open") && resolve());
      child.on("exit", (code) => reject(new Error(`exited early with ${code}`)));
    });
    const lock = path.join(dataDir, "benchtrack.pid");
    expect(existsSync(lock)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});
