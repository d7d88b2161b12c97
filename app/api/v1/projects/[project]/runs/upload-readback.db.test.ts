import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { parseUpload, toBenchtrackDocument } from "@/server/domain/parsers";
import { percentileOfSorted } from "@/server/domain/stats/percentile";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import type { CallOptions } from "@/server/testing/rest-client";
import { POST as createToken } from "../tokens/route";
import { DELETE as revokeToken } from "../tokens/[id]/route";
import { GET as getRaw } from "./[id]/raw/route";
import { GET as getRun } from "./[id]/route";
import { GET as listRuns, POST as uploadRun } from "./route";

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const fixture = (relative: string) => readFileSync(path.join(FIXTURES, relative));

type Json = Record<string, any>;

setUpRouteTestDatabase();

async function upload(slug: string, body: BodyInit, options: CallOptions = {}) {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
    method: "POST",
    body,
    ...options,
  });
  return { status: response.status, json: (await response.json()) as Json };
}

async function readRun(slug: string, id: string) {
  const response = await call(getRun, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

async function runCount(slug: string): Promise<number> {
  const db = await getDb();
  return db.run.count({ where: { project: { slug } } });
}

function multipart(files: Record<string, Buffer>): FormData {
  const form = new FormData();
  for (const [name, bytes] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(bytes)]), name);
  return form;
}

/** What the parser makes of the file, rendered as a document: the stored run must read back the same. */
function expectedDocument(files: { name: string; bytes: Buffer }[]) {
  const { run } = parseUpload({ files: files.map((file) => ({ name: file.name, text: file.bytes.toString("utf8") })) });
  return toBenchtrackDocument(run);
}

