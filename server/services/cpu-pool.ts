import { availableParallelism } from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import { InputError } from "../domain/input-error";
import type { ParsedUpload } from "../domain/parsers";
import { getEnv } from "../env";
import type { ParseAnswer, ParseTask } from "./parse-worker";

/**
 * Parsing runs in a pool of worker threads (piscina), never on the event loop: a file that takes
 * seconds to read (a large suite, a hostile one) holds one thread, while every other request goes on
 * being answered. Each parse has a time budget (BENCHTRACK_PARSE_TIMEOUT_MS: past it the thread is
 * stopped and the upload refused, 413) and each thread a heap of its own (BENCHTRACK_PARSE_MEMORY_MB: a
 * file that needs more is refused, the server's heap untouched). Threads: BENCHTRACK_PARSE_THREADS, else
 * one per core. The worker is TypeScript, loaded by tsx as the server's scripts are.
 */
let pool: Piscina<ParseTask, ParseAnswer> | null = null;

/** The worker module, from the project's root (the server's working folder, as `npm start` runs it). */
const WORKER_FILE = path.join(process.cwd(), "server", "services", "parse-worker.ts");

function parsePool(): Piscina<ParseTask, ParseAnswer> {
  if (pool) return pool;
  const env = getEnv();
  const threads = env.BENCHTRACK_PARSE_THREADS ?? Math.max(1, availableParallelism());
  pool = new Piscina<ParseTask, ParseAnswer>({
    filename: WORKER_FILE,
    execArgv: ["--import", "tsx"],
    minThreads: 1,
    maxThreads: threads,
    // A thread left idle a minute goes away; the first parse after pays ~0.5 s to start one.
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: env.BENCHTRACK_PARSE_MEMORY_MB },
  });
  return pool;
}

/**
 * An upload's files parsed off the event loop, completed with the query's metadata and validated
 * (domain/parsers:parseUploadedRun). `signal` (the request's) stops the parse when the client leaves.
 */
export async function parseInPool(task: ParseTask, signal?: AbortSignal, { budgetMs = getEnv().BENCHTRACK_PARSE_TIMEOUT_MS } = {}): Promise<ParsedUpload> {
  const memoryMb = getEnv().BENCHTRACK_PARSE_MEMORY_MB;
  const budget = AbortSignal.timeout(budgetMs);
  const stop = signal ? AbortSignal.any([signal, budget]) : budget;
  let answer: ParseAnswer;
  try {
    answer = await parsePool().run(task, { signal: stop });
  } catch (error) {
    signal?.throwIfAborted();
    if (budget.aborted) {
      throw new InputError("too_large", `The upload took longer than ${budgetMs / 1000} s to read; it was stopped (BENCHTRACK_PARSE_TIMEOUT_MS)`, [
        { path: "body", message: `parsing took more than ${budgetMs} ms` },
      ]);
    }
    if ((error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
      throw new InputError("too_large", `The upload needs more than ${memoryMb} MB to read (BENCHTRACK_PARSE_MEMORY_MB)`, [
        { path: "body", message: `more than ${memoryMb} MB of memory to parse` },
      ]);
    }
    throw error;
  }
  if (!answer.ok) throw new InputError(answer.error.code, answer.error.message, answer.error.details);
  return answer.parsed;
}

/** Starts a parse thread and loads the parsers in it (a first parse of nothing), so the first upload finds one ready. */
export function warmParsePool(): void {
  parsePool()
    .run({ files: [{ name: null, text: "" }], format: null, metadata: {} })
    .catch((error: unknown) => console.error("The parse threads did not start:", error));
}

/** Stops the parse threads (tests, and a server shutting down). */
export async function closeParsePool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
