import { readFileSync, readdirSync } from "node:fs";
import os from "node:os";

/**
 * Where a burst's CPU went on this machine (Linux /proc): the server under test, every PostgreSQL
 * process, this bench process (the load generator), and the rest of the machine. An upload rate is
 * bounded by the cores it shares with PostgreSQL and its own client: with the server's share at zero,
 * the machine could still do no more than cores ÷ (PostgreSQL + client + rest) per upload. That bound is
 * printed beside the rate, so a target no server could reach on this machine is told from one this
 * server misses.
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

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** A reading before the burst; `finish(units)` reads again and splits what was spent between them. Null off Linux. */
export function startCpuSplit(serverPid: number): { finish(units: number): CpuSplit | null } | null {
  if (process.platform !== "linux") return null;
  const before = read(serverPid);
  if (!before) return null;
  return {
    finish(units) {
      const after = read(serverPid);
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
  return (
    `CPU per upload: server ${fixed(server)} ms, PostgreSQL ${fixed(postgres)} ms, the bench's client ${fixed(client)} ms, the rest ${fixed(rest)} ms; ` +
    `${split.cores} cores ${(100 * split.busy).toFixed(0)}% busy; with the server's CPU at zero they would do at most ${split.ceilingWithFreeServer.toFixed(0)} uploads/s`
  );
}

function read(serverPid: number): Reading | null {
  const serverMs = processCpuMs(serverPid);
  if (serverMs === null) return null;
  let postgresMs = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat?.name === "postgres") postgresMs += stat.cpuMs;
  }
  const usage = process.cpuUsage();
  return { atMs: performance.now(), serverMs, postgresMs, clientMs: (usage.user + usage.system) / 1000, machineBusyMs: machineBusyMs() };
}

function processCpuMs(pid: number): number | null {
  return statOf(pid)?.cpuMs ?? null;
}

/** /proc/<pid>/stat: the command name (in parentheses, may hold spaces), then utime and stime (fields 14 and 15) in ticks. */
function statOf(pid: number): { name: string; cpuMs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { name, cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null;
  }
}

/** The machine's busy CPU time so far: /proc/stat's first line, all but idle and iowait, in ms. */
function machineBusyMs(): number {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_MS;
}
