/**
 * Valgrind instruction counts as benchmarks (docs/benchmarks.md, "Instruction counts (Valgrind)"):
 * cachegrind's and callgrind's output files, one or several per upload (checked on valgrind 3.19.0;
 * the fixtures and how they were made: fixtures/micro/valgrind/README.md). Reading one file:
 * `valgrind-profile.ts`.
 *
 * One benchmark per measured stretch of a program:
 * - a whole process (cachegrind; callgrind's `Program termination` part, with --toggle-collect as
 *   iai-callgrind runs it): named by the `cmd:` line's arguments after the program (`./micro_ir sort
 *   1000` → `sort 1000`), else by the file's name (not a default `callgrind.out.<pid>`, which changes
 *   every run), else by the program;
 * - a callgrind dump (a part ended by CALLGRIND_DUMP_STATS_AT("name"), --dump-after=fn…, from one file
 *   of parts (--combine-dumps=yes) or from one file per dump): named by its trigger (`sort 100` from
 *   `Client Request: sort 100`; an unnamed client request as `part N`; `--dump-after=bench_sort` as
 *   callgrind writes it). A process that dumped named parts ends with a `Program termination` part: what
 *   ran after its last dump, not a benchmark, so it is left out (with a note when it counted anything).
 * Names are unique: two files or parts of one name are refused, naming both.
 *
 * Each benchmark's `Ir` (instructions executed) is the metric `instructions` (lower is better, and
 * exact: the same binary, inputs and environment execute the same instructions whatever the machine's
 * load, so any change is a change of what ran). Every other event (cache-simulation misses, branch
 * counts, callgrind's sysTime…) is kept under its own name, shown and never judged. No time per
 * operation: latency stays empty. The files state no hardware (the testbed is the upload's), and only
 * callgrind states Valgrind's version (`creator: callgrind-3.19.0`).
 */
import { InputError } from "../../input-error";
import type { CustomMetric, EndpointResult, ParsedRun } from "../../run";
import { benchmarkResult, benchmarkRun } from "../benchmark";
import { readValgrindProfile, type ProfilePart, type ValgrindFormat, type ValgrindProfile } from "./valgrind-profile";
import type { UploadedFile } from "../uploaded-file";

export const VALGRIND_TOOL = "valgrind";
/** The metric an instruction count is stored as, and its unit. */
export const INSTRUCTIONS_METRIC = "instructions";

// ---- detection ----

/** How far into a text the header is looked for. */
const HEADER_WINDOW = 64 * 1024;

/** The `key: value` lines a text starts with (blank lines skipped), and its first `#` comment. */
function headerOf(start: string): { comment: string | null; keys: string[]; values: Map<string, string> } {
  const window = start.slice(0, HEADER_WINDOW);
  const keys: string[] = [];
  const values = new Map<string, string>();
  let comment: string | null = null;
  let from = 0;
  while (from < window.length) {
    const newline = window.indexOf("\n", from);
    const line = window.slice(from, newline === -1 ? window.length : newline).replace(/\r$/, "");
    from = newline === -1 ? window.length : newline + 1;
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      comment ??= line.trim();
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9 ()_-]*):/.exec(line)?.[1];
    if (key === undefined) break;
    keys.push(key);
    if (!values.has(key)) values.set(key, line.slice(key.length + 1).trim());
  }
  return { comment, keys, values };
}

/**
 * callgrind: `# callgrind format` first, or a header with `creator: callgrind-…`, or one that starts
 * with `version:` and names its `events:` (the format's own header, before any cost line).
 */
export function isCallgrindText(start: string): boolean {
  const { comment, keys, values } = headerOf(start);
  if (comment === "# callgrind format") return true;
  if (values.get("creator")?.startsWith("callgrind")) return true;
  return keys[0] === "version" && keys.includes("events");
}

/**
 * cachegrind: a header of `desc:` lines, `cmd:` and `events:` (cg_annotate reads them in that order),
 * without callgrind's own header lines. A file whose `events:` line is missing is still known by its
 * `desc:`/`cmd:` start, so its parser can say what is wrong with it.
 */
export function isCachegrindText(start: string): boolean {
  if (isCallgrindText(start)) return false;
  const { keys } = headerOf(start);
  const [first] = keys;
  if (first === undefined || !["desc", "cmd", "events"].includes(first)) return false;
  if (!keys.includes("cmd") && !keys.includes("events")) return false;
  return !keys.some((key) => key === "version" || key === "creator" || key === "part" || key === "pid");
}

// ---- parsing ----

export function parseCachegrind(text: string, source: string): ParsedRun {
  return parseValgrindFiles("cachegrind", [{ name: source === "body" ? null : source, text }]);
}

export function parseCallgrind(text: string, source: string): ParsedRun {
  return parseValgrindFiles("callgrind", [{ name: source === "body" ? null : source, text }]);
}

