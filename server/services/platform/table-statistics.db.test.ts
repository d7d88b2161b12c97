import { describe, expect, it } from "vitest";
import { PrismaClient } from "../../generated/prisma/client";
import { SCRATCHES } from "../../migrate/scratch-database.fixture";
import { refreshStaleStatistics } from "./table-statistics";

// The embedded database's stand-in for autovacuum, on the embedded database and (with DATABASE_URL) a
// new database of that server: a table past autovacuum's thresholds is analyzed (and vacuumed when its
// dead or inserted rows are), once; one below them is left alone until a pass of every table.
describe.each(SCRATCHES)("stale statistics on $name", ({ open }) => {
  it("analyzes and vacuums the tables that changed past autovacuum's thresholds, once, and every table when asked", async () => {
    const scratch = await open();
    const prisma = new PrismaClient({ adapter: scratch.adapter() });
    // The counts a session collects reach pg_stat_user_tables when it flushes them (PostgreSQL: once
    // idle, at most every few seconds): forced here, then waited for.
    const changed = async (sql: string, table: string, enough: (row: { mod: number; dead: number }) => boolean) => {
      await scratch.exec(`${sql}; SELECT pg_stat_force_next_flush();`);
      for (let attempt = 0; attempt < 100; attempt++) {
        const [row] = await scratch.rows<{ mod: number; dead: number }>(
          `SELECT n_mod_since_analyze::int AS mod, n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = '${table}'`,
        );
        if (row && enough(row)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the changes to ${table} never reached pg_stat_user_tables`);
    };
    const statistics = async (table: string) =>
      (await scratch.rows<{ analyzed: boolean; tuples: number }>(
        `SELECT s.last_analyze IS NOT NULL AS analyzed, c.reltuples::int AS tuples
           FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = '${table}'`,
      ))[0];
    try {
      // autovacuum off for these (PostgreSQL's would otherwise race the pass under test).
      await scratch.exec(`CREATE TABLE grown (id int PRIMARY KEY) WITH (autovacuum_enabled = false);
                          CREATE TABLE quiet (id int PRIMARY KEY) WITH (autovacuum_enabled = false);
                          CREATE TABLE appended (id int PRIMARY KEY) WITH (autovacuum_enabled = false)`);
      await changed("INSERT INTO grown SELECT g FROM generate_series(1, 900) g", "grown", (row) => row.mod >= 900);
      await changed("INSERT INTO quiet SELECT g FROM generate_series(1, 20) g", "quiet", (row) => row.mod >= 20);

      // 900 new rows in a table never analyzed: past 50 + 10% of 0 (and under the 1,000 inserted rows
      // that call for a VACUUM). Twenty rows are not.
      expect(await refreshStaleStatistics(prisma)).toEqual({ vacuumed: [], analyzed: ["public.grown"] });
      expect(await statistics("grown")).toEqual({ analyzed: true, tuples: 900 });
      expect(await statistics("quiet")).toEqual({ analyzed: false, tuples: -1 });
      expect(await refreshStaleStatistics(prisma)).toEqual({ vacuumed: [], analyzed: [] });

      // 80 more rows: under 50 + 10% of 900. 400 deleted: past 50 + 20% of dead rows, so vacuumed too.
      await changed("INSERT INTO grown SELECT g FROM generate_series(901, 980) g", "grown", (row) => row.mod >= 80);
      expect(await refreshStaleStatistics(prisma)).toEqual({ vacuumed: [], analyzed: [] });
      await changed("DELETE FROM grown WHERE id <= 400", "grown", (row) => row.dead >= 400);
      expect(await refreshStaleStatistics(prisma)).toEqual({ vacuumed: ["public.grown"], analyzed: ["public.grown"] });
      expect(await statistics("grown")).toEqual({ analyzed: true, tuples: 580 });

      // 2,000 rows appended: past the 1,000 inserted rows that call for a VACUUM (its visibility map).
      await changed("INSERT INTO appended SELECT g FROM generate_series(1, 2000) g", "appended", (row) => row.mod >= 2000);
      expect(await refreshStaleStatistics(prisma)).toEqual({ vacuumed: ["public.appended"], analyzed: ["public.appended"] });

      // The first pass after a start analyzes every table, the quiet one too (its counts may have been lost).
      expect(await refreshStaleStatistics(prisma, { everyTable: true })).toEqual({
        vacuumed: [],
        analyzed: ["public.appended", "public.grown", "public.quiet"],
      });
      expect(await statistics("quiet")).toEqual({ analyzed: true, tuples: 20 });
    } finally {
      await prisma.$disconnect();
      await scratch.close();
    }
  });
});
