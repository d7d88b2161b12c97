/**
 * A Bencher history to import, as NDJSON: Bencher documents BMF (one run's results) and an API to query
 * results, but no file that exports a project's history, so Benchtrack defines one: one line per run,
 *
 *   {"commit": "<sha>", "date": "<ISO 8601>", "branch"?: "<name>", "testbed"?: "<name>", "results": <BMF>}
 *
 * with `results` a BMF document as `bencher run` would have sent it (bmf.ts). Lines may hold extra keys
 * (`"benchmark_suite"`…), which are ignored; blank lines are skipped. Every refusal names the line and path:
 * `line 3: results["sort 1000"].latency.value`.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { commitShaSchema } from "../commit-sha";
import { forEachLine } from "../text-lines";
import { parseJsonText, parseWire } from "../wire";
import { parseBmfDocument } from "./bmf";

/** At most this many runs in one import (as github-action-benchmark's history). */
export const MAX_BENCHER_HISTORY_LINES = 10_000;

export const bencherHistoryLineSchema = z.object({
  commit: commitShaSchema.describe("The commit the results were measured at."),
  date: z.iso.datetime({ offset: true }).describe("When the run was measured (ISO 8601): the run's start."),
  branch: z.string().min(1).max(1024).optional().describe("The branch (default: the import's ?branch=, else the project's default branch)."),
  testbed: z.string().min(1).max(256).optional().describe("Bencher's testbed: the run's testbed."),
  results: z.unknown().describe("The run's results, a Bencher Metric Format (BMF) document."),
});

export interface BencherHistoryEntry {
  /** `line 3` */
  path: string;
  commit: string;
  startedAt: string;
  branch: string | null;
  testbed: string | null;
  run: ParsedRun;
}

export function parseBencherHistory(text: string): BencherHistoryEntry[] {
  const entries: BencherHistoryEntry[] = [];
  forEachLine(text, (line, lineNumber) => {
    if (line.trim() === "") return;
    const path = `line ${lineNumber}`;
    if (entries.length >= MAX_BENCHER_HISTORY_LINES) {
      throw new InputError("too_large", `Too many runs: more than ${MAX_BENCHER_HISTORY_LINES} (at ${path})`, [
        { path, message: `run #${entries.length + 1}; the limit is ${MAX_BENCHER_HISTORY_LINES} in one import: import the file in parts` },
      ]);
    }
    const value = parseJsonText(line, path);
    const entry = parseWire(bencherHistoryLineSchema, value, "Bencher history line", `${path}: `);
    const run = parseBmfDocument(entry.results, `${path}: results`);
    entries.push({
      path,
      commit: entry.commit.toLowerCase(),
      startedAt: new Date(entry.date).toISOString(),
      branch: entry.branch ?? null,
      testbed: entry.testbed ?? null,
      run,
    });
  });
  if (entries.length === 0) throw new InputError("malformed", "The history is empty", [{ path: "body", message: "expected one JSON line per run" }]);
  return entries;
}
