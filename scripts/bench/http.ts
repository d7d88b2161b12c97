import { createReadStream, statSync } from "node:fs";
import { request } from "node:http";
import { percentileOfSorted } from "../../server/domain/stats/percentile";

/** HTTP calls the benchmark makes, each timed from the first byte sent to the last byte received. */
export interface TimedResponse {
  status: number;
  body: unknown;
  ms: number;
}

const REQUEST_TIMEOUT_MS = 300_000;

/** POSTs a file streamed from disk (never read whole into memory) with the given headers. */
export async function postFile(url: string, filePath: string, headers: Record<string, string>): Promise<TimedResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(statSync(filePath).size) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: parseJson(Buffer.concat(chunks).toString("utf8")),
            ms: performance.now() - started,
          }),
        );
      },
    );
    outgoing.on("timeout", () =>
      outgoing.destroy(new Error(`No answer from ${url} in ${REQUEST_TIMEOUT_MS / 1000} s`)),
    );
    outgoing.on("error", reject);
    createReadStream(filePath).on("error", reject).pipe(outgoing);
  });
}

export async function send(url: string, init: RequestInit = {}): Promise<TimedResponse> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  return { status: response.status, body: parseJson(text), ms: performance.now() - started };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Runs `count` tasks with at most `concurrency` in flight, in index order of starting. */
export async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

export interface LatencyFigures {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Percentiles by linear interpolation between ranks (the one method the app itself uses). */
export function summarizeLatencies(latenciesMs: number[]): LatencyFigures | null {
  if (latenciesMs.length === 0) return null;
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    p50Ms: percentileOfSorted(sorted, 50),
    p95Ms: percentileOfSorted(sorted, 95),
    p99Ms: percentileOfSorted(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
  };
}

/** The `error.code` of the API's error envelope, or the status when the body is something else. */
export function describeFailure(response: TimedResponse): string {
  const envelope = response.body as { error?: { code?: unknown; message?: unknown } } | null;
  const code = typeof envelope?.error?.code === "string" ? envelope.error.code : "no envelope";
  return `${response.status} ${code}`;
}
