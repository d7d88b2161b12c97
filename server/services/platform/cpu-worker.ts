/**
 * What a CPU thread runs (services/platform/cpu-pool.ts): the pure domain work of an upload that can take
 * seconds — its files parsed, completed with the query's metadata and validated; the gate's statistics
 * over a suite of thousands of benchmarks — in a worker thread, so that no upload holds the server's
 * event loop. Errors cross the thread as plain data: an InputError keeps its code and details.
 */
import { InputError } from "../../domain/input-error";
import type { InputErrorCode, InputErrorDetail } from "../../domain/input-error";
import type { GateResult, JudgeInput } from "../../domain/gate/judge";
import { judgeGate } from "../../domain/gate/judge";
import { parseUploadedRun } from "../../domain/parsers";
import type { ParsedUpload, RunMetadata, UploadedFile } from "../../domain/parsers";
import { readHistoryEntries } from "../../domain/parsers/history-entries";
import type { HistoryEntry, HistoryFile } from "../../domain/parsers/history-entries";

export interface ParseTask {
  kind: "parse";
  files: UploadedFile[];
  format: string | null;
  metadata: RunMetadata;
}

export interface JudgeTask {
  kind: "judge";
  input: JudgeInput;
}

/** A history kept by another tool, read as the runs an import stores (domain/parsers/history-entries.ts). */
export interface HistoryTask {
  kind: "history";
  file: HistoryFile;
}

export type CpuTask = ParseTask | JudgeTask | HistoryTask;

export type CpuAnswer =
  | { ok: true; parsed: ParsedUpload }
  | { ok: true; judged: GateResult }
  | { ok: true; entries: HistoryEntry[] }
  | { ok: false; error: { code: InputErrorCode; message: string; details: InputErrorDetail[] } };

export default function runTask(task: CpuTask): CpuAnswer {
  if (task.kind === "judge") return { ok: true, judged: judgeGate(task.input) };
  try {
    if (task.kind === "history") return { ok: true, entries: readHistoryEntries(task.file) };
    return { ok: true, parsed: parseUploadedRun(task) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
    throw error;
  }
}
