/**
 * The V8 sampling profiler of this process, as the bench's profiles take it (profile-upload.ts,
 * profile-go-bench.ts): a profile of some work, and where a frame's code comes from.
 */
import { Session } from "node:inspector/promises";
import { ROOT } from "../lib/build";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
}

/** `work` under the sampling profiler (every 200 µs), with its wall time and the profile. */
export async function cpuProfileOf<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  return { value, ms, profile };
}

/** Where a frame's code comes from: our own file, a package, Node's internals or V8 (GC, idle, program). */
export function packageOf(url: string): string {
  if (url === "") return "(v8)";
  if (url.startsWith("node:")) return "node:internals";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const generated = url.indexOf("server/generated/");
  if (generated >= 0) return "server/generated (Prisma client)";
  const own = url.indexOf(ROOT);
  return own >= 0 ? url.slice(own + ROOT.length + 1) : url;
}