/** Several files of one format (one per benchmark, or one per dump), one run. */
export function parseValgrindFiles(format: ValgrindFormat, files: readonly UploadedFile[]): ParsedRun {
  const profiles = files.map((file, index) => {
    const source = file.name ?? (index === 0 ? "body" : `file ${index + 1}`);
    return { source, fileName: file.name, profile: readValgrindProfile(file.text, source, format) };
  });
  // A process's dumps may come as one file of parts or one file per dump: they share its pid and command.
  const processOf = (profile: ValgrindProfile, index: number) =>
    profile.pid === null ? `file ${index}` : `${profile.pid}\u0000${profile.cmd ?? ""}`;
  const dumpingProcesses = new Set(
    profiles.flatMap(({ profile }, index) => (profile.parts.some(isDump) ? [processOf(profile, index)] : [])),
  );
  const notes: string[] = [];
  const named = new Map<string, string>();
  const benchmarks: EndpointResult[] = [];
  profiles.forEach(({ source, fileName, profile }, index) => {
    for (const part of profile.parts) {
      const where = profile.parts.length > 1 && part.number !== null ? `${source} (part ${part.number})` : source;
      const instructions = instructionsOf(part);
      if (!isDump(part) && dumpingProcesses.has(processOf(profile, index))) {
        if (instructions > 0) {
          notes.push(
            `${where}: ${part.trigger ?? "the end of the process"} counts what ran after the last dump (${instructions} instructions): not a benchmark, left out`,
          );
        }
        continue;
      }
      const name = isDump(part) ? dumpName(part) : processName(profile, fileName, format);
      const earlier = named.get(name);
      if (earlier !== undefined) {
        const message = `benchmark "${name}" is both ${earlier} and ${where}: each benchmark must be measured once per run`;
        throw new InputError("malformed", `${format}: ${message}`, [{ path: where, message }]);
      }
      named.set(name, where);
      benchmarks.push(
        benchmarkResult({ name, fullName: fullNameOf(profile, part), metrics: metricsOf(part, instructions) }),
      );
      if (part.isSummed) {
        notes.push(
          `${where} states no summary: or totals: line: its counts are the sum of its cost lines (a file cut short would count less)`,
        );
      }
    }
  });
  const run = benchmarkRun(format, VALGRIND_TOOL, benchmarks);
  const versions = [...new Set(profiles.map(({ profile }) => versionOf(profile.creator)).filter((v) => v !== null))];
  run.toolVersion = versions[0] ?? null;
  if (versions.length > 1)
    notes.push(`the files were written by several Valgrind versions (${versions.join(", ")}); the first is the run's`);
  run.notes.push(...notes.slice(0, 50));
  return run;
}

/** A part ended by a dump (a client request, --dump-before/--dump-after), not by the process's end. */
function isDump(part: ProfilePart): boolean {
  return part.trigger !== null && part.trigger !== "Program termination";
}

/** `Client Request: sort 100` → `sort 100`; an unnamed request → `part N`; any other trigger as written. */
function dumpName(part: ProfilePart): string {
  const trigger = part.trigger ?? "";
  const name = trigger.startsWith("Client Request")
    ? trigger.slice("Client Request".length).replace(/^:/, "").trim()
    : trigger;
  return name !== "" ? name : `part ${part.number ?? 1}`;
}

/** callgrind.out.12345 (and its .1 dumps, -01 threads): Valgrind's default names, a new one every run. */
const DEFAULT_FILE_NAME = /^(?:cachegrind|callgrind)\.out\.\d+(?:\.\d+)?(?:-\d+)?$/;

/** A whole process: its arguments, else its file's name, else its program, else the format. */
function processName(profile: ValgrindProfile, fileName: string | null, format: ValgrindFormat): string {
  const [program = "", ...args] = (profile.cmd ?? "").split(/\s+/).filter((word) => word !== "");
  if (args.length > 0) return args.join(" ");
  const base = fileName?.split(/[\\/]/).at(-1) ?? "";
  if (base !== "" && !DEFAULT_FILE_NAME.test(base)) return base;
  const programName = program.split("/").at(-1) ?? "";
  return programName !== "" ? programName : format;
}

/** The command as run, with the dump's part and trigger when it is one of several. */
function fullNameOf(profile: ValgrindProfile, part: ProfilePart): string | null {
  const cmd =
    profile.cmd === null
      ? null
      : profile.cmd
          .split(/\s+/)
          .filter((word) => word !== "")
          .join(" ");
  if (!isDump(part)) return cmd;
  const dump = `part ${part.number ?? 1}, ${part.trigger}`;
  return cmd === null ? dump : `${cmd} (${dump})`;
}

function instructionsOf(part: ProfilePart): number {
  const index = part.events.indexOf("Ir");
  if (index === -1) {
    const message = `"Ir" is not among the events (${part.events.slice(0, 8).join(" ")}): Benchtrack reads the instruction count`;
    throw new InputError("malformed", `Not a valid instruction count (${part.eventsAt}: ${message})`, [
      { path: part.eventsAt, message },
    ]);
  }
  return part.counts[index] ?? 0;
}

/** `instructions` (exact, lower is better), then every other event under its own name, never judged. */
function metricsOf(part: ProfilePart, instructions: number): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {
    [INSTRUCTIONS_METRIC]: { value: instructions, unit: INSTRUCTIONS_METRIC, better: "lower", exact: true },
  };
  part.events.forEach((event, index) => {
    if (event !== "Ir" && event !== INSTRUCTIONS_METRIC)
      metrics[event] = { value: part.counts[index] ?? 0, unit: null, better: null };
  });
  return metrics;
}

/** `callgrind-3.19.0` → `3.19.0`. */
function versionOf(creator: string | null): string | null {
  return /^callgrind-(\S+)$/.exec(creator ?? "")?.[1] ?? null;
}