describe("POST /api/v1/projects/:project/runs stores every fixture faithfully", () => {
  const single: [string, string, string][] = [
    ["k6 --summary-export", "k6/baseline/round1/summary.json", "k6-summary"],
    ["k6 handleSummary", "k6/managedasync/round2/handle-summary.json", "k6-handle-summary"],
    ["k6 --new-machine-readable-summary", "k6/baseline/new-machine-readable-summary/summary.json", "k6-new-summary"],
    ["Locust --json", "locust/baseline/round1/locust.json", "locust-json"],
    ["ghz report", "ghz/baseline/round1/GetListing.json", "ghz"],
  ];

  it.each(single)("%s reads back with the file's own numbers", async (_name, file, format) => {
    const slug = uniqueSlug("fixture");
    const bytes = fixture(file);
    const { status, json } = await upload(slug, bytes, { query: { label: "baseline", branch: "main" } });
    expect(status).toBe(201);
    expect(json.format).toBe(format);
    expect(json.url).toBe(`http://bench.test/projects/${slug}/runs/${json.id}`);

    const stored = await readRun(slug, json.id as string);
    const expected = expectedDocument([{ name: path.basename(file), bytes }]);
    expect(stored.endpoints).toEqual(expected.endpoints);
    expect(stored.aggregate).toEqual(expected.aggregate);
    expect(stored.thresholds).toEqual(expected.thresholds);
    expect(stored.checks).toEqual(expected.checks);
    expect(stored.label).toBe("baseline");
    expect(stored.environment.git.branch).toBe("main");
    expect(json.run).toEqual(stored);
  });

  it("k6: the aggregate p95 and request count equal summary.json's", async () => {
    const slug = uniqueSlug("k6");
    const summary = JSON.parse(fixture("k6/baseline/round1/summary.json").toString()) as Json;
    const { json } = await upload(slug, fixture("k6/baseline/round1/summary.json"));
    const stored = await readRun(slug, json.id as string);
    expect(stored.aggregate.latency.p95).toBe(summary.metrics.http_req_duration["p(95)"]);
    expect(stored.aggregate.requests).toBe(summary.metrics.http_reqs.count);
  });

  it("ghz: five reports as multipart make one run with five endpoints, ns → ms", async () => {
    const slug = uniqueSlug("ghz");
    const methods = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];
    const files = Object.fromEntries(methods.map((method) => [`${method}.json`, fixture(`ghz/baseline/round1/${method}.json`)]));
    const { status, json } = await upload(slug, multipart(files));
    expect(status).toBe(201);
    expect(json.format).toBe("ghz");
    expect([...(json.endpoints as string[])].sort()).toEqual([...methods].sort());

    const stored = await readRun(slug, json.id as string);
    for (const method of methods) {
      const report = JSON.parse(files[`${method}.json`]!.toString()) as Json;
      const endpoint = (stored.endpoints as Json[]).find((candidate) => candidate.name === method)!;
      const p95 = (report.latencyDistribution as Json[]).find((entry) => entry.percentage === 95)!;
      expect(endpoint.fullName).toBe(`listings.v1.ListingService.${method}`);
      expect(endpoint.latency.p95).toBeCloseTo((p95.latency as number) / 1e6, 9);
      expect(endpoint.requests).toBe(report.count);
      expect(endpoint.throughput).toBeCloseTo(report.rps as number, 9);
      expect(endpoint.statusCodes).toEqual(report.statusCodeDistribution);
    }
  });

  it("Locust CSV set as multipart: each endpoint's numbers equal the CSV cells", async () => {
    const slug = uniqueSlug("locust");
    const stats = fixture("locust/managedasync/round1/locust_stats.csv");
    const { status, json } = await upload(
      slug,
      multipart({
        "locust_stats.csv": stats,
        "locust_stats_history.csv": fixture("locust/managedasync/round1/locust_stats_history.csv"),
        "locust_failures.csv": fixture("locust/managedasync/round1/locust_failures.csv"),
      }),
    );
    expect(status).toBe(201);
    expect(json.format).toBe("locust-csv");
    const stored = await readRun(slug, json.id as string);
    const [header, ...rows] = stats.toString().trim().split("\n").map((line) => line.split(","));
    const column = (row: string[], name: string) => Number(row[header!.indexOf(name)]);
    for (const row of rows) {
      const name = row[header!.indexOf("Name")]!;
      const result = name === "Aggregated" ? stored.aggregate : (stored.endpoints as Json[]).find((e) => e.name === name)!;
      expect(result.requests).toBe(column(row, "Request Count"));
      expect(result.failures).toBe(column(row, "Failure Count"));
      expect(result.latency.p95).toBe(column(row, "95%"));
      expect(result.latency.p50).toBe(column(row, "50%"));
      expect(result.latency.mean).toBeCloseTo(column(row, "Average Response Time"), 9);
    }
  });

  it("k6 NDJSON, gzip-encoded, streams to exact percentiles computed here from the raw points", async () => {
    const slug = uniqueSlug("ndjson");
    const text = fixture("k6/baseline/short-ndjson/points.ndjson").toString();
    const samples = new Map<string, number[]>();
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      const point = JSON.parse(line) as Json;
      if (point.type !== "Point" || point.metric !== "http_req_duration") continue;
      const name = point.data.tags.name as string;
      samples.set(name, [...(samples.get(name) ?? []), point.data.value as number]);
    }
    const { status, json } = await upload(slug, gzipSync(text), { headers: { "content-encoding": "gzip" } });
    expect(status).toBe(201);
    expect(json.format).toBe("k6-ndjson");
    const stored = await readRun(slug, json.id as string);
    expect(samples.size).toBe(5);
    for (const [name, values] of samples) {
      const sorted = [...values].sort((a, b) => a - b);
      const endpoint = (stored.endpoints as Json[]).find((candidate) => candidate.name === name)!;
      expect(endpoint.requests).toBe(values.length);
      expect(endpoint.latency.p95).toBeCloseTo(percentileOfSorted(sorted, 95), 9);
      expect(endpoint.latency.p50).toBeCloseTo(percentileOfSorted(sorted, 50), 9);
      expect(endpoint.latency.max).toBe(sorted.at(-1));
    }
  });

  it("k6 NDJSON streams to a stored timeline: each window's requests/s are the points counted here between its edges", async () => {
    const slug = uniqueSlug("ndjson-timeline");
    const text = fixture("k6/baseline/short-ndjson/points.ndjson").toString();
    const points = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Json)
      .filter((point) => point.type === "Point");
    const requestTimes = points.filter((point) => point.metric === "http_reqs").map((point) => Date.parse(point.data.time as string));
    const firstMs = Date.parse(points[0]!.data.time as string);
    const { status, json } = await upload(slug, text, { headers: { "content-type": "application/x-ndjson" } });
    expect(status).toBe(201);
    const stored = await readRun(slug, json.id as string);
    const timeline = stored.aggregate.timeline as Json[];
    expect(timeline.length).toBeGreaterThanOrEqual(3);
    let startMs = firstMs;
    for (const [index, point] of timeline.entries()) {
      const endMs = Date.parse(point.at as string);
      const isLast = index === timeline.length - 1;
      const inWindow = requestTimes.filter((time) => time >= startMs && (isLast ? time <= endMs : time < endMs)).length;
      expect(point.requestsPerSecond).toBeCloseTo(inWindow / ((endMs - startMs) / 1000), 9);
      expect(point.failuresPerSecond).toBe(0);
      expect(point.p95Ms).toBeGreaterThan(0);
      startMs = endMs;
    }
    expect(Date.parse(timeline.at(-1)!.at as string)).toBe(Math.max(...points.map((point) => Date.parse(point.data.time as string))));
    for (const endpoint of stored.endpoints as Json[]) expect((endpoint.timeline as Json[]).length).toBe(timeline.length);
  });

  it("the Benchtrack format, with query metadata overriding the body", async () => {
    const slug = uniqueSlug("custom");
    const document = {
      schema: "benchtrack/v1",
      tool: "custom-go-loadtester",
      label: "from-body",
      environment: { git: { branch: "feature" }, attributes: { db: "postgres15" } },
      endpoints: [
        { name: "GetListing", requests: 89, failures: 0, throughput: 2.87, latency: { unit: "s", p95: 0.00087 } },
      ],
      metrics: { memory: { value: 101, unit: "MB", better: "lower" } },
    };
    const { status, json } = await upload(slug, JSON.stringify(document), {
      query: { label: "baseline", branch: "main", round: "2", "attr.region": "eu" },
    });
    expect(status).toBe(201);
    const stored = await readRun(slug, json.id as string);
    expect(stored).toMatchObject({
      tool: "custom-go-loadtester",
      label: "baseline",
      round: 2,
      environment: { git: { branch: "main" }, attributes: { db: "postgres15", region: "eu" } },
      metrics: { memory: { value: 101, unit: "MB", better: "lower" } },
    });
    expect(stored.endpoints[0].latency.p95).toBeCloseTo(0.87, 12);
    expect(stored.endpoints[0].errorRate).toBe(0);
  });

  it("keeps the raw upload and returns it byte for byte", async () => {
    const slug = uniqueSlug("raw");
    const bytes = fixture("k6/baseline/round2/summary.json");
    const { json } = await upload(slug, bytes);
    const response = await call(getRaw, `/api/v1/projects/${slug}/runs/${json.id}/raw`, { project: slug, id: json.id as string });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${json.id as string}-k6-summary.json"`);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("keeps every file of a multi-file upload and a gzip NDJSON body, each returned byte for byte under its own name, whatever the browser accepts", async () => {
    const slug = uniqueSlug("raw-files");
    const stats = fixture("locust/baseline/round1/locust_stats.csv");
    const failures = fixture("locust/baseline/round1/locust_failures.csv");
    const multi = await upload(slug, multipart({ "locust_stats.csv": stats, "locust_failures.csv": failures }));
    expect(multi.status).toBe(201);
    const rawPath = `/api/v1/projects/${slug}/runs/${multi.json.id}/raw`;
    const listing = await call(getRaw, rawPath, { project: slug, id: multi.json.id as string });
    const files = ((await listing.json()) as Json).files as Json[];
    expect(files.map((file) => [file.name, file.available])).toEqual([["locust_stats.csv", true], ["locust_failures.csv", true]]);
    const second = await call(getRaw, rawPath, { project: slug, id: multi.json.id as string }, { query: { file: "1" } });
    expect(second.headers.get("content-disposition")).toBe('attachment; filename="locust_failures.csv"');
    expect(second.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(Buffer.from(await second.arrayBuffer()).equals(failures)).toBe(true);

    const ndjson = fixture("k6/baseline/short-ndjson/points.ndjson");
    const streamed = await upload(slug, new Uint8Array(gzipSync(ndjson)), {
      headers: { "content-type": "application/x-ndjson", "content-encoding": "gzip" },
    });
    expect(streamed.status).toBe(201);
    const ndjsonPath = `/api/v1/projects/${slug}/runs/${streamed.json.id}/raw`;
    const plain = await call(getRaw, ndjsonPath, { project: slug, id: streamed.json.id as string });
    expect(Buffer.from(await plain.arrayBuffer()).equals(ndjson)).toBe(true);
    expect(plain.headers.get("content-disposition")).toBe(`attachment; filename="${streamed.json.id as string}-k6-ndjson.ndjson"`);
    // A browser accepts gzip: it still gets the bytes as uploaded (Next.js would drop a Content-Encoding of ours).
    const asBrowser = await call(getRaw, ndjsonPath, { project: slug, id: streamed.json.id as string }, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(asBrowser.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await asBrowser.arrayBuffer()).equals(ndjson)).toBe(true);
  });
});

