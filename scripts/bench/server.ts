import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT } from "../lib/build";

/**
 * The production server under test: `next start` on 127.0.0.1, its output kept in a log file, its
 * readiness awaited by polling GET /api/v1/projects, and the pid of the process that actually serves
 * (`next start` may hand the work to a `next-server` child) found for memory sampling.
 */
export interface BenchServer {
  baseUrl: string;
  /** The process that serves requests: the one whose memory is measured. */
  serverPid: number;
  logPath: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

export async function startServer(options: {
  port: number;
  env: Record<string, string>;
  logPath: string;
  /** The checkout to serve (default this one): a baseline worktree (baseline.ts). */
  root?: string;
}): Promise<BenchServer> {
  const { port, env, logPath, root = ROOT } = options;
  await assertPortFree(port);
  const log = createWriteStream(logPath);
  const child = spawn(
    path.join(root, "node_modules", ".bin", "next"),
    ["start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      // The bench measures throughput, so the server's rate limits are off (0) unless the case sets them.
      env: {
        ...process.env,
        BENCHTRACK_RATE_UPLOADS_PER_MINUTE: "0",
        BENCHTRACK_RATE_READS_PER_MINUTE: "0",
        ...env,
        NODE_ENV: "production",
        PORT: String(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, so stop() ends next-server children too
    },
  );
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };
  try {
    await waitUntilReady(baseUrl, child);
    return { baseUrl, serverPid: findServingPid(child.pid ?? 0), logPath, stop };
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}; server log: ${logPath}\n${tailOf(logPath)}`, { cause: error });
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Refuses a busy port: polling it would otherwise measure somebody else's server. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", () => reject(new Error(`Port ${port} on 127.0.0.1 is in use; stop what listens there first`)));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

async function waitUntilReady(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${baseUrl}/api/v1/projects`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server at ${baseUrl} was not ready after ${READY_TIMEOUT_MS / 1000} s`);
}

/** The deepest process named next-server under `rootPid` (or under it at all), else `rootPid` itself. */
function findServingPid(rootPid: number): number {
  const tree = [rootPid, ...descendantsOf(rootPid)];
  const named = tree.filter((pid) => /next-server/.test(commandOf(pid)));
  return named.at(-1) ?? tree.at(-1) ?? rootPid;
}

function descendantsOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name before it may contain spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

function tailOf(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "(no log)";
  }
}
