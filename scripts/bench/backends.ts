import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { migrateDatabase } from "../../server/migrate/apply";

/**
 * The databases a benchmark runs against, each created fresh and thrown away afterwards: an embedded
 * (PGlite) data folder in a temporary directory, or a new database on a PostgreSQL server.
 */
export type BackendKind = "embedded" | "postgres";

export interface Backend {
  kind: BackendKind;
  description: string;
  /** Environment the server needs to use this database. */
  env: Record<string, string>;
  /** A kept database (keptPostgres): a history it already holds is measured again, not seeded anew. */
  kept?: boolean;
  dispose(): Promise<void>;
}

/** The server benchmarks create their throw-away databases on, unless DATABASE_URL names another. */
export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export async function prepareEmbedded(): Promise<Backend> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "benchtrack-bench-data-"));
  await migrateDatabase({ kind: "embedded", dataDir });
  return {
    kind: "embedded",
    description: `embedded PGlite in ${dataDir}`,
    env: { BENCHTRACK_DATA_DIR: dataDir },
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * Creates `benchtrack_bench_<timestamp>` on the server of `serverUrl` and migrates it (with this
 * checkout's migrations, or `migrate`'s: a baseline build's own).
 */
export async function preparePostgres(serverUrl: string, migrate?: (databaseUrl: string) => Promise<void> | void): Promise<Backend> {
  const name = `benchtrack_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await runAdminStatement(serverUrl, `CREATE DATABASE ${name}`);
  const databaseUrl = withDatabase(serverUrl, name);
  const dispose = () => runAdminStatement(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    if (migrate) await migrate(databaseUrl);
    else await migrateDatabase({ kind: "postgres", url: databaseUrl });
  } catch (error) {
    await dispose();
    throw error;
  }
  const host = new URL(databaseUrl).host;
  return { kind: "postgres", description: `PostgreSQL ${host}/${name}`, env: { DATABASE_URL: databaseUrl }, dispose };
}

/**
 * A named database on the server of `serverUrl`, created (and migrated) if missing, and KEPT: disposing
 * it drops nothing. For a history too large to seed per run (`--page-database-url`): seeded once, then
 * measured again and again on the same rows.
 */
export async function keptPostgres(databaseUrl: string): Promise<Backend> {
  const name = new URL(databaseUrl).pathname.replace(/^\//, "");
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`A kept database's name must be a plain identifier, got "${name}"`);
  const exists = await adminQueryHasRows(databaseUrl, "SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (!exists) await runAdminStatement(databaseUrl, `CREATE DATABASE ${name}`);
  await migrateDatabase({ kind: "postgres", url: databaseUrl });
  const host = new URL(databaseUrl).host;
  return { kind: "postgres", description: `PostgreSQL ${host}/${name} (kept)`, env: { DATABASE_URL: databaseUrl }, kept: true, dispose: async () => {} };
}

export async function isPostgresReachable(serverUrl: string): Promise<boolean> {
  try {
    await runAdminStatement(serverUrl, "SELECT 1");
    return true;
  } catch {
    return false;
  }
}

/** The URL's server with another database (the maintenance database `postgres` for admin statements). */
function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQueryHasRows(serverUrl: string, sql: string, params: unknown[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres"), connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return ((await client.query(sql, params)).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

async function runAdminStatement(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({
    connectionString: withDatabase(serverUrl, "postgres"),
    connectionTimeoutMillis: 3_000,
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
