import { writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describeFailure, send, summarizeLatencies } from "./http";
import type { LatencyFigures, TimedResponse } from "./http";
import type { BenchServer } from "./server";

/**
 * Issue 36's isolation figures: no upload may hold the server's event loop. Pages read by 1 and by 16
 * readers alone (the floor, measured in the same run), then by 16 readers while 4 uploaders send
 * 50-endpoint k6 summaries; and one reader's latency while a hostile 1,000,000-line `go test -bench`
 * file (gzip, 3.4 MB) is refused and while a 10,000-benchmark suite is stored, twice (the second judged
 * against the first).
 */

export interface IsolationLine {
  test: string;
  figure: string;
}

interface ReadFigures {
  readers: number;
  seconds: number;
  pages: number;
  pagesPerSecond: number;
  failures: number;
  latency: LatencyFigures | null;
}

const SEED_RUNS = 20;

/**
 * A `go test -bench` text of `count` distinct benchmarks, each line shaped as Go prints one (with
 * -benchmem's columns, or without: a million lines then stay under the 50 MB document limit, so the
 * benchmark cap is what refuses them). `shift` moves every time, so a second upload is another run.
 */
export function goBenchText(count: number, { benchmem = true, shift = 0 } = {}): string {
  const lines = ["goos: linux", "goarch: amd64", "pkg: example.com/isolation", "cpu: bench"];
  for (let index = 0; index < count; index++) {
    const memory = benchmem ? "\t 16 B/op\t 1 allocs/op" : "";
    lines.push(`BenchmarkItem${index}-2   \t 1000000\t ${100 + shift + (index % 17)} ns/op${memory}`);
  }
  lines.push("PASS", "ok  \texample.com/isolation\t12.345s");
  return `${lines.join("\n")}\n`;
}

