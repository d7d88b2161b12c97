import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as badge } from "../badge.svg/route";
import { GET as compare } from "../compare/route";
import { GET as getRun } from "./[id]/route";
import { GET as listRuns, POST as uploadRun } from "./route";

// Hostile input that once cost a 500 (issue "Access control … hostile input", found by fuzzing): integers
// beyond the database's 32 bits, NUL characters and lone surrogates in stored text or in read routes'
// parameters, more failures than requests. Each is a 4xx naming the path at fault, and nothing is
// stored. On the embedded database and, with DATABASE_URL, PostgreSQL.
setUpRouteTestDatabase();

type ErrorAnswer = { error: { code: string; message: string; details: { path: string; message: string }[] } };

const slug = uniqueSlug("hostile");

function run(endpoint: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    endpoints: [{ name: "GetListing", requests: 100, failures: 1, latency: { unit: "ms", p50: 1, p95: 2 }, ...endpoint }],
    ...extra,
  });
}

async function post(body: string, query: Record<string, string> = {}) {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query });
  return { status: response.status, json: (await response.json()) as ErrorAnswer };
}

async function expectRefused(answer: { status: number; json: ErrorAnswer }, path: string) {
  expect(answer.status, JSON.stringify(answer.json)).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.json.error.details.map((detail) => detail.path)).toContain(path);
}

describe("uploads the database could not store", () => {
  it("are refused with the path at fault, and nothing is stored", async () => {
    expect((await post(run())).status).toBe(201);
    await expectRefused(await post(run(), { round: "2147483648" }), "query.round");
    await expectRefused(await post(run(), { pr: "99999999999" }), "query.pr");
    await expectRefused(await post(run({ requests: 1e12 })), "endpoints[0].requests");
    await expectRefused(await post(run({}, { environment: { host: { cpus: 1e12 } } })), "environment.host.cpus");
    await expectRefused(await post(run({ name: "Get\u0000Listing" })), "endpoints[0].name");
    await expectRefused(await post(run(), { label: "night\u0000ly" }), "query.label");
    // A lone surrogate, as JSON escapes it, in an attribute value and in a key.
    const surrogate = run().replace('"label":"nightly"', '"label":"nightly","environment":{"attributes":{"db":"pg\\ud800"}}');
    await expectRefused(await post(surrogate), "environment.attributes.db");
    const surrogateKey = run().replace('"label":"nightly"', '"label":"nightly","environment":{"attributes":{"\\udc00":"x"}}');
    const keyAnswer = await post(surrogateKey);
    expect(keyAnswer.status).toBe(400);
    expect(keyAnswer.json.error.details[0]?.message).toMatch(/its key contains a lone UTF-16 surrogate/);
    await expectRefused(await post(run({ requests: 10, failures: 11 })), "endpoints[0].failures");

    const listed = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug });
    expect(((await listed.json()) as { runs: unknown[] }).runs).toHaveLength(1);
  });
});

describe("k6 NDJSON with one enormous line", () => {
  it("is refused (413, naming the line) as soon as the line passes the limit, not after reading it whole", async () => {
    // 41 KB of gzip that decompresses to a 40 MB line: once 44 s of CPU.
    const metric = JSON.stringify({ type: "Metric", data: { name: "http_req_duration", type: "trend", contains: "time" }, metric: "http_req_duration" });
    const body = gzipSync(Buffer.from(`${metric}\n{"type":"Point","data":{"tags":{"x":"${"a".repeat(40_000_000)}"}}}\n`));
    const started = performance.now();
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body,
      headers: { "content-encoding": "gzip", "content-type": "application/x-ndjson" },
    });
    const seconds = (performance.now() - started) / 1000;
    console.info(`40 MB NDJSON line (${body.length} bytes gzip): ${response.status} in ${seconds.toFixed(2)} s`);
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorAnswer).error.details[0]?.path).toBe("line 2");
  });
});

