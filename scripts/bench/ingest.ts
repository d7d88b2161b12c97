import { readFileSync } from "node:fs";
import { median } from "../../server/domain/stats/descriptive";
import { describeFailure, postFile, runConcurrently, send, summarizeLatencies } from "./http";
import type { LatencyFigures, TimedResponse } from "./http";
import { readMemory, sampleRss } from "./memory";
import type { SyntheticNdjson } from "./ndjson";
import type { BenchServer } from "./server";

/**
 * The ingest measurements, each against a running server and its own project (created by the first
 * admin upload). Each returns figures for the JSON report and one-line figures for the table.
 */
export interface ScenarioResult<Figures> {
  figures: Figures;
  lines: { test: string; figure: string }[];
}

export interface IngestClient {
  server: BenchServer;
  adminToken: string;
}

const MB = 1024 * 1024;

function runsUrl(client: IngestClient, project: string, query: Record<string, string> = {}): string {
  return `${client.server.baseUrl}/api/v1/projects/${project}/runs?${new URLSearchParams(query).toString()}`;
}

function authorization(client: IngestClient): Record<string, string> {
  return { authorization: `Bearer ${client.adminToken}` };
}

/** Tallies statuses and error codes of failed answers, e.g. { "201": 398, "500 internal": 2 }. */
function tally(responses: TimedResponse[], isSuccess: (status: number) => boolean): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const key = isSuccess(response.status) ? String(response.status) : describeFailure(response);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function formatTally(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([key, count]) => `${count}× ${key}`)
    .join(", ");
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * (a) The fixture NDJSON (0.56 MB), uploaded plain `times` times one after the other, after one
 * uncounted upload that loads the route's code and the database connection.
 */
export async function measureFixtureNdjson(client: IngestClient, fixturePath: string, times: number) {
  const body = readFileSync(fixturePath);
  const responses: TimedResponse[] = [];
  for (let index = -1; index < times; index++) {
    const response = await send(
      runsUrl(client, "bench-ndjson-fixture", {
        label: index < 0 ? "warm-up" : "fixture",
        round: String(Math.max(index, 0)),
      }),
      {
        method: "POST",
        headers: { ...authorization(client), "content-type": "application/x-ndjson" },
        body,
      },
    );
    if (index >= 0) responses.push(response);
  }
  const ok = responses.filter((response) => response.status === 201);
  const medianMs = median(ok.map((response) => response.ms));
  const figures = {
    bodyBytes: body.length,
    uploads: times,
    statuses: tally(responses, (status) => status === 201),
    medianMs,
    latenciesMs: responses.map((response) => Math.round(response.ms)),
  };
  return {
    figures,
    lines: [
      {
        test: `fixture NDJSON ${(body.length / MB).toFixed(2)} MB, median of ${times}`,
        figure: medianMs === null ? `no success: ${formatTally(figures.statuses)}` : ms(medianMs),
      },
    ],
  } satisfies ScenarioResult<typeof figures>;
}

/** (a) The synthesized NDJSON, gzip-streamed from disk, with the server's memory sampled meanwhile. */
export async function measureLargeNdjson(client: IngestClient, synthetic: SyntheticNdjson) {
  const pid = client.server.serverPid;
  const before = readMemory(pid);
  const sampler = sampleRss(pid);
  const response = await postFile(runsUrl(client, "bench-ndjson-large", { label: "large" }), synthetic.gzipPath, {
    ...authorization(client),
    "content-type": "application/x-ndjson",
    "content-encoding": "gzip",
  });
  const { peakRssMb, timeline } = sampler.stop();
  const after = readMemory(pid);

  let storedRequests: number | null = null;
  if (response.status === 201) {
    const listing = await send(runsUrl(client, "bench-ndjson-large", { label: "large" }), {
      headers: authorization(client),
    });
    const runs = (listing.body as { runs?: { aggregate?: { requests?: number | null } | null }[] }).runs ?? [];
    storedRequests = runs[0]?.aggregate?.requests ?? null;
  }
  const seconds = response.ms / 1000;
  const figures = {
    ndjsonBytes: synthetic.bytes,
    gzipBytes: synthetic.gzipBytes,
    status: response.status,
    error: response.status === 201 ? null : describeFailure(response),
    wallMs: response.ms,
    decompressedMbPerSecond: synthetic.bytes / MB / seconds,
    compressedMbPerSecond: synthetic.gzipBytes / MB / seconds,
    rssBeforeMb: before?.rssMb ?? null,
    peakRssMb,
    rssAfterMb: after?.rssMb ?? null,
    hwmAfterMb: after?.hwmMb ?? null,
    rssTimeline: timeline,
    expectedRequests: synthetic.httpRequests,
    storedRequests,
    isRequestCountRight: storedRequests === synthetic.httpRequests,
  };
  const size = `${(synthetic.bytes / MB).toFixed(0)} MB NDJSON (${(synthetic.gzipBytes / MB).toFixed(1)} MB gzip)`;
  const rss = (value: number | null) => (value === null ? "?" : `${value.toFixed(0)} MB`);
  return {
    figures,
    lines: [
      {
        test: `${size}: upload`,
        figure:
          response.status === 201
            ? `${(figures.wallMs / 1000).toFixed(2)} s, ${figures.decompressedMbPerSecond.toFixed(1)} MB/s decompressed`
            : `FAILED ${figures.error}`,
      },
      {
        test: `${size}: server RSS before → peak (after; VmHWM)`,
        figure: `${rss(figures.rssBeforeMb)} → ${rss(peakRssMb)} (+${rss(peakRssMb - (figures.rssBeforeMb ?? 0))}; after ${rss(figures.rssAfterMb)}; VmHWM ${rss(figures.hwmAfterMb)})`,
      },
      {
        test: `${size}: correctness`,
        figure: `status ${response.status}; aggregate requests ${storedRequests ?? "?"} vs ${synthetic.httpRequests} http_reqs points → ${figures.isRequestCountRight ? "OK" : "MISMATCH"}`,
      },
    ],
  } satisfies ScenarioResult<typeof figures>;
}

