import type { PrismaClient } from "../../generated/prisma/client";

/**
 * The embedded database's stand-in for autovacuum (PGlite runs none): the tables whose rows changed past
 * autovacuum's own thresholds since their last ANALYZE or VACUUM get one, by the same rule PostgreSQL's
 * autovacuum applies (its settings read from the database: 50 rows + 10% of the table for ANALYZE, 50 +
 * 20% of dead rows for VACUUM). Without it the planner keeps the statistics of the table's first rows:
 * on a fresh embedded database after 3,000 uploads, one ANALYZE made the next uploads 12.1 ms against
 * 17.5 ms (docs/performance.md); and the job queue's rows, updated and deleted with every upload, were
 * never vacuumed. Run by the `refresh-statistics` job (server/jobs), on the embedded database only.
 */

/** What one pass did: the tables vacuumed (dead rows past the threshold) and those analyzed, by qualified name. */
export interface StatisticsRefresh {
  vacuumed: string[];
  analyzed: string[];
}

/** A table whose dead rows (vacuum) or changed rows (analyze) passed autovacuum's thresholds. */
export interface StaleTable {
  name: string;
  vacuum: boolean;
  analyze: boolean;
}

/** The tables past either threshold now, by qualified name. */
export async function findStaleTables(db: PrismaClient): Promise<StaleTable[]> {
  // A session's counts reach pg_stat_user_tables when it next reports them (at most once a second): the
  // embedded database's one session reports its own now. (On PostgreSQL, other sessions report theirs.)
  await db.$executeRaw`SELECT pg_stat_force_next_flush()`;
  // reltuples is -1 for a table never analyzed: counted as empty, so its first 50 changed rows are enough.
  const tables = await db.$queryRaw<StaleTable[]>`
    SELECT format('%I.%I', s.schemaname, s.relname) AS name,
           s.n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
                          + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0) AS vacuum,
           s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
                                   + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0) AS analyze
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     ORDER BY s.schemaname, s.relname`;
  return tables.filter((table) => table.vacuum || table.analyze);
}

export async function refreshStaleStatistics(db: PrismaClient): Promise<StatisticsRefresh> {
  const done: StatisticsRefresh = { vacuumed: [], analyzed: [] };
  for (const table of await findStaleTables(db)) {
    // The name is the database's own, quoted by format('%I'). VACUUM runs outside a transaction, as here.
    await db.$executeRawUnsafe(table.vacuum ? `VACUUM (ANALYZE) ${table.name}` : `ANALYZE ${table.name}`);
    if (table.vacuum) done.vacuumed.push(table.name);
    done.analyzed.push(table.name);
  }
  return done;
}
