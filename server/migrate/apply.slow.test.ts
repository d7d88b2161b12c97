import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db";
import type { DatabaseTarget } from "../db";
import { migrateDatabase } from "./apply";
import { readMigrationList } from "./migrations";
import { CLUSTER_CACHE_DIR } from "./cluster-cache";
import { isNewDataDir, loadTemplateInto, readMigratedTemplate } from "./template";

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
    // From the migrated template (made first when the cache has none: about 10 s more).
  }, 180_000);

  it("refuses a second process on the same folder with a clear message", async () => {
    const target: DatabaseTarget = { kind: "embedded", dataDir };
    // PID 1 is always alive: it stands for another server holding the folder.
    await writeFile(path.join(dataDir, "benchtrack.pid"), "1");
    await expect(openDatabase(target)).rejects.toThrow(/in use by process 1/);
    await rm(path.join(dataDir, "benchtrack.pid"));
  });
});

describe("the migrated template a new embedded folder starts from", () => {
  it("is kept in the cache, and holds the schema the schema engine makes of the migrations", async () => {
    const { blob } = await readMigratedTemplate();
    const kept = (await readdir(CLUSTER_CACHE_DIR)).filter((name) => /^migrated-[0-9a-f]{16}\.tar$/.test(name));
    expect(kept.length).toBeGreaterThan(0);
    expect((await Promise.all(kept.map((name) => stat(path.join(CLUSTER_CACHE_DIR, name))))).map((file) => file.size)).toContain(blob.size);

    const schemaOf = async (target: DatabaseTarget) => {
      const database = await openDatabase(target);
      try {
        return await database.prisma.$queryRaw<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }[]>`
          SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
           WHERE table_schema = 'public' ORDER BY table_name, column_name`;
      } finally {
        await database.close();
      }
    };
    const indexesOf = async (target: DatabaseTarget) => {
      const database = await openDatabase(target);
      try {
        return await database.prisma.$queryRaw<{ indexdef: string }[]>`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexdef`;
      } finally {
        await database.close();
      }
    };
    const fromTemplate: DatabaseTarget = { kind: "embedded", dataDir: await mkdtemp(path.join(os.tmpdir(), "benchtrack-template-")) };
    const byEngine: DatabaseTarget = { kind: "embedded", dataDir: await mkdtemp(path.join(os.tmpdir(), "benchtrack-engine-")) };
    try {
      await migrateDatabase(fromTemplate);
      await (await openDatabase(byEngine)).close(); // a cluster of its own first: the schema engine then migrates it
      expect(await migrateDatabase(byEngine)).toEqual((await readMigrationList()).migrationDirectories.map((directory) => directory.path));
      const columns = await schemaOf(fromTemplate);
      expect(columns.length).toBeGreaterThan(100);
      expect(columns).toEqual(await schemaOf(byEngine));
      expect(await indexesOf(fromTemplate)).toEqual(await indexesOf(byEngine));
    } finally {
      await Promise.all([fromTemplate, byEngine].map((target) => rm((target as { dataDir: string }).dataDir, { recursive: true, force: true })));
    }
  }, 180_000);
});

describe("a new embedded folder made from the template", () => {
  it("is made whole beside a load a killed process left, and two processes making it at once make it once", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "benchtrack-template-load-"));
    try {
      const onDisk = (await readMigrationList()).migrationDirectories.map((directory) => directory.path);
      // What a start killed while loading leaves: a part of a cluster beside its place (pid 2^22 + 1 is
      // above Linux's pid_max, so never alive), and an empty cluster folder.
      const abandoned = path.join(dataDir, `pglite.loading-${2 ** 22 + 1}-0a1b2c3d`);
      await mkdir(path.join(abandoned, "base"), { recursive: true });
      await writeFile(path.join(abandoned, "PG_VERSION"), "17\n");
      await mkdir(path.join(dataDir, "pglite"));
      expect(isNewDataDir(dataDir)).toBe(true);

      const [first, second] = await Promise.all([loadTemplateInto(dataDir), loadTemplateInto(dataDir)]);
      expect([first, second].filter((applied) => applied !== null)).toEqual([onDisk]);
      expect(isNewDataDir(dataDir)).toBe(false);
      expect((await readdir(dataDir)).filter((name) => name.startsWith("pglite"))).toEqual(["pglite"]);
      expect(await migrateDatabase({ kind: "embedded", dataDir })).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("a process that migrates a fresh database", () => {
  it("holds no timer once done, so it exits then (the schema engine's 10 s timers are cleared)", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "benchtrack-migrate-exit-"));
    try {
      // A folder that holds a cluster already is migrated by the schema engine (a new one would load
      // the migrated template, and meet the engine only when making it).
      const script = [
        `import { openDatabase } from "./server/db.ts";`,
        `import { migrateDatabase } from "./server/migrate/apply.ts";`,
        `const target = { kind: "embedded", dataDir: ${JSON.stringify(dataDir)} };`,
        `await (await openDatabase(target)).close();`,
        `const applied = await migrateDatabase(target);`,
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