describe("bad input gets a clear 4xx and stores nothing", () => {
  const slug = uniqueSlug("bad");
  const k6 = fixture("k6/baseline/round1/summary.json");
  const manyEndpoints = JSON.stringify({
    schema: "benchtrack/v1",
    endpoints: Array.from({ length: 10_000 }, (_, index) => ({ name: `endpoint-${index}`, requests: 1 })),
  });
  const hugeName = JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "x".repeat(1024 * 1024) }] });
  const bomb = gzipSync(Buffer.alloc(60 * 1024 * 1024, " "));

  const cases: [string, BodyInit, CallOptions, number, string][] = [
    ["an empty body", "", {}, 400, "bad_request"],
    ["truncated JSON", k6.subarray(0, 500), {}, 400, "bad_request"],
    ["wrong types", JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "a", requests: "many" }] }), {}, 400, "bad_request"],
    ["a k6 file sent as format=locust", k6, { query: { format: "locust" } }, 422, "unprocessable"],
    ["an unknown format name", k6, { query: { format: "nonsense" } }, 400, "bad_request"],
    ["a hey report sent as format=vegeta", fixture("hey/baseline/round1/hey.txt"), { query: { format: "vegeta" } }, 422, "unprocessable"],
    ["binary garbage", Buffer.from([0, 1, 2, 3, 255, 254, 10, 0, 7]), {}, 422, "unprocessable"],
    ["a body declared gzip that is not", k6, { headers: { "content-encoding": "gzip" } }, 400, "bad_request"],
    ["a gzip bomb (60 MB of spaces in 60 KB)", bomb, { headers: { "content-encoding": "gzip" } }, 413, "payload_too_large"],
    ["a CSV missing its header", "GET,/api,1,2,3\n", {}, 422, "unprocessable"],
    ["a run with 10,000 endpoints", manyEndpoints, {}, 413, "payload_too_large"],
    ["a 1 MB endpoint name", hugeName, {}, 413, "payload_too_large"],
    ["a bad round in the query", k6, { query: { round: "first" } }, 400, "bad_request"],
  ];

  beforeAll(async () => {
    expect((await upload(slug, k6)).status).toBe(201);
  });

  it.each(cases)("%s → %i %s", async (_name, body, options, status, code) => {
    const before = await runCount(slug);
    const response = await upload(slug, body, options);
    expect(response.status).toBe(status);
    expect(response.json.error.code).toBe(code);
    expect(typeof response.json.error.message).toBe("string");
    expect(Array.isArray(response.json.error.details)).toBe(true);
    expect(await runCount(slug)).toBe(before);
  });

  it("names the path at fault", async () => {
    const response = await upload(slug, JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "a", requests: "many" }] }));
    expect(response.json.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining("endpoints[0].requests") as string })]),
    );
  });

  it("k6 NDJSON with a bad time after seconds of timeline: 400 naming the line, nothing stored", async () => {
    const before = await runCount(slug);
    const lines = fixture("k6/baseline/short-ndjson/points.ndjson").toString().trimEnd().split("\n");
    const bad = JSON.stringify({ metric: "http_reqs", type: "Point", data: { time: "soon", value: 1, tags: { name: "GetListing" } } });
    const body = [...lines.slice(0, 1_000), bad, ...lines.slice(1_000)].join("\n");
    const response = await upload(slug, body, { headers: { "content-type": "application/x-ndjson" } });
    expect(response.status).toBe(400);
    expect(response.json.error.details[0].path).toBe("line 1001: data.time");
    expect(response.json.error.message).toContain("line 1001");
    expect(await runCount(slug)).toBe(before);
  });

  it("an oversized body is refused", async () => {
    const before = await runCount(slug);
    const response = await upload(slug, Buffer.alloc(51 * 1024 * 1024, " "));
    expect(response.status).toBe(413);
    expect(await runCount(slug)).toBe(before);
  });
});

