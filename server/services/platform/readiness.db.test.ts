import { afterAll, describe, expect, it } from "vitest";
import { PrismaClient } from "../../generated/prisma/client";
import { SCRATCHES } from "../../migrate/scratch-database.fixture";
import type { Scratch } from "../../migrate/scratch-database.fixture";
import { markWorkers } from "./job-queue";
import { checkReadiness } from "./readiness";

// Readiness on a database whose migrations were not applied (a replica started before `npm run
// db:migrate`): not ready, naming how many are pending and the first. On the embedded database and,
// with DATABASE_URL, a new database of that server.
afterAll(() => markWorkers("not-started"));

describe.each(SCRATCHES)("readiness on $name", ({ open }) => {
  it("is not ready while migrations are pending, and says which", async () => {
    const scratch: Scratch = await open();
    const prisma = new PrismaClient({ adapter: scratch.adapter() });
    try {
      markWorkers("running");
      // A first query opens the connection (PGlite's start takes seconds on a busy machine): not what the 2 s are for.
      await prisma.$queryRaw`SELECT 1`;
      const empty = await checkReadiness({ prisma, workersEnabled: true });
      expect(empty.status).toBe("not_ready");
      expect(empty.checks.database).toEqual({ ok: true, status: "ok" });
      expect(empty.checks.jobs).toEqual({ ok: true, status: "running" });
      expect(empty.checks.migrations).toMatchObject({ ok: false, status: "pending" });
      expect(empty.checks.migrations.reason).toMatch(/^(\d+) of \1 migrations not applied \(first: \d{14}_init\w*\): run npm run db:migrate$/);

      // Prisma's table with every migration but the newest recorded: one pending, the newest.
      await scratch.exec(`CREATE TABLE _prisma_migrations (id text PRIMARY KEY, migration_name text NOT NULL,
        finished_at timestamptz, rolled_back_at timestamptz)`);
      const { listMigrationsOnDisk, shippedMigrationsDir } = await import("../../migrate/applied");
      const shipped = await listMigrationsOnDisk(shippedMigrationsDir()!);
      const values = shipped.slice(0, -1).map((name, index) => `('${index}', '${name}', now(), NULL)`);
      await scratch.exec(`INSERT INTO _prisma_migrations VALUES ${values.join(", ")}`);
      const one = await checkReadiness({ prisma, workersEnabled: true });
      expect(one.checks.migrations).toEqual({
        ok: false,
        status: "pending",
        reason: `1 of ${shipped.length} migrations not applied (first: ${shipped.at(-1)}): run npm run db:migrate`,
      });
      await scratch.exec(`INSERT INTO _prisma_migrations VALUES ('last', '${shipped.at(-1)}', now(), NULL)`);
      expect(await checkReadiness({ prisma, workersEnabled: true })).toMatchObject({ status: "ready", checks: { migrations: { ok: true, status: "ok" } } });
    } finally {
      await prisma.$disconnect();
      await scratch.close();
    }
  });
});

describe("readiness without a database", () => {
  it("is not ready when the database could not be opened, or does not answer in time", async () => {
    markWorkers("running");
    const unopened = await checkReadiness({ openError: Object.assign(new Error("postgres://u:secret@h/db refused"), { code: "ECONNREFUSED" }), workersEnabled: true });
    expect(unopened.checks.database).toEqual({ ok: false, status: "unreachable", reason: "the database could not be opened (error ECONNREFUSED)" });
    const silent = await checkReadiness({ prisma: { $queryRaw: (() => new Promise(() => undefined)) as never }, workersEnabled: true, timeoutMs: 50 });
    expect(silent.status).toBe("not_ready");
    expect(silent.checks.database).toEqual({ ok: false, status: "unreachable", reason: "no answer within 50 ms" });
  });
});
