/**
 * What a CPU thread runs (services/platform/cpu-pool.ts): the pure domain work of an upload that can take
 * seconds — its files parsed, completed with the query's metadata and validated; the gate's statistics
 * over a suite of thousands of benchmarks; and, for the detection job, a window's change points — in a
 * worker thread, so that no upload holds the server's event loop. Errors cross the thread as plain data: an InputError keeps its code and details.
 *
 * A thread keeps the runs it judged with (judgedRuns): a suite's history crosses into it once, not with
 * every upload of its series (a structured clone of a 10,000-benchmark run takes longer than judging it).
 */
import { LRUCache } from "lru-cache";
import { InputError } from "../../domain/input-error";
import type { InputErrorCode, InputErrorDetail } from "../../domain/input-error";
import type { ComparableRun } from "../../domain/compare/compare-runs";
import type { GateResult, JudgeInput } from "../../domain/gate/judge";
import { numbersOfResult } from "../../domain/run";
import { judgeGate } from "../../domain/gate/judge";
import { parseUploadedRun } from "../../domain/parsers";
import type { ParsedUpload, RunMetadata, UploadedFile } from "../../domain/parsers";
import { readHistoryEntries } from "../../domain/parsers/history-entries";
import type { HistoryEntry, HistoryFile } from "../../domain/parsers/history-entries";
import { findCandidatesInTrends } from "../../domain/incidents/change-candidates";
import type { ChangeCandidate, UnreturnedRegression } from "../../domain/incidents/change-candidates";
import { unpackTrends } from "./packed-trends";
import type { PackedTrends } from "./packed-trends";

export interface ParseTask {
  kind: "parse";
  files: UploadedFile[];
  format: string | null;
  metadata: RunMetadata;
}

/** The gate's input with its runs by id: each one in the task's `runs`, or in the thread's memory. */
export type JudgeTaskInput = Omit<JudgeInput, "baseRuns" | "headRuns" | "noiseOnlyRuns"> & {
  baseRuns: string[];
  headRuns: [string, ...string[]];
  noiseOnlyRuns: string[];
};

export interface JudgeTask {
  kind: "judge";
  input: JudgeTaskInput;
  /** The runs sent whole: those the thread may not hold (kept for the next judgements). */
  runs: ComparableRun[];
  /** The uploaded run's id, when it is among `runs`: judged as parsed, kept with its numbers only, as the gate reads it once stored. */
  uploaded: string | null;
}

/** A history kept by another tool, read as the runs an import stores (domain/parsers/history-entries.ts). */
export interface HistoryTask {
  kind: "history";
  file: HistoryFile;
}

/** A detection window's change points (domain/incidents/change-candidates.ts). */
export interface ChangesTask {
  kind: "changes";
  windowRunIds: string[];
  trends: PackedTrends;
  unreturned: UnreturnedRegression[];
}

export type CpuTask = ParseTask | JudgeTask | HistoryTask | ChangesTask;

export type CpuAnswer =
  | { ok: true; parsed: ParsedUpload }
  | { ok: true; judged: GateResult }
  /** A judgement's runs this thread does not hold: the task comes again with them. */
  | { ok: true; missing: string[] }
  | { ok: true; entries: HistoryEntry[] }
  | { ok: true; candidates: ChangeCandidate[] }
  | { ok: false; error: { code: InputErrorCode; message: string; details: InputErrorDetail[] } };

/**
 * The runs this thread judged with, by id (a run never changes: services/runs/run-numbers.ts), bounded as
 * the server's own memory of them is: by result rows, 200,000.
 */
const judgedRuns = new LRUCache<string, ComparableRun>({ maxSize: 200_000, sizeCalculation: (run) => 1 + run.endpoints.length });

/** A judgement with its runs from the task or from memory; the ids of those in neither, without judging. */
function judgeTask({ input, runs, uploaded }: JudgeTask): CpuAnswer {
  const given = new Map(runs.map((run) => [run.id, run]));
  const runOf = (id: string) => given.get(id) ?? judgedRuns.get(id);
  const missing = [...new Set([...input.baseRuns, ...input.headRuns, ...input.noiseOnlyRuns])].filter((id) => runOf(id) === undefined);
  if (missing.length > 0) return { ok: true, missing };
  const resolve = (ids: readonly string[]) => ids.map((id) => runOf(id)!);
  const [head, ...otherHeads] = resolve(input.headRuns);
  const judged = judgeGate({ ...input, baseRuns: resolve(input.baseRuns), headRuns: [head!, ...otherHeads], noiseOnlyRuns: resolve(input.noiseOnlyRuns) });
  for (const run of runs) {
    judgedRuns.set(run.id, run.id === uploaded ? { ...run, aggregate: numbersOfResult(run.aggregate), endpoints: run.endpoints.map(numbersOfResult) } : run);
  }
  return { ok: true, judged };
}

export default function runTask(task: CpuTask): CpuAnswer {
  if (task.kind === "judge") return judgeTask(task);
  if (task.kind === "changes") return { ok: true, candidates: findCandidatesInTrends(task.windowRunIds, unpackTrends(task.trends), task.unreturned) };
  try {
    if (task.kind === "history") return { ok: true, entries: readHistoryEntries(task.file) };
    return { ok: true, parsed: parseUploadedRun(task) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
    throw error;
  }
}
