import type { PrismaClient } from "../../generated/prisma/client";

/**
 * The embedded database's stand-in for autovacuum (PGlite runs none): the tables whose rows changed past
 * autovacuum's thresholds since their last ANALYZE or VACUUM get one, by autovacuum's rules with its
 * settings read from the database (ANALYZE past 50 rows + 10% of the table changed; VACUUM past 50 +
 * 20% of it dead, or 1,000 + 20% inserted, which keeps an append-mostly table's visibility map set for
 * index-only scans). Per-table autovacuum settings are not read. Without it the planner keeps the
 * statistics of the table's first rows: on a fresh embedded database after 3,000 uploads, one ANALYZE
 * made the next uploads 12.1 ms against 17.5 ms (docs/performance.md); and the job queue's rows, updated
 * and deleted with every upload, were never vacuumed. Run by the `refresh-statistics` job (server/jobs),
 * on the embedded database only. The embedded database counts changes from its start only (its counts
 * are not kept when it closes), so the job's first pass in a process analyzes every table (`everyTable`).
 */

/** What one pass did: the tables vacuumed (dead or inserted rows past the thresholds) and those analyzed, by qualified name. */
export interface StatisticsRefresh {
  vacuumed: string[];
  analyzed: string[];
}

/** A table whose dead or inserted rows (vacuum) or changed rows (analyze) passed autovacuum's thresholds. */
export interface StaleTable {
  name: string;
  vacuum: boolean;
  analyze: boolean;
}

/** The tables past either threshold now, by qualified name. */
export async function findStaleTables(db: PrismaClient): Promise<StaleTable[]> {
  return (await readTables(db)).filter((table) => table.vacuum || table.analyze);
}

/** Every user table, each with whether it is past either threshold now. */
async function readTables(db: PrismaClient): Promise<StaleTable[]> {
  // A session's counts reach pg_stat_user_tables when it next reports them (at most once a second): the
  // embedded database's one session reports its own now. (On PostgreSQL, other sessions report theirs;
  // the function exists from PostgreSQL 15, so older servers skip it.)
  await db.$executeRaw`DO $$ BEGIN
    IF current_setting('server_version_num')::int >= 150000 THEN PERFORM pg_stat_force_next_flush(); END IF;
  END $$`;
  // reltuples is -1 for a table never analyzed: counted as empty, so its first 50 changed rows are enough.
  return db.$queryRaw<StaleTable[]>`
    SELECT format('%I.%I', s.schemaname, s.relname) AS name,
           s.n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
                          + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0)
           OR s.n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
                                     + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * greatest(c.reltuples, 0) AS vacuum,
           s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
                                   + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0) AS analyze
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     ORDER BY s.schemaname, s.relname`;
}

/** One pass over the stale tables; `everyTable` analyzes the others too (the first pass after a start). */
export async function refreshStaleStatistics(db: PrismaClient, { everyTable = false } = {}): Promise<StatisticsRefresh> {
  const done: StatisticsRefresh = { vacuumed: [], analyzed: [] };
  const tables = everyTable ? (await readTables(db)).map((table) => ({ ...table, analyze: true })) : await findStaleTables(db);
  for (const table of tables) {
    // The name is the database's own, quoted by format('%I'). VACUUM runs outside a transaction, as here.
    await db.$executeRawUnsafe(table.vacuum ? `VACUUM (ANALYZE) ${table.name}` : `ANALYZE ${table.name}`);
    if (table.vacuum) done.vacuumed.push(table.name);
    done.analyzed.push(table.name);
  }
  return done;
}
