import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { setUpRouteTestDatabase } from "@/server/testing/rest-client";
import type { CallOptions } from "@/server/testing/rest-client";
import { fixture, runCount, upload } from "./uploads.fixture";

// Bad uploads to POST /api/v1/projects/:project/runs (empty, truncated, mistyped, of another format,
// garbage, falsely gzip or a gzip bomb, too large, too many endpoints, a bad line in NDJSON): each is a
// 4xx with the error envelope naming the path at fault, and nothing is stored. On the embedded database
// and, with DATABASE_URL, PostgreSQL.

setUpRouteTestDatabase();

describe("bad input gets a clear 4xx and stores nothing", () => {
  const slug = uniqueSlug("bad");
  const k6 = fixture("k6/baseline/round1/summary.json");
  const manyEndpoints = JSON.stringify({
    schema: "benchtrack/v1",
    endpoints: Array.from({ length: 10_000 }, (_, index) => ({ name: `endpoint-${index}`, requests: 1 })),
  });
  const hugeName = JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "x".repeat(1024 * 1024) }] });
  const bomb = gzipSync(Buffer.alloc(60 * 1024 * 1024, " "));
  // Stored, it failed every comparison that pooled its rounds (500) and the week's rollup job.
  const repeatedEdge = JSON.stringify({
    schema: "benchtrack/v1",
    endpoints: [{ name: "a", requests: 1000, histogram: { unit: "ms", buckets: [{ le: 5, count: 100 }, { le: 5, count: 100 }, { le: 10, count: 800 }] } }],
  });

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
    ["a histogram whose upper edge repeats", repeatedEdge, {}, 400, "bad_request"],
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

  it("names the histogram bucket whose edge repeats", async () => {
    const response = await upload(slug, repeatedEdge);
    expect(response.json.error.details[0]).toEqual({
      path: "endpoints[0].histogram[1].upperMs",
      message: "5 ms repeats or falls below the bucket before it (5 ms): a histogram's upper edges ascend, each once",
    });
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