describe("tokens", () => {
  it("a project token uploads to its project only; revoked, it no longer works; none at all is 401", async () => {
    const slug = uniqueSlug("tokens");
    const other = uniqueSlug("other");
    await upload(slug, fixture("k6/baseline/round1/summary.json"));
    await upload(other, fixture("k6/baseline/round1/summary.json"));
    const created = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, {
      method: "POST",
      body: JSON.stringify({ name: "ci" }),
    });
    expect(created.status).toBe(201);
    const token = ((await created.json()) as Json) as { id: string; token: string };
    expect(token.token).toMatch(/^bt_/);

    expect((await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: token.token })).status).toBe(201);
    const forbidden = await upload(other, fixture("k6/baseline/round2/summary.json"), { token: token.token });
    expect(forbidden.status).toBe(403);
    expect((await upload(uniqueSlug("unknown"), fixture("k6/baseline/round2/summary.json"), { token: token.token })).status).toBe(403);
    expect((await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: null })).status).toBe(401);
    expect((await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: "bt_not-a-real-token" })).status).toBe(401);

    const revoked = await call(revokeToken, `/api/v1/projects/${slug}/tokens/${token.id}`, { project: slug, id: token.id }, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    expect((await upload(slug, fixture("k6/baseline/round3/summary.json"), { token: token.token })).status).toBe(401);

    const db = await getDb();
    const stored = await db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(stored.tokenHash).not.toContain(token.token);
    expect(JSON.stringify(stored)).not.toContain(token.token);
  });

  it("only the admin token creates tokens", async () => {
    const slug = uniqueSlug("admin-only");
    await upload(slug, fixture("k6/baseline/round1/summary.json"));
    const anonymous = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST", token: null });
    expect(anonymous.status).toBe(401);
    // This server has an admin token: no refusal says otherwise (no-admin-token.db.test.ts has the other case).
    expect(((await anonymous.json()) as Json).error.message).not.toMatch(/no admin token/);
    const empty = await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: "" });
    expect(empty.status).toBe(401);
    expect(empty.json.error.message).toBe('The Authorization header holds no token after "Bearer" (was the variable meant to hold it empty in your shell?).');
  });

  it("a token for a project that does not exist yet is a 404 that says how the project comes to be", async () => {
    const slug = uniqueSlug("not-yet");
    const response = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST" });
    expect(response.status).toBe(404);
    const { error } = ((await response.json()) as Json) as { error: { message: string; details: { path: string; message: string }[] } };
    expect(error.message).toBe(`Project "${slug}" not found`);
    expect(error.details).toEqual([
      { path: "project", message: `create it first: an upload with the admin token creates its project, or POST /api/v1/projects {"slug": "${slug}"}` },
    ]);
  });
});

