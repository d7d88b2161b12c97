import { availableParallelism } from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import type { ComparableRun } from "../../domain/compare/compare-runs";
import type { GateResult, JudgeInput } from "../../domain/gate/judge";
import { judgeGate } from "../../domain/gate/judge";
import { InputError } from "../../domain/input-error";
import type { ParsedUpload } from "../../domain/parsers";
import { parseUploadedRun } from "../../domain/parsers";
import type { HistoryEntry, HistoryFile } from "../../domain/parsers/history-entries";
import { readHistoryEntries } from "../../domain/parsers/history-entries";
import { findCandidatesInTrends } from "../../domain/incidents/change-candidates";
import type { ChangeCandidate, TrendLine, UnreturnedRegression } from "../../domain/incidents/change-candidates";
import { getEnv } from "../../env";
import { packTrends } from "./packed-trends";
import type { CpuAnswer, CpuTask, ParseTask } from "./cpu-worker";

/**
 * An upload's CPU-heavy work runs in a pool of worker threads (piscina), never on the event loop:
 * parsing its files, and the gate's statistics (a suite of 10,000 benchmarks against its history takes
 * seconds); so does the detection job's search of a large window. A request that waits on a thread holds one thread, while every other request goes on being
 * answered. Each parse has a time budget (BENCHTRACK_PARSE_TIMEOUT_MS: past it the thread is stopped and
 * the upload refused, 413) and each thread a heap of its own (BENCHTRACK_CPU_MEMORY_MB: a file that
 * needs more is refused, the server's heap untouched). Threads: BENCHTRACK_CPU_THREADS, else one per
 * core. The worker is TypeScript, loaded by tsx as the server's scripts are.
 */
let pool: Piscina<CpuTask, CpuAnswer> | null = null;

/**
 * Below these sizes the work is done in place: a thread hop costs more than parsing a 256 KiB file or
 * judging a run whose endpoints times runs stay within 2,000 (milliseconds; 20,000 took 5 s), and under many
 * concurrent reads each hop waits its turn on the event loop (a replica test's 40 small uploads among
 * 32 readers took over a minute through the threads).
 */
export const INLINE_PARSE_BYTES = 256 * 1024;
export const INLINE_JUDGE_CELLS = 2_000;
/** A detection window of this many values or fewer is searched in place (300 trends of 100 values took ~70 ms). */
export const INLINE_DETECTION_VALUES = 5_000;

/** The worker module, from the project's root (the server's working folder, as `npm start` runs it). */
const WORKER_FILE = path.join(process.cwd(), "server", "services", "platform", "cpu-worker.ts");

function cpuPool(): Piscina<CpuTask, CpuAnswer> {
  if (pool) return pool;
  const env = getEnv();
  const threads = env.BENCHTRACK_CPU_THREADS ?? Math.max(1, availableParallelism());
  pool = new Piscina<CpuTask, CpuAnswer>({
    filename: WORKER_FILE,
    execArgv: ["--import", "tsx"],
    minThreads: 1,
    maxThreads: threads,
    // A thread left idle a minute goes away; the first task after pays ~0.5 s to start one.
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: env.BENCHTRACK_CPU_MEMORY_MB },
  });
  return pool;
}

/** A thread's heap was not enough: the input is too large to work on. */
function outOfMemory(error: unknown): InputError | null {
  if ((error as NodeJS.ErrnoException).code !== "ERR_WORKER_OUT_OF_MEMORY") return null;
  const memoryMb = getEnv().BENCHTRACK_CPU_MEMORY_MB;
  return new InputError("too_large", `The upload needs more than ${memoryMb} MB to read and judge (BENCHTRACK_CPU_MEMORY_MB)`, [
    { path: "body", message: `more than ${memoryMb} MB of memory` },
  ]);
}

/**
 * An upload's files parsed off the event loop, completed with the query's metadata and validated
 * (domain/parsers:parseUploadedRun). `signal` (the request's) stops the parse when the client leaves.
 */
export async function parseInPool(
  task: Omit<ParseTask, "kind">,
  signal?: AbortSignal,
  { budgetMs = getEnv().BENCHTRACK_PARSE_TIMEOUT_MS } = {},
): Promise<ParsedUpload> {
  if (task.files.reduce((sum, file) => sum + file.text.length, 0) <= INLINE_PARSE_BYTES) {
    signal?.throwIfAborted();
    return parseUploadedRun(task);
  }
  const answer = await readInPool({ kind: "parse", ...task }, signal, budgetMs);
  if (!("parsed" in answer)) throw new Error("The CPU thread answered a parse with something else");
  return answer.parsed;
}

/**
 * A history import's file read as its runs (domain/parsers/history-entries.ts) off the event loop, with
 * an upload's time budget and memory limit: a 50 MB data.js takes seconds to read.
 */
