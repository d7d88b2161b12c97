import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db";
import type { DatabaseTarget } from "../db";
import { migrateDatabase } from "./apply";
import { readMigrationList } from "./migrations";

describe("migrateDatabase on an embedded database folder", () => {
  let dataDir: string;

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("applies every migration once, and keeps data across restarts", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "benchtrack-migrate-"));
    const target: DatabaseTarget = { kind: "embedded", dataDir };
    const onDisk = (await readMigrationList()).migrationDirectories.map((directory) => directory.path);

    expect(await migrateDatabase(target)).toEqual(onDisk);
    expect(await migrateDatabase(target)).toEqual([]);

    const first = await openDatabase(target);
    await first.prisma.project.create({ data: { slug: "kept", name: "Kept" } });
    await first.close();

    const second = await openDatabase(target);
    try {
      expect(await second.prisma.project.count({ where: { slug: "kept" } })).toBe(1);
      const recorded = await second.prisma.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL`;
      expect(Number(recorded[0]?.n)).toBe(onDisk.length);
    } finally {
      await second.close();
    }
    // Every migration on a folder-backed PGlite, fsync'd: about 20 s alone, a minute on a loaded machine.
  }, 180_000);

  it("refuses a second process on the same folder with a clear message", async () => {
    const target: DatabaseTarget = { kind: "embedded", dataDir };
    const { writeFile } = await import("node:fs/promises");
    // PID 1 is always alive: it stands for another server holding the folder.
    await writeFile(path.join(dataDir, "benchtrack.pid"), "1");
    await expect(openDatabase(target)).rejects.toThrow(/in use by process 1/);
    await rm(path.join(dataDir, "benchtrack.pid"));
  });
});

describe("a process that migrates a fresh database", () => {
  it("holds no timer once done, so it exits then (the schema engine's 10 s timers are cleared)", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "benchtrack-migrate-exit-"));
    try {
      const script = [
        `import { migrateDatabase } from "./server/migrate/apply.ts";`,
        `const applied = await migrateDatabase({ kind: "embedded", dataDir: ${JSON.stringify(dataDir)} });`,
        `console.log(JSON.stringify({ applied: applied.length, resources: process.getActiveResourcesInfo() }));`,
      ].join("\n");
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
        cwd: path.resolve(import.meta.dirname, "../.."),
        encoding: "utf8",
      });
      const { applied, resources } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { applied: number; resources: string[] };
      expect(applied).toBe((await readMigrationList()).migrationDirectories.length);
      expect(resources.filter((resource) => resource === "Timeout")).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
