import { describe, expect, it } from "vitest";
import { FORMATS, parseUpload, toBenchtrackDocument } from "@/server/domain/parsers";
import { fixtureUploads, type FixtureUpload } from "@/server/domain/parsers/fixtures/fixture-uploads";
import type { FormatId } from "@/server/domain/run";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as getRun } from "./[id]/route";
import { BENCHMARK_FACTS } from "./benchmark-facts.fixture";
import { percentile, type FactsReader } from "./file-facts.fixture";
import { LOAD_TEST_FACTS } from "./load-test-facts.fixture";
import { POST as uploadRun } from "./route";
import { fixtureText, type Json } from "./uploads.fixture";

// Every real tool output in the fixtures, uploaded as a user would (the bare file with no name and no
// ?format=, or a set as multipart), on the database the environment names (CI runs this file on the
// embedded database and on PostgreSQL). Each run must read back as its parser made it, and its
// aggregate's request count and one percentile must equal the file's own, read here independently of
// the parsers (for row-per-request files: computed here from the rows; load-test-facts.fixture.ts and
// benchmark-facts.fixture.ts). A JMeter JTL, which no fixture holds, is written here. ?endpoint= and an
// unknown ?format=: endpoint-query.db.test.ts.

setUpRouteTestDatabase();

/** Every format's facts: the two tables together, one reader per format. */
const FACTS: Record<FormatId, FactsReader> = { ...LOAD_TEST_FACTS, ...BENCHMARK_FACTS };

function bodyOf(upload: FixtureUpload): BodyInit {
  if (!upload.multipart) return fixtureText(upload.files[0]!.path);
  const form = new FormData();
  for (const { path: file, name } of upload.files)
    form.append(name ?? "file", new Blob([fixtureText(file)]), name ?? "file");
  return form;
}

describe("every fixture uploads with plain curl (or multipart) and reads back with its own numbers", () => {
  const uploads = fixtureUploads();

  it.each(uploads.map((upload) => [upload.title, upload] as const))("%s", async (_title, upload) => {
    const slug = uniqueSlug("format");
    const response = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      { method: "POST", body: bodyOf(upload) },
    );
    const json = (await response.json()) as Json;
    expect({ status: response.status, format: json.format }).toEqual({ status: 201, format: upload.format });

    const stored = (await (
      await call(getRun, `/api/v1/projects/${slug}/runs/${json.id}`, { project: slug, id: json.id as string })
    ).json()) as Json;
    const files = upload.files.map(({ path: file, name }) => ({ path: file, name, text: fixtureText(file) }));
    const expected = toBenchtrackDocument(parseUpload({ files: files.map(({ name, text }) => ({ name, text })) }).run);
    expect(stored.format).toBe(upload.format);
    expect(stored.tool).toBe(FORMATS[upload.format].tool);
    expect(stored.endpoints).toEqual(expected.endpoints);
    expect(stored.aggregate).toEqual(expected.aggregate);
    expect(stored.metrics).toEqual(expected.metrics);
    expect(stored.thresholds).toEqual(expected.thresholds);
    expect(stored.checks).toEqual(expected.checks);
    expect(json.run).toEqual(stored);

    const facts = FACTS[upload.format](files);
    if (facts.requests !== undefined) expect(stored.aggregate.requests).toBe(facts.requests);
    // Facts that found no benchmark in the file would check nothing.
    if (facts.benchmarks) expect(facts.benchmarks.length).toBeGreaterThan(0);
    if (facts.counts) expect(facts.counts.map((count) => count.name)).toEqual((stored.endpoints as Json[]).map((e) => e.name));
    for (const count of facts.counts ?? []) {
      const endpoint = (stored.endpoints as Json[]).find((candidate) => candidate.name === count.name);
      expect(endpoint?.metrics[count.metric], `${count.name} ${count.metric}`).toEqual({
        value: count.value,
        unit: "instructions",
        better: "lower",
        exact: true,
      });
    }
    for (const benchmark of facts.benchmarks ?? []) {
      const endpoint = (stored.endpoints as Json[]).find((candidate) => candidate.name === benchmark.name);
      expect(endpoint, benchmark.name).toBeDefined();
      expect(endpoint!.requests, `${benchmark.name} samples`).toBe(benchmark.samples);
      expect(endpoint!.latency[benchmark.key], `${benchmark.name} ${benchmark.key}`).toBeCloseTo(benchmark.valueMs, benchmark.digits ?? 9);
    }
    if (facts.percentile)
      expect(stored.aggregate.latency[facts.percentile.key]).toBeCloseTo(
        facts.percentile.valueMs,
        facts.percentile.digits ?? 6,
      );
  });

  it("a JMeter JTL (CSV, written here in JMeter's documented layout) uploads with exact percentiles per label", async () => {
    const slug = uniqueSlug("jmeter");
    const header =
      "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";
    const elapsed = { GetListing: [12, 7, 31, 9, 15, 4, 22], Search: [40, 35, 61, 29] };
    const lines = Object.entries(elapsed).flatMap(([label, values]) =>
      values.map((value, index) => {
        const ok = !(label === "Search" && index === 2);
        return `${1795339200000 + index * 100},${value},${label},${ok ? 200 : 500},${ok ? "OK" : "Internal Server Error"},Group 1-1,text,${ok},${ok ? "" : "Test failed"},512,120,1,1,http://127.0.0.1:18080/api/${label},${value - 1},0,1`;
      }),
    );
    const response = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      { method: "POST", body: [header, ...lines].join("\n") },
    );
    const json = (await response.json()) as Json;
    expect({ status: response.status, format: json.format }).toEqual({ status: 201, format: "jmeter-csv" });
    for (const [label, values] of Object.entries(elapsed)) {
      const endpoint = (json.run.endpoints as Json[]).find((candidate) => candidate.name === label)!;
      expect(endpoint.requests).toBe(values.length);
      expect(endpoint.latency.p95).toBeCloseTo(percentile(values, 95), 9);
      expect(endpoint.histogram.buckets.reduce((sum: number, bucket: Json) => sum + bucket.count, 0)).toBe(
        values.length,
      );
    }
    expect(json.run.aggregate.failures).toBe(1);
  });
});