describe("read routes given text the database could not hold", () => {
  it("answer 400 naming the parameter, on REST and tRPC", async () => {
    const cases = [
      { handler: getRun, url: `/api/v1/projects/${slug}/runs/%00`, params: { project: slug, id: "\u0000" }, path: "path.id" },
      { handler: listRuns, url: `/api/v1/projects/${slug}/runs`, params: { project: slug }, query: { label: "\u0000" }, path: "query.label" },
      { handler: badge, url: `/api/v1/projects/${slug}/badge.svg`, params: { project: slug }, query: { label: "\u0000" }, path: "query.label" },
      {
        handler: compare,
        url: `/api/v1/projects/${slug}/compare`,
        params: { project: slug },
        query: { base: "label:nightly", head: "label:nightly", tool: "\u0000" },
        path: "query.tool",
      },
    ] as const;
    for (const { handler, url, params, path, ...rest } of cases) {
      const response = await call(handler as typeof listRuns, url, params as { project: string }, {
        query: "query" in rest ? (rest.query as Record<string, string>) : {},
      });
      expect({ url, status: response.status }).toEqual({ url, status: 400 });
      expect(((await response.json()) as ErrorAnswer).error.details[0]?.path).toBe(path);
    }

    const caller = createCaller({ db: await getDb() });
    const input = { project: slug, base: "label:nightly", head: "label:nightly", last: null, test: "welch" as const, tool: "\u0000", baseUrl: "http://x" };
    await expect(caller.compare.get(input)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.run.get({ project: slug, id: "\u0000" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("idempotency and multipart", () => {
  const locust = (name: string) =>
    readFileSync(path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures/locust/baseline/round1", name));
  const form = (names: string[]) => {
    const data = new FormData();
    for (const name of names) data.append(name, new Blob([locust(name)]), name);
    return data;
  };
  const postForm = (data: FormData, key: string, query: Record<string, string> = {}) =>
    call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: data,
      headers: { "idempotency-key": key },
      query: { label: "nightly", ...query },
    });

  it("replays the same files re-sent with a new boundary, and refuses the same key with other metadata", async () => {
    const key = `retry-${Date.now()}`;
    const files = ["locust_stats.csv", "locust_failures.csv"];
    const first = await postForm(form(files), key);
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as { id: string }).id;
    // A new FormData is a new multipart boundary: the same upload all the same.
    const again = await postForm(form(files), key);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(firstId);
    const relabelled = await postForm(form(files), key, { label: "other" });
    expect(relabelled.status).toBe(409);
    expect(((await relabelled.json()) as ErrorAnswer).error.message).toMatch(/different body or metadata/);
  });

  it("refuses more than 50 files in one upload", async () => {
    const data = new FormData();
    for (let index = 0; index < 51; index++) data.append(`f${index}`, new Blob([locust("locust_stats.csv")]), `stats_${index}.csv`);
    const response = await postForm(data, `many-${Date.now()}`);
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorAnswer).error.details[0]?.path).toBe("body.files[50]");
  });

  it("refuses the same ghz report sent twice under two names: one endpoint, one result", async () => {
    const dir = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures/ghz/baseline/round1");
    const report = readFileSync(path.join(dir, readdirSync(dir).find((name) => name.endsWith(".json"))!));
    const data = new FormData();
    data.append("a", new Blob([report]), "a.json");
    data.append("b", new Blob([report]), "b.json");
    const response = await postForm(data, `copies-${Date.now()}`);
    expect(response.status).toBe(422);
    expect(((await response.json()) as ErrorAnswer).error.details[0]?.path).toBe("endpoints[1]");
  });

  it("refuses two files of the same name in one upload", async () => {
    const data = form(["locust_stats.csv"]);
    data.append("again", new Blob([locust("locust_stats.csv")]), "locust_stats.csv");
    const response = await postForm(data, `dup-${Date.now()}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorAnswer).error.details[0]?.path).toBe("body.files[1]");
  });
});

describe("the Markdown answer for a PR comment", () => {
  it("keeps hostile labels, branches and endpoint names as text: no link, no HTML, no mention", async () => {
    const hostile = "[x](javascript:alert(1)) <img src=x onerror=alert(1)> @everyone | **b**";
    const body = run({ name: hostile }, { label: hostile, environment: { git: { branch: "@org/team <b>" } } });
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body,
      headers: { accept: "text/markdown" },
    });
    expect(response.status).toBe(201);
    const markdown = await response.text();
    expect(markdown).toContain("\\[x\\](javascript:alert(1))");
    expect(markdown).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(markdown).not.toMatch(/<img|<b>|@everyone|@org/);
    expect(markdown).not.toMatch(/(?<!\\)\[x\]/);
    // The endpoint's table row is still one row of seven cells.
    const row = markdown.split("\n").find((line) => line.startsWith("| ") && line.includes("javascript"));
    expect(row?.split(/(?<!\\)\|/).length).toBe(9);
  });
});

describe("a client that goes away mid-upload", () => {
  it("stops the upload at once, stores nothing, and is logged as one info line", async () => {
    const { TEST_ADMIN_TOKEN } = await import("@/server/testing/rest-client");
    const { captureLogLines } = await import("@/server/services/platform");
    const gone = uniqueSlug("gone");
    const capture = captureLogLines();
    try {
      for (const start of ['{"type":"Metric","data":{"name":"http_reqs","type":"counter"},"metric":"http_reqs"}\n', '{"schema":"benchtrack/v1",']) {
        const controller = new AbortController();
        // A body that sends its first bytes and then stalls, as a client that hangs up mid-send.
        const body = new ReadableStream<Uint8Array>({
          start(stream) {
            stream.enqueue(new TextEncoder().encode(start));
          },
        });
        const request = new Request(`http://localhost/api/v1/projects/${gone}/runs`, {
          method: "POST",
          body,
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
          signal: controller.signal,
          duplex: "half",
        } as RequestInit);
        const answered = uploadRun(request, { params: Promise.resolve({ project: gone }) });
        setTimeout(() => controller.abort(), 100);
        const startedAt = performance.now();
        await answered;
        expect(performance.now() - startedAt).toBeLessThan(5_000);
      }
      const lines = capture.stop().map((line) => JSON.parse(line) as { level: number; msg: string; path?: string; afterMs?: number });
      // No error line: one info line each that the client went away (beside each request's own line).
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      const gaveUp = lines.filter((line) => line.msg === "the client went away; the request was dropped");
      expect(gaveUp).toHaveLength(2);
      expect(gaveUp[0]).toMatchObject({ level: 30, path: `/api/v1/projects/${gone}/runs`, afterMs: expect.any(Number) as unknown });
      expect(await (await getDb()).project.count({ where: { slug: gone } })).toBe(0);
    } finally {
      capture.stop();
    }
  });
});