export async function readHistoryInPool(
  file: HistoryFile,
  signal?: AbortSignal,
  { budgetMs = getEnv().BENCHTRACK_PARSE_TIMEOUT_MS } = {},
): Promise<HistoryEntry[]> {
  if (file.text.length <= INLINE_PARSE_BYTES) {
    signal?.throwIfAborted();
    return readHistoryEntries(file);
  }
  const answer = await readInPool({ kind: "history", file }, signal, budgetMs);
  if (!("entries" in answer)) throw new Error("The CPU thread answered a history with something else");
  return answer.entries;
}

/** A file-reading task in a CPU thread, within its time budget: what it refuses leaves as the InputError it was. */
async function readInPool(task: CpuTask, signal: AbortSignal | undefined, budgetMs: number): Promise<CpuAnswer & { ok: true }> {
  const budget = AbortSignal.timeout(budgetMs);
  const stop = signal ? AbortSignal.any([signal, budget]) : budget;
  let answer: CpuAnswer;
  try {
    answer = await cpuPool().run(task, { signal: stop });
  } catch (error) {
    signal?.throwIfAborted();
    if (budget.aborted) {
      throw new InputError("too_large", `The upload took longer than ${budgetMs / 1000} s to read; it was stopped (BENCHTRACK_PARSE_TIMEOUT_MS)`, [
        { path: "body", message: `parsing took more than ${budgetMs} ms` },
      ]);
    }
    throw outOfMemory(error) ?? error;
  }
  if (!answer.ok) throw new InputError(answer.error.code, answer.error.message, answer.error.details);
  return answer;
}

/**
 * The gate's judgement (domain/gate/judge.ts:judgeGate, pure) in a CPU thread. Its runs cross by id: a
 * thread keeps the runs it judged with (cpu-worker.ts), so only `uploaded`, the run being uploaded, crosses
 * whole (as a structured clone, as the answer does); the runs a thread lacks (a new thread, or runs it let
 * go) cross when it asks for them, and the third time every run does.
 */
export async function judgeInPool(input: JudgeInput, { uploaded = null, signal }: { uploaded?: ComparableRun | null; signal?: AbortSignal } = {}): Promise<GateResult> {
  const all = [...input.baseRuns, ...input.headRuns, ...input.noiseOnlyRuns];
  const endpoints = Math.max(0, ...input.headRuns.map((run) => run.endpoints.length));
  if (endpoints * Math.max(1, all.length) <= INLINE_JUDGE_CELLS) return judgeGate(input);
  const byId = new Map(all.map((run) => [run.id, run]));
  const ids = (runs: readonly ComparableRun[]) => runs.map((run) => run.id);
  const [head, ...otherHeads] = ids(input.headRuns);
  const taskInput = { ...input, baseRuns: ids(input.baseRuns), headRuns: [head!, ...otherHeads] as [string, ...string[]], noiseOnlyRuns: ids(input.noiseOnlyRuns) };
  const fresh = uploaded !== null && byId.get(uploaded.id) === uploaded ? uploaded : null;
  let runs = fresh ? [fresh] : [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    let answer: CpuAnswer;
    try {
      answer = await cpuPool().run({ kind: "judge", input: taskInput, runs, uploaded: fresh?.id ?? null }, signal ? { signal } : {});
    } catch (error) {
      signal?.throwIfAborted();
      throw outOfMemory(error) ?? error;
    }
    if (answer.ok && "judged" in answer) return answer.judged;
    if (!answer.ok || !("missing" in answer)) break;
    runs = attempt === 1 ? [...runs, ...answer.missing.map((id) => byId.get(id)!)] : [...byId.values()];
  }
  throw new Error("The CPU thread answered a judgement with something else");
}

/**
 * A detection window's change points (domain/incidents/change-candidates.ts, pure) in a CPU thread, so
 * the detection job of a large suite does not hold the event loop; a small window is searched in place.
 */
export async function findChangeCandidatesInPool(
  windowRunIds: string[],
  trends: TrendLine[],
  unreturned: UnreturnedRegression[],
): Promise<ChangeCandidate[]> {
  const values = trends.reduce((sum, trend) => sum + trend.values.length, 0);
  if (values <= INLINE_DETECTION_VALUES) return findCandidatesInTrends(windowRunIds, trends, unreturned);
  let answer: CpuAnswer;
  try {
    answer = await cpuPool().run({ kind: "changes", windowRunIds, trends: packTrends(trends), unreturned });
  } catch (error) {
    throw outOfMemory(error) ?? error;
  }
  if (answer.ok && "candidates" in answer) return answer.candidates;
  throw new Error("The CPU thread answered a detection with something else");
}

/** Starts a CPU thread and loads the parsers in it (a first parse of nothing), so the first upload finds one ready. */
export function warmCpuPool(): Promise<void> {
  return cpuPool()
    .run({ kind: "parse", files: [{ name: null, text: "" }], format: null, metadata: {} })
    .then(
      () => undefined,
      (error: unknown) => console.error("The CPU threads did not start:", error),
    );
}

/** Stops the CPU threads (tests, and a server shutting down). */
export async function closeCpuPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
