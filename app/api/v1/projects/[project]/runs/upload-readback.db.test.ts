import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseUpload, toBenchtrackDocument } from "@/server/domain/parsers";
import { percentileOfSorted } from "@/server/domain/stats/percentile";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as getRaw } from "./[id]/raw/route";
import { GET as getRun } from "./[id]/route";
import { fixture, upload, type Json } from "./uploads.fixture";

// Real tool outputs uploaded through POST /api/v1/projects/:project/runs (one file, a multipart set, a
// gzip or NDJSON body, the Benchtrack format with query metadata) read back through the run route with
// the file's own numbers, and the raw upload through the raw route byte for byte. On the embedded
// database and, with DATABASE_URL, PostgreSQL.

setUpRouteTestDatabase();

async function readRun(slug: string, id: string) {
  const response = await call(getRun, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
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
