import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of a test's own: `initdb` into a temporary folder, started with pg_ctl on a free
 * port of 127.0.0.1, trust authentication, removed by `remove`. A test may stop and restart it (the
 * database-restart test) without disturbing the machine's shared server, which other tests use.
 * PostgreSQL refuses to run as root: as root, every command runs as the `postgres` user.
 */
export interface PostgresCluster {
  port: number;
  /** The URL of one of its databases (`postgres` by default), as user postgres. */
  url(database?: string): string;
  /** `pg_ctl stop -m fast` then start: every session is terminated; the server is back when this resolves. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, and `start` again: for a test that keeps the server down for a while. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its folder. */
  remove(): Promise<void>;
}

/** The newest PostgreSQL server installed the Debian way (/usr/lib/postgresql/<major>/bin), or null. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? null : path.join(root, majors[0], "bin");
}

/** Runs one of PostgreSQL's programs in `folder`, as the postgres user when this process is root. */
export async function postgresCommand(bin: string, folder: string): Promise<(command: string, args: string[]) => Promise<{ stdout: string }>> {
  const asPostgres = process.getuid?.() === 0 ? await postgresUser() : null;
  if (asPostgres) chownSync(folder, asPostgres.uid, asPostgres.gid);
  return (command, args) =>
    asPostgres
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args], { cwd: folder })
      : run(path.join(bin, command), args, { cwd: folder });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("No PostgreSQL server is installed (/usr/lib/postgresql/<major>/bin/initdb)");
  const folder = mkdtempSync(path.join(os.tmpdir(), "benchtrack-cluster-"));
  const exec = await postgresCommand(bin, folder);
  const dataDir = path.join(folder, "data");
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-k ${folder}`,
    // A throw-away cluster: nothing here must survive a power cut, and the tests go faster.
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c logging_collector=off",
  ].join(" ");
  const start = async () => {
    await exec("pg_ctl", ["-D", dataDir, "-l", path.join(folder, "server.log"), "-w", "-t", "120", "-o", options, "start"]);
  };
  const stop = async () => {
    await exec("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "120", "stop"]);
  };
  try {
    await exec("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    // Replication too: a streaming replica of this cluster (streaming-replica.ts) can be made from it.
    writeFileSync(path.join(dataDir, "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n");
    await start();
  } catch (error) {
    await exec("pg_ctl", ["-D", dataDir, "-m", "immediate", "stop"]).catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`Could not start a PostgreSQL cluster in ${folder}: ${(error as Error).message}`);
  }
  return {
    port,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    // What `pg_ctl restart -m fast` does, with the server's log kept in its file (restart has no -l).
    restart: async () => {
      await stop();
      await start();
    },
    stop,
    start,
    remove: async () => {
      await stop().catch(() => exec("pg_ctl", ["-D", dataDir, "-m", "immediate", "stop"]).catch(() => undefined));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A TCP port of 127.0.0.1 nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
