/**
 * A benchmark history kept by another tool, read as the runs it will be stored as (docs/uploading.md,
 * "Importing history from github-action-benchmark and Bencher"): github-action-benchmark's gh-pages
 * data.js (or data.json), or a Bencher history (NDJSON lines of BMF runs). Pure, so that a large file is
 * read in a CPU thread (services/platform/cpu-pool.ts) and never on the server's event loop; the import
 * service (services/ingest/import-history.ts) stores what this returns.
 */
import { createHash } from "node:crypto";
import { InputError } from "../input-error";
import type { ParsedRun } from "../run";
import { parseBencherHistory } from "./bencher";
import { parseGithubActionBenchmarkData } from "./github-action-benchmark";
import { completeRun } from "./index";
import type { RunMetadata } from "./metadata";

export type HistoryFileSource = "github-action-benchmark" | "bencher";

export interface HistoryFile {
  source: HistoryFileSource;
  /** The file as sent (data.js with or without its `window.BENCHMARK_DATA = ` prefix; Bencher's NDJSON). */
  text: string;
  /** The branch every run is on (a Bencher line's own branch wins). */
  branch: string;
  /** The testbed of every run (a Bencher line's own testbed wins). */
  testbed: string | null;
  /** The label of a Bencher history's runs (github-action-benchmark's runs are labelled by their suite). */
  label: string | null;
}

/** One entry of the file, as it will be stored. */
export interface HistoryEntry {
  /** Where it is in the file (`entries["Benchmark"][3]`, `line 4`): errors and the answer name it so. */
  path: string;
  run: ParsedRun;
  startedAt: Date;
  /** The source with a hash of what identifies the entry: importing it again stores nothing. */
  idempotencyKey: string;
}

/** An attribute value within the metadata's limit (1,024 characters). */
const attribute = (value: string) => value.slice(0, 1024);

function keyOf(source: HistoryFileSource, parts: readonly (string | null)[]): string {
  return `import:${source}:${createHash("sha256").update(JSON.stringify(parts)).digest("hex")}`;
}

/** completeRun with the entry's path in front of what it refuses. */
function completeRunAt(path: string, run: ParsedRun, metadata: RunMetadata): ParsedRun {
  try {
    return completeRun(run, metadata);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const details = error.details.map((detail) => ({ ...detail, path: `${path}: ${detail.path}` }));
    throw new InputError(error.code, `${path}: ${error.message}`, details);
  }
}

/** The file's entries as runs, each completed with its metadata (validated as an upload's), oldest first. */
export function readHistoryEntries(file: HistoryFile): HistoryEntry[] {
  return entriesOf(file).sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.path.localeCompare(b.path, "en"));
}

function entriesOf(file: HistoryFile): HistoryEntry[] {
  if (file.source === "github-action-benchmark") {
    const history = parseGithubActionBenchmarkData(file.text);
    return history.entries.map((entry) => {
      const metadata: RunMetadata = {
        label: entry.suite,
        branch: file.branch,
        commit: entry.commit.id,
        started_at: entry.startedAt,
        ...(file.testbed ? { testbed: file.testbed } : {}),
        attributes: {
          imported_from: attribute(`github-action-benchmark data.js${history.repoUrl ? ` of ${history.repoUrl}` : ""}`),
          "github-action-benchmark.tool": entry.tool,
          ...(entry.commit.url ? { commit_url: attribute(entry.commit.url) } : {}),
        },
      };
      return {
        path: entry.path,
        run: completeRunAt(entry.path, entry.run, metadata),
        startedAt: new Date(entry.startedAt),
        idempotencyKey: keyOf("github-action-benchmark", [entry.suite, entry.commit.id, entry.startedAt]),
      };
    });
  }
  return parseBencherHistory(file.text).map((entry) => {
    const branch = entry.branch ?? file.branch;
    const testbed = entry.testbed ?? file.testbed;
    const metadata: RunMetadata = {
      ...(file.label ? { label: file.label } : {}),
      branch,
      commit: entry.commit,
      started_at: entry.startedAt,
      ...(testbed ? { testbed } : {}),
      attributes: { imported_from: "Bencher history (BMF)" },
    };
    return {
      path: entry.path,
      run: completeRunAt(entry.path, entry.run, metadata),
      startedAt: new Date(entry.startedAt),
      idempotencyKey: keyOf("bencher", [file.label, branch, testbed, entry.commit, entry.startedAt]),
    };
  });
}