export interface ThroughputFigures {
  uploads: number;
  concurrency: number;
  wallSeconds: number;
  uploadsPerSecond: number;
  latency: LatencyFigures | null;
  errors: number;
  statuses: Record<string, number>;
  firstUploadRace: Record<string, number>;
}

/**
 * (b) k6 summaries at a fixed concurrency, each a distinct round. A first wave of `concurrency`
 * uploads into the not-yet-existing project is reported apart (it exercises project creation racing
 * itself and warms the server), then `count` uploads are timed.
 */
export async function measureSummaryThroughput(
  client: IngestClient,
  summaryPath: string,
  count: number,
  concurrency: number,
) {
  const body = readFileSync(summaryPath, "utf8");
  const upload = (label: string, round: number) =>
    send(runsUrl(client, "bench-summary", { label, round: String(round) }), {
      method: "POST",
      headers: { ...authorization(client), "content-type": "application/json" },
      body,
    });
  const firstWave = await runConcurrently(concurrency, concurrency, (index) => upload("first-wave", index));
  const started = performance.now();
  const responses = await runConcurrently(count, concurrency, (index) => upload("throughput", index));
  const wallSeconds = (performance.now() - started) / 1000;
  const ok = responses.filter((response) => response.status === 201);
  const figures: ThroughputFigures = {
    uploads: count,
    concurrency,
    wallSeconds,
    uploadsPerSecond: ok.length / wallSeconds,
    latency: summarizeLatencies(ok.map((response) => response.ms)),
    errors: count - ok.length,
    statuses: tally(responses, (status) => status === 201),
    firstUploadRace: tally(firstWave, (status) => status === 201),
  };
  const { latency } = figures;
  return {
    figures,
    lines: [
      {
        test: `k6 summary ×${count}, ${concurrency} in flight: throughput`,
        figure: `${figures.uploadsPerSecond.toFixed(1)} uploads/s (${figures.errors} errors${figures.errors > 0 ? `: ${formatTally(figures.statuses)}` : ""})`,
      },
      {
        test: `k6 summary ×${count}, ${concurrency} in flight: latency`,
        figure: latency
          ? `p50 ${ms(latency.p50Ms)}, p95 ${ms(latency.p95Ms)}, p99 ${ms(latency.p99Ms)}, max ${ms(latency.maxMs)}`
          : "no success",
      },
      {
        test: `${concurrency} concurrent first uploads to a new project`,
        figure: formatTally(figures.firstUploadRace),
      },
    ],
  } satisfies ScenarioResult<ThroughputFigures>;
}

/** (c) `concurrency` uploads of one body with one Idempotency-Key: one 201, the rest 200, one run stored. */
export async function checkConcurrentIdempotency(client: IngestClient, summaryPath: string, concurrency: number) {
  const project = "bench-idempotency";
  const created = await send(`${client.server.baseUrl}/api/v1/projects`, {
    method: "POST",
    headers: { ...authorization(client), "content-type": "application/json" },
    body: JSON.stringify({ slug: project }),
  });
  if (created.status !== 201) throw new Error(`Creating project ${project} failed: ${describeFailure(created)}`);
  const body = readFileSync(summaryPath, "utf8");
  const idempotencyKey = `bench-${Date.now()}`;
  const responses = await runConcurrently(concurrency, concurrency, () =>
    send(runsUrl(client, project, { label: "idempotency" }), {
      method: "POST",
      headers: { ...authorization(client), "content-type": "application/json", "idempotency-key": idempotencyKey },
      body,
    }),
  );
  const listing = await send(runsUrl(client, project, { limit: "200" }), { headers: authorization(client) });
  const runs = (listing.body as { runs?: { id: string }[] }).runs ?? [];
  const ids = new Set(responses.map((response) => (response.body as { id?: string }).id).filter(Boolean));
  const statuses = tally(responses, (status) => status === 201 || status === 200);
  const figures = {
    concurrency,
    statuses,
    created: statuses["201"] ?? 0,
    replayed: statuses["200"] ?? 0,
    distinctRunIdsAnswered: ids.size,
    runsStored: runs.length,
  };
  const isCorrect =
    figures.created === 1 && figures.replayed === concurrency - 1 && runs.length === 1 && ids.size === 1;
  return {
    figures: { ...figures, isCorrect },
    lines: [
      {
        test: `${concurrency} concurrent uploads, same Idempotency-Key`,
        figure: `${formatTally(statuses)}; ${runs.length} run(s) stored, ${ids.size} id(s) answered → ${isCorrect ? "OK" : "WRONG"}`,
      },
    ],
  } satisfies ScenarioResult<typeof figures & { isCorrect: boolean }>;
}
