import { cp, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { openEmptyPGlite } from "./cluster-cache";
import { MIGRATIONS_DIR, readMigrationList } from "./migrations";

/**
 * Scratch databases for tests of a data migration: the embedded database always, and a new database on
 * the DATABASE_URL server when it is set; and a folder of the migrations before the one under test.
 */

/** A scratch database: SQL in, rows out, and the adapter migrations go through. */
export interface Scratch {
  exec: (sql: string) => Promise<void>;
  rows: <T = Record<string, unknown>>(sql: string) => Promise<T[]>;
  adapter: () => SqlMigrationAwareDriverAdapterFactory;
  close: () => Promise<void>;
}

async function embeddedScratch(): Promise<Scratch> {
  const db = await openEmptyPGlite();
  return {
    exec: async (sql) => void (await db.exec(sql)),
    rows: async <T,>(sql: string) => (await db.query<T>(sql)).rows,
    adapter: () => new PrismaPGlite(db),
    close: () => db.close(),
  };
}

/** A new database on the DATABASE_URL server, dropped again on close. */
async function postgresScratch(url: string): Promise<Scratch> {
  const name = `benchtrack_migration_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const scratchUrl = new URL(url);
  scratchUrl.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: scratchUrl.toString() });
  await client.connect();
  return {
    exec: async (sql) => void (await client.query(sql)),
    rows: async <T,>(sql: string) => (await client.query(sql)).rows as T[],
    adapter: () => new PrismaPg({ connectionString: scratchUrl.toString() }),
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export const SCRATCHES: { name: string; open: () => Promise<Scratch> }[] = [
  { name: "embedded (PGlite)", open: embeddedScratch },
  ...(process.env.DATABASE_URL?.trim() ? [{ name: "PostgreSQL", open: () => postgresScratch(process.env.DATABASE_URL!.trim()) }] : []),
];


/** A new folder holding the migrations before `migration` (and the lock file); returns it and their names. */
export async function migrationsBefore(migration: string): Promise<{ folder: string; earlier: string[] }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "benchtrack-migrations-"));
  const all = (await readMigrationList()).migrationDirectories.map((directory) => directory.path);
  const earlier = all.filter((name) => name < migration);
  for (const name of earlier) await cp(path.join(MIGRATIONS_DIR, name), path.join(folder, name), { recursive: true });
  await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(folder, "migration_lock.toml"));
  return { folder, earlier };
}

/** Adds `migration` to a folder made by migrationsBefore. */
export async function addMigration(folder: string, migration: string): Promise<void> {
  await cp(path.join(MIGRATIONS_DIR, migration), path.join(folder, migration), { recursive: true });
}
