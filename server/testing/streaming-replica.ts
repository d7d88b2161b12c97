import { chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, postgresCommand, postgresUser } from "./postgres-cluster";

/**
 * A real streaming replica of a PostgreSQL server, for the read-replica tests and the bench: a second
 * cluster made by `pg_basebackup -R -X stream` from the server DATABASE_URL names, started with pg_ctl
 * on a free port of 127.0.0.1 in a temporary folder, hot standby (reads only), and removed by `stop`.
 * PostgreSQL refuses to run as root: as root, every command runs as the `postgres` user. The primary
 * must allow replication connections from 127.0.0.1 (pg_hba.conf: `host replication all 127.0.0.1/32
 * trust`; .ci/run adds it).
 */
export interface StreamingReplica {
  port: number;
  /** The replica's URL for one database of the primary (the primary's own database by default). */
  url(database?: string): string;
  /** Stops applying WAL (a replica lagging for as long as a test needs), and starts again. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary had written when called; its lag in ms. */
  catchUp(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

export async function startStreamingReplica(primaryUrl: string): Promise<StreamingReplica> {
  const primary = new URL(primaryUrl);
  const database = decodeURIComponent(primary.pathname.slice(1));
  const user = decodeURIComponent(primary.username || "postgres");
  const settings = await readPrimarySettings(primaryUrl);
  const bin = `/usr/lib/postgresql/${settings.major}/bin`;
  const asPostgres = process.getuid?.() === 0 ? await postgresUser() : null;
  const folder = mkdtempSync(path.join(os.tmpdir(), "benchtrack-replica-"));
  const exec = await postgresCommand(bin, folder);
  const dataDir = path.join(folder, "data");
  const port = await freePort();
  let started = false;
  try {
    await exec("pg_basebackup", ["-h", primary.hostname, "-p", primary.port || "5432", "-U", user, "-D", dataDir, "-R", "-X", "stream", "-c", "fast"]);
    // Debian keeps the configuration outside the data folder, so the backup has none: the replica's own.
    const files: Record<string, string> = {
      "postgresql.conf": "",
      "pg_hba.conf": "local all all trust\nhost all all 127.0.0.1/32 trust\n",
      "pg_ident.conf": "",
    };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(path.join(dataDir, name), text);
      if (asPostgres) chownSync(path.join(dataDir, name), asPostgres.uid, asPostgres.gid);
    }
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-k ${folder}`,
      "-c hot_standby=on",
      // The replica tells the primary which rows its queries still read: fewer cancelled reads.
      "-c hot_standby_feedback=on",
      // A hot standby needs at least the primary's values of these.
      `-c max_connections=${settings.maxConnections}`,
      `-c max_worker_processes=${settings.maxWorkerProcesses}`,
      `-c max_locks_per_transaction=${settings.maxLocksPerTransaction}`,
      `-c max_prepared_transactions=${settings.maxPreparedTransactions}`,
      `-c max_wal_senders=${settings.maxWalSenders}`,
      "-c logging_collector=off",
    ].join(" ");
    await exec("pg_ctl", ["-D", dataDir, "-l", path.join(folder, "replica.log"), "-w", "-t", "120", "-o", options, "start"]);
    started = true;
  } catch (error) {
    if (started) await exec("pg_ctl", ["-D", dataDir, "-m", "immediate", "stop"]).catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    throw new Error(
      `Could not start a streaming replica of ${primary.host} (does pg_hba.conf allow "host replication all 127.0.0.1/32 trust"?): ${(error as Error).message}`,
    );
  }

  const replicaUrl = (name = database) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
  const onReplica = async <T>(sql: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: replicaUrl() });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url: replicaUrl,
    pauseReplay: async () => {
      await onReplica("SELECT pg_wal_replay_pause()");
    },
    resumeReplay: async () => {
      await onReplica("SELECT pg_wal_replay_resume()");
    },
    catchUp: async (timeoutMs = 30_000) => {
      const startedAt = performance.now();
      const primaryClient = new pg.Client({ connectionString: primaryUrl });
      const replicaClient = new pg.Client({ connectionString: replicaUrl() });
      await Promise.all([primaryClient.connect(), replicaClient.connect()]);
      try {
        const position = ((await primaryClient.query("SELECT pg_current_wal_lsn()::text AS position")).rows[0] as { position: string }).position;
        for (;;) {
          const result = await replicaClient.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed", [position]);
          if ((result.rows[0] as { replayed: boolean }).replayed) return performance.now() - startedAt;
          if (performance.now() - startedAt > timeoutMs) throw new Error(`The replica did not replay ${position} within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      } finally {
        await Promise.all([primaryClient.end(), replicaClient.end()]);
      }
    },
    stop: async () => {
      await exec("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]).catch(() => exec("pg_ctl", ["-D", dataDir, "-m", "immediate", "stop"]));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function readPrimarySettings(primaryUrl: string) {
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  try {
    const value = async (name: string) => ((await client.query(`SHOW ${name}`)).rows[0] as Record<string, string>)[name]!;
    return {
      major: Math.floor(Number(await value("server_version_num")) / 10_000),
      maxConnections: await value("max_connections"),
      maxWorkerProcesses: await value("max_worker_processes"),
      maxLocksPerTransaction: await value("max_locks_per_transaction"),
      maxPreparedTransactions: await value("max_prepared_transactions"),
      maxWalSenders: await value("max_wal_senders"),
    };
  } finally {
    await client.end();
  }
}