async function upload(server: BenchServer, token: string, project: string, body: Uint8Array | string, headers: Record<string, string> = {}, query = "branch=main") {
  return send(`${server.baseUrl}/api/v1/projects/${project}/runs?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, ...headers },
    body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
  });
}

/** `readers` clients reading pages back to back for `seconds`; `pages` cycles through the URLs. */
async function readFor(urls: readonly string[], readers: number, seconds: number, token: string): Promise<ReadFigures> {
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let failures = 0;
  const reader = async (index: number) => {
    let turn = index;
    while (performance.now() < deadline) {
      const url = urls[turn++ % urls.length]!;
      const response = await send(url, { headers: { authorization: `Bearer ${token}` } });
      if (response.status === 200) latencies.push(response.ms);
      else failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: readers }, (_, index) => reader(index)));
  const elapsed = (performance.now() - started) / 1000;
  return {
    readers,
    seconds: elapsed,
    pages: latencies.length,
    pagesPerSecond: latencies.length / elapsed,
    failures,
    latency: summarizeLatencies(latencies),
  };
}

/** One reader polling every 50 ms while `work` runs: the latencies it saw. */
async function readDuring<T>(url: string, token: string, work: Promise<T>): Promise<{ result: T; latency: LatencyFigures | null; reads: number; failures: string[] }> {
  let done = false;
  const latencies: number[] = [];
  const failures: string[] = [];
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      try {
        const response = await send(url, { headers: { authorization: `Bearer ${token}` } });
        if (response.status === 200) latencies.push(response.ms);
        else failures.push(describeFailure(response));
      } catch (error) {
        // A connection the server reset counts as a failed read, with how long it took to fail.
        failures.push(`${String((error as Error).cause ?? error)} after ${(performance.now() - started).toFixed(0)} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const result = await work.finally(() => {
    done = true;
  });
  await poller;
  return { result, latency: summarizeLatencies(latencies), reads: latencies.length, failures };
}

const ms = (value: number | undefined) => (value === undefined ? "—" : `${value.toFixed(0)} ms`);
/** What the one reader saw while an upload ran (readDuring). */
const describeReadsDuring = (during: { latency: LatencyFigures | null; reads: number; failures: string[] }) =>
  `a concurrent read: p50 ${ms(during.latency?.p50Ms)}, max ${ms(during.latency?.maxMs)} over ${during.reads} reads (target < 200 ms)` +
  (during.failures.length > 0 ? `; ${during.failures.length} failed: ${during.failures[0]}` : "");
const describeReads = (reads: ReadFigures) =>
  `${reads.pagesPerSecond.toFixed(1)} pages/s, p50 ${ms(reads.latency?.p50Ms)}, p95 ${ms(reads.latency?.p95Ms)}${reads.failures > 0 ? `, ${reads.failures} failed` : ""}`;

export async function measureIsolation(server: BenchServer, token: string, wideSummary: string, workDir: string, seconds = 30) {
  const project = `isolation-${Date.now()}`;
  const suite = `isolation-suite-${Date.now()}`;
  const runIds: string[] = [];
  for (let index = 0; index < SEED_RUNS; index++) {
    const response = await upload(server, token, project, wideSummary, { "content-type": "application/json" });
    if (response.status !== 201) throw new Error(`seeding the project failed: ${describeFailure(response)}`);
    runIds.push((response.body as { id: string }).id);
  }
  const pages = [`${server.baseUrl}/projects/${project}`, ...runIds.slice(-3).map((id) => `${server.baseUrl}/projects/${project}/runs/${id}`)];

  const one = await readFor(pages, 1, Math.min(seconds, 10), token);
  const sixteen = await readFor(pages, 16, seconds, token);
  let uploading = true;
  const uploads: TimedResponse[] = [];
  const uploader = async () => {
    while (uploading) uploads.push(await upload(server, token, project, wideSummary, { "content-type": "application/json" }));
  };
  const uploaders = Array.from({ length: 4 }, uploader);
  const loaded = await readFor(pages, 16, seconds, token);
  uploading = false;
  await Promise.all(uploaders);
  const uploadLatency = summarizeLatencies(uploads.filter((response) => response.status === 201).map((response) => response.ms));
  const ratio = loaded.latency && sixteen.latency ? loaded.latency.p95Ms / sixteen.latency.p95Ms : null;

  // The hostile file: 1,000,000 benchmark lines, gzip (3.4 MB on the wire).
  const hostile = gzipSync(goBenchText(1_000_000, { benchmem: false }));
  writeFileSync(path.join(workDir, "go-1m.txt.gz"), hostile);
  const readUrl = `${server.baseUrl}/api/v1/projects`;
  const refused = await readDuring(readUrl, token, upload(server, token, suite, hostile, { "content-encoding": "gzip" }));
  // A suite at the cap: 10,000 benchmarks, stored and judged; then again, against the first as history.
  const atCap = await readDuring(readUrl, token, upload(server, token, suite, goBenchText(10_000)));
  const withHistory = await readDuring(readUrl, token, upload(server, token, suite, goBenchText(10_000, { shift: 3 })));

  const lines: IsolationLine[] = [
    { test: "isolation floor: 1 reader, pages alone", figure: describeReads(one) },
    { test: "isolation floor: 16 readers, pages alone", figure: describeReads(sixteen) },
    {
      test: "isolation: 16 readers while 4 uploaders send 50-endpoint k6 summaries",
      figure: `${describeReads(loaded)}; p95 ${ratio === null ? "—" : `${ratio.toFixed(2)}x`} the readers alone (target ≤ 1.3x); ${uploads.length} uploads, p50 ${ms(uploadLatency?.p50Ms)}`,
    },
    {
      test: "isolation: a 1,000,000-line go test -bench file (3.4 MB gzip), refused",
      figure: `${describeFailure(refused.result)} in ${ms(refused.result.ms)} (target < 2 s); ${describeReadsDuring(refused)}`,
    },
    {
      test: "isolation: a 10,000-benchmark go test -bench suite, stored",
      figure: `${atCap.result.status === 201 ? "201" : describeFailure(atCap.result)} in ${ms(atCap.result.ms)}; ${describeReadsDuring(atCap)}`,
    },
    {
      test: "isolation: a 10,000-benchmark go test -bench suite, judged against the first and stored",
      figure: `${withHistory.result.status === 201 ? "201" : describeFailure(withHistory.result)} in ${ms(withHistory.result.ms)}; ${describeReadsDuring(withHistory)}`,
    },
  ];
  return {
    lines,
    figures: {
      oneReader: one,
      sixteenReaders: sixteen,
      sixteenReadersFourUploaders: { ...loaded, uploads: uploads.length, uploadLatency, p95Ratio: ratio },
      hostileGoFile: { status: refused.result.status, ms: refused.result.ms, bytes: hostile.length, concurrentRead: refused.latency },
      tenThousandBenchmarks: { status: atCap.result.status, ms: atCap.result.ms, concurrentRead: atCap.latency },
      tenThousandBenchmarksWithHistory: { status: withHistory.result.status, ms: withHistory.result.ms, concurrentRead: withHistory.latency },
    },
  };
}