describe("concurrency", () => {
  it("eight concurrent first uploads to a new project all land", async () => {
    const slug = uniqueSlug("race");
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, round) =>
        upload(slug, fixture("k6/baseline/round1/summary.json"), { query: { round: String(round + 1) } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect(await runCount(slug)).toBe(8);
  });
});

describe("idempotency", () => {
  it("a retry returns the first run with 200; the same key with another body is 409", async () => {
    const slug = uniqueSlug("idem");
    const headers = { "idempotency-key": "build-42" };
    const first = await upload(slug, fixture("k6/baseline/round1/summary.json"), { headers });
    const retry = await upload(slug, fixture("k6/baseline/round1/summary.json"), { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(200);
    expect(retry.json.id).toBe(first.json.id);
    const conflict = await upload(slug, fixture("k6/baseline/round2/summary.json"), { headers });
    expect(conflict.status).toBe(409);
    expect(await runCount(slug)).toBe(1);
  });

  it("eight concurrent retries with one key store one run", async () => {
    const slug = uniqueSlug("idem-race");
    await upload(slug, fixture("k6/baseline/round3/summary.json"));
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        upload(slug, fixture("k6/baseline/round1/summary.json"), { headers: { "idempotency-key": "same" } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.json.id)).size).toBe(1);
    expect(await runCount(slug)).toBe(2);
  });
});

describe("GET /api/v1/projects/:project/runs", () => {
  it("lists newest first, filters by label/branch/tool, and pages with a cursor", async () => {
    const slug = uniqueSlug("list");
    for (let round = 1; round <= 5; round++) {
      await upload(slug, fixture("k6/baseline/round1/summary.json"), {
        query: { label: round % 2 ? "baseline" : "ManagedAsync", round: String(round), branch: "main", started_at: `2026-11-0${round}T10:00:00Z` },
      });
    }
    const list = async (query: Record<string, string>) => {
      const response = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug }, { query, token: null });
      expect(response.status).toBe(200);
      return (await response.json()) as Json;
    };
    const all = await list({});
    expect((all.runs as Json[]).map((run) => run.round)).toEqual([5, 4, 3, 2, 1]);
    expect(all.runs[0].aggregate.requests).toBeGreaterThan(0);
    expect(((await list({ label: "baseline" })).runs as Json[]).map((run) => run.round)).toEqual([5, 3, 1]);
    expect((await list({ tool: "locust" })).runs).toEqual([]);

    const first = await list({ limit: "2" });
    const second = await list({ limit: "2", cursor: first.nextCursor as string });
    const third = await list({ limit: "2", cursor: second.nextCursor as string });
    expect([...first.runs, ...second.runs, ...third.runs].map((run: Json) => run.round)).toEqual([5, 4, 3, 2, 1]);
    expect(third.nextCursor).toBeNull();
  });
});
