import { readFileSync, readdirSync } from "node:fs";
import os from "node:os";

/**
 * Where a burst's CPU went on this machine (Linux /proc): the server under test, every PostgreSQL
 * process, this bench process (the load generator), and the rest of the machine. An upload rate is
 * bounded by the cores it shares with PostgreSQL and its own client: with the server's share at zero,
 * the machine could still do no more than cores ÷ (PostgreSQL + client + rest) per upload. That bound is
 * printed beside the rate, so a target no server could reach on this machine is told from one this
 * server misses. In a container /proc/stat is the host's: the busy share and "the rest" then include
 * other tenants' work.
 */
export interface CpuSplit {
  cores: number;
  /** CPU time per unit of work (an upload), in ms. */
  perUnitMs: { server: number; postgres: number; client: number; rest: number };
  /** The machine's busy share over the burst (0–1). */
  busy: number;
  /** Units per second the machine could do with the server's CPU at zero and the rest as measured. */
  ceilingWithFreeServer: number;
}

interface Reading {
  atMs: number;
  serverMs: number;
  postgresMs: number;
  clientMs: number;
  machineBusyMs: number;
}

/** /proc counts CPU time in ticks of USER_HZ, 100 a second on Linux's x86 and arm64. */
const TICK_MS = 1000 / 100;

/** A reading before the burst; `finish(units)` reads again and splits what was spent between them. Null off Linux. */
export function startCpuSplit(serverPid: number): { finish(units: number): CpuSplit | null } | null {
  if (process.platform !== "linux") return null;
  const before = takeReading(serverPid);
  if (!before) return null;
  return {
    finish(units) {
      const after = takeReading(serverPid);
      if (!after || units <= 0) return null;
      const cores = os.availableParallelism();
      const spent = (key: Exclude<keyof Reading, "atMs">) => after[key] - before[key];
      const server = spent("serverMs");
      const postgres = spent("postgresMs");
      const client = spent("clientMs");
      const rest = Math.max(0, spent("machineBusyMs") - server - postgres - client);
      const perUnit = (ms: number) => ms / units;
      const others = perUnit(postgres) + perUnit(client) + perUnit(rest);
      return {
        cores,
        perUnitMs: { server: perUnit(server), postgres: perUnit(postgres), client: perUnit(client), rest: perUnit(rest) },
        busy: spent("machineBusyMs") / (cores * (after.atMs - before.atMs)),
        ceilingWithFreeServer: others > 0 ? (cores * 1000) / others : Number.POSITIVE_INFINITY,
      };
    },
  };
}

export function describeCpuSplit(split: CpuSplit): string {
  const { server, postgres, client, rest } = split.perUnitMs;
  const fixed = (ms: number) => ms.toFixed(1);
  return [
    `CPU per upload: server ${fixed(server)} ms, PostgreSQL ${fixed(postgres)} ms,`,
    `the bench's client ${fixed(client)} ms, the rest ${fixed(rest)} ms; ${split.cores} cores ${(100 * split.busy).toFixed(0)}% busy;`,
    `with the server's CPU at zero they would do at most ${split.ceilingWithFreeServer.toFixed(0)} uploads/s`,
  ].join(" ");
}

function takeReading(serverPid: number): Reading | null {
  const server = readProcStat(serverPid);
  if (!server) return null;
  const stats = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProcStat(Number(entry)))
    .filter((stat) => stat?.name === "postgres");
  const postgresPids = new Set(stats.map((stat) => stat!.pid));
  // Every live PostgreSQL process's own CPU, and, through each postmaster (a postgres process whose
  // parent is not one), the CPU of its children that exited: a backend or autovacuum worker that ends
  // during the burst moves its time there, so the difference between readings still counts it.
  let postgresMs = 0;
  for (const stat of stats) postgresMs += stat!.cpuMs + (postgresPids.has(stat!.parentPid) ? 0 : stat!.exitedChildrenCpuMs);
  const usage = process.cpuUsage();
  return {
    atMs: performance.now(),
    serverMs: server.cpuMs,
    postgresMs,
    clientMs: (usage.user + usage.system) / 1000,
    machineBusyMs: parseBusyMs(readFileSync("/proc/stat", "utf8")),
  };
}

function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

export interface ProcStat {
  pid: number;
  name: string;
  parentPid: number;
  /** utime + stime, ms. */
  cpuMs: number;
  /** cutime + cstime: the CPU of its children that exited and were waited for, ms. */
  exitedChildrenCpuMs: number;
}

/** /proc/<pid>/stat (proc(5)): pid, the command name in parentheses (may hold spaces and parentheses), then fields 3–52; times in ticks. */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).trim().split(" ").map(Number);
  // fields[0] is field 3 (state); field n is fields[n - 3].
  const field = (n: number) => fields[n - 3]!;
  return {
    pid: Number(text.slice(0, open).trim()),
    name: text.slice(open + 1, close),
    parentPid: field(4),
    cpuMs: (field(14) + field(15)) * TICK_MS,
    exitedChildrenCpuMs: (field(16) + field(17)) * TICK_MS,
  };
}

/** The machine's busy CPU time so far from /proc/stat's first line (user nice system idle iowait irq softirq steal …): all but idle and iowait, in ms. */
export function parseBusyMs(procStat: string): number {
  const [label, ...ticks] = procStat.split("\n", 1)[0]!.trim().split(/\s+/);
  if (label !== "cpu") throw new Error(`/proc/stat starts with ${label}, not cpu`);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * TICK_MS;
}
