/**
 * github-action-benchmark's history file: the `data.js` it commits to gh-pages (`dev/bench/data.js` by
 * default: `window.BENCHMARK_DATA = {…}`), or the same object as JSON (`external-data-json-path`). Its
 * shape is the action's `DataJson` (`src/write/types.ts`): `{ lastUpdate, repoUrl, entries }`, where
 * `entries` maps each suite (the action's `name:` input, "Benchmark" by default) to its list of
 * `Benchmark`s (`src/extract.ts`), one per commit the action ran on, oldest first:
 * `{ commit: { id, message, timestamp, url, author, committer, … }, date: <ms>, tool, benches: [...] }`.
 *
 * Each entry becomes one run of the suite (benches.ts stores its benches in the direction the action
 * compared them in, from `tool`). Every refusal names the path at fault, as the file spells it:
 * `entries["Rust Benchmark"][3].benches[0].value`.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { commitShaSchema } from "../commit-sha";
import { benchmarkRun } from "../benchmark";
import { benchmarkLimit, MAX_BENCHMARKS } from "../validate";
import { parseJsonText, parseWire } from "../wire";
import { benchResultOf, benchSchema, GAB_TOOL_DIRECTIONS, GAB_TOOLS, type GabTool } from "./benches";
import { CUSTOM_FORMAT_OF, GAB_TOOL } from "./custom-json";

/** At most this many entries (runs) in one history file: a few years of commits of a busy repository. */
export const MAX_HISTORY_ENTRIES = 10_000;

const dataSchema = z.object({
  lastUpdate: z.number().optional(),
  repoUrl: z.string().optional(),
  entries: z.record(z.string().min(1, "a suite needs a name"), z.array(z.unknown())),
});

const entrySchema = z.object({
  commit: z.object({
    id: commitShaSchema,
    message: z.string().optional(),
    timestamp: z.string().optional(),
    url: z.string().optional(),
  }),
  date: z.number().int().positive("expected a time in ms since 1970").max(8.64e15),
  tool: z.enum(GAB_TOOLS, { error: `expected one of github-action-benchmark's tools: ${GAB_TOOLS.join(", ")}` }),
  benches: z.array(z.unknown()).min(1, "expected at least one benchmark"),
});

/**
 * The whole file's shape in one schema, for the API's documentation (OpenAPI); the reader below validates
 * the same rules a part at a time, so each refusal names its entry's path.
 */
export const githubActionBenchmarkDataSchema = dataSchema
  .extend({
    entries: z
      .record(z.string(), z.array(entrySchema.extend({ benches: z.array(benchSchema).min(1) })))
      .describe("Each suite (the action's `name:` input) with its entries, oldest first: one per commit measured."),
  })
  .describe("github-action-benchmark's data.js object (`window.BENCHMARK_DATA = ` stripped) or data.json.");

/** One entry of the history: a commit the action measured, as a run. */
export interface GabHistoryEntry {
  /** The suite (the entries key): the run's label. */
  suite: string;
  /** Where the entry is in the file: `entries["Benchmark"][3]`. */
  path: string;
  commit: { id: string; message: string | null; url: string | null; timestamp: string | null };
  /** When the action ran (the entry's `date`), ISO 8601: the run's start. */
  startedAt: string;
  /** The tool the action read (go, cargo, pytest, customBiggerIsBetter…). */
  tool: GabTool;
  run: ParsedRun;
}

export interface GabHistory {
  repoUrl: string | null;
  entries: GabHistoryEntry[];
}

/** `window.BENCHMARK_DATA = {…}` (data.js) or `{…}` (data.json) → the object's text. */
export function stripDataJsPrefix(text: string): string {
  const trimmed = text.trim().replace(/^\uFEFF/, "");
  const prefix = /^window\.BENCHMARK_DATA\s*=\s*/.exec(trimmed);
  return (prefix ? trimmed.slice(prefix[0].length) : trimmed).replace(/;\s*$/, "");
}

/** A suite's name as the file's path spells it: `entries["Rust Benchmark"]`. */
export function entryPath(suite: string, index: number): string {
  return `entries[${JSON.stringify(suite)}][${index}]`;
}

/** Reads a data.js or data.json file: every entry of every suite, in file order. */
export function parseGithubActionBenchmarkData(text: string): GabHistory {
  const data = parseWire(dataSchema, parseJsonText(stripDataJsPrefix(text), "data.js"), "github-action-benchmark data.js");
  const total = Object.values(data.entries).reduce((sum, list) => sum + list.length, 0);
  if (total > MAX_HISTORY_ENTRIES) {
    throw new InputError("too_large", `Too many entries: ${total} (at most ${MAX_HISTORY_ENTRIES} in one import)`, [
      { path: "entries", message: `${total} entries; the limit is ${MAX_HISTORY_ENTRIES}: import the file in parts` },
    ]);
  }
  const entries: GabHistoryEntry[] = [];
  for (const [suite, list] of Object.entries(data.entries)) {
    for (const [index, value] of list.entries()) {
      const path = entryPath(suite, index);
      const entry = parseWire(entrySchema, value, "github-action-benchmark data.js entry", path);
      if (entry.benches.length > MAX_BENCHMARKS) benchmarkLimit(entry.benches.length, `${path}.benches[${MAX_BENCHMARKS}]`);
      const benches = entry.benches.map((bench, benchIndex) =>
        parseWire(benchSchema, bench, "github-action-benchmark data.js entry", `${path}.benches[${benchIndex}]`),
      );
      const better = GAB_TOOL_DIRECTIONS[entry.tool];
      const run = withPath(path, () => benchmarkRun(CUSTOM_FORMAT_OF[better], GAB_TOOL, benches.map((bench) => benchResultOf(bench, better))));
      entries.push({
        suite,
        path,
        commit: {
          id: entry.commit.id.toLowerCase(),
          message: entry.commit.message ?? null,
          url: entry.commit.url ?? null,
          timestamp: entry.commit.timestamp ?? null,
        },
        startedAt: new Date(entry.date).toISOString(),
        tool: entry.tool,
        run,
      });
    }
  }
  return { repoUrl: data.repoUrl ?? null, entries };
}

/** Runs `build`, prefixing the paths of the InputError it throws with `path` (a benchmark named twice). */
export function withPath<T>(path: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const details = error.details.map((detail) => ({ ...detail, path: `${path}: ${detail.path}` }));
    throw new InputError(error.code, `${path}: ${error.message}`, details);
  }
}
