import { describe, expect, it } from "vitest";
import { isBenchmarkFormat } from "../run";
import { inspectFile } from "./detect";
import { allFixtureFiles, expectedFormatOf, fixtureUploads, type FixtureUpload } from "./fixtures/fixture-uploads";
import { applyRunMetadata, FORMATS, isNdjsonStart, parseUpload, type UploadedFile } from "./index";
import { readFixture } from "./fixtures/read-fixture";
import { errorOf } from "./fixtures/input-error-of";

const file = (path: string, name: string | null = path.split("/").at(-1) ?? null): UploadedFile => ({ name, text: readFixture(path) });

describe("parseUpload on every fixture, as a user would send it", () => {
  const uploads = fixtureUploads();
  const read = (upload: FixtureUpload): UploadedFile[] => upload.files.map(({ path, name }) => ({ name, text: readFixture(path) }));

  it("covers every fixture file", () => {
    const used = new Set(uploads.flatMap((upload) => upload.files.map((entry) => entry.path)));
    expect(allFixtureFiles().filter((path) => !used.has(path))).toEqual([]);
  });

  it.each(uploads.map((upload) => [upload.title, upload] as const))("%s", (_, upload) => {
    const parsed = parseUpload({ files: read(upload) });
    expect(parsed.format).toBe(upload.format);
    expect(parsed.run.format).toBe(upload.format);
    expect(parsed.run.tool).toBe(FORMATS[upload.format].tool);
    // A benchmark run's aggregate holds no numbers (benchmark.ts): each benchmark is a result of its own.
    if (isBenchmarkFormat(upload.format)) expect(parsed.run.endpoints.length).toBeGreaterThan(0);
    else expect(parsed.run.aggregate.requests).toBeGreaterThan(0);
    // The tool's name as ?format= allows it, and so does the format's own id.
    expect(parseUpload({ files: read(upload), format: FORMATS[upload.format].tool }).format).toBe(upload.format);
    const formats = new Set(upload.files.map(({ path }) => expectedFormatOf(path)));
    if (formats.size === 1) expect(parseUpload({ files: read(upload), format: upload.format }).format).toBe(upload.format);
  });

  it("detects each file's format by its markers alone, and only one format per file", () => {
    for (const path of allFixtureFiles()) {
      const inspection = inspectFile(readFixture(path), path);
      const formats = inspection.kind === "ndjson" ? ["k6-ndjson"] : inspection.formats;
      // A Locust CSV companion is recognised by its header too.
      expect({ path, formats }).toEqual({ path, formats: [expectedFormatOf(path)] });
    }
  });

  it.each([
    ["k6", "k6/baseline/round1/summary.json", "k6-summary"],
    ["k6", "k6/baseline/round1/handle-summary.json", "k6-handle-summary"],
    ["K6", "k6/baseline/short-ndjson/points.ndjson", "k6-ndjson"],
    ["summary-export", "k6/baseline/round1/summary.json", "k6-summary"],
    ["locust", "locust/baseline/round1/locust.json", "locust-json"],
    ["ghz", "ghz/baseline/round1/GetListing.json", "ghz"],
    ["ghz-pretty", "ghz/baseline/round1-pretty/GetListing.txt", "ghz"],
    ["vegeta", "vegeta/baseline/round1/report.txt", "vegeta-text"],
  ])("accepts format=%s for %s", (format, path, expected) => {
    expect(parseUpload({ files: [file(path, null)], format }).format).toBe(expected);
  });
});

describe("upload wrapper and Benchtrack format", () => {
  it("unwraps {format, metadata, result} and applies the metadata", () => {
    const result = JSON.parse(readFixture("k6/baseline/round1/summary.json")) as unknown;
    const text = JSON.stringify({ format: "k6", metadata: { label: "baseline", round: 1, attributes: { variant: "baseline" } }, result });
    const parsed = parseUpload({ files: [{ name: null, text }] });
    expect(parsed.format).toBe("k6-summary");
    expect(parsed.run.label).toBe("baseline");
    expect(parsed.run.round).toBe(1);
    expect(parsed.run.environment.attributes).toEqual({ variant: "baseline" });
  });

  it("points into the wrapper's result and metadata on errors", () => {
    const badResult = errorOf(() => parseUpload({ files: [{ name: null, text: '{"format":"ghz","result":{"options":{},"count":"x"}}' }] }));
    expect(badResult.code).toBe("malformed");
    expect(badResult.details.every((d) => d.path.startsWith("result."))).toBe(true);
    const badMetadata = errorOf(() => parseUpload({ files: [{ name: null, text: '{"metadata":{"round":"one"},"result":{"schema":"benchtrack/v1","endpoints":[{"name":"a"}]}}' }] }));
    expect(badMetadata.details[0]?.path).toBe("metadata.round");
  });

  it("detects a Benchtrack document", () => {
    const text = JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "a", requests: 3 }] });
    expect(parseUpload({ files: [{ name: null, text }] }).format).toBe("benchtrack");
  });
});

describe("bad uploads", () => {
  const k6 = file("k6/baseline/round1/summary.json");

  it.each([
    ["an empty body", [{ name: null, text: "" }], undefined, "malformed"],
    ["no files", [], undefined, "malformed"],
    ["whitespace only", [{ name: null, text: " \n\t" }], undefined, "malformed"],
    ["a k6 file sent as format=locust", [k6], "locust", "wrong_format"],
    ["a k6 file sent as format=ghz", [k6], "ghz", "wrong_format"],
    ["an unknown format name", [k6], "nonsense", "malformed"],
    ["binary garbage", [{ name: null, text: "\u0000\u0001\u0002PK\u0003\u0004\u00ff\u00fe" }], undefined, "undetectable_format"],
    ["binary garbage as format=k6", [{ name: null, text: "\u0000\u0001\u0002PK\u0003\u0004" }], "k6", "wrong_format"],
    ["JSON of an unknown shape", [{ name: null, text: '{"hello":"world"}' }], undefined, "undetectable_format"],
    ["plain text", [{ name: null, text: "Total: 12 secs\nSlowest: 3 secs" }], undefined, "undetectable_format"],
    ["a CSV of no tool", [{ name: "data.csv", text: "a,b,c\n1,2,3\n" }], undefined, "undetectable_format"],
    ["a k6 summary and a ghz report together", [k6, file("ghz/baseline/round1/GetListing.json")], undefined, "malformed"],
    // Numbers past any range (the review found each of these answered 500 before).
    [
      "a hey CSV row of 400 digits",
      [{ name: null, text: `response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n${"9".repeat(400)},0,0,0,0,0,200,0.1\n` }],
      undefined,
      "malformed",
    ],
    ["a ghz CSV duration of 400 digits", [{ name: "Ping.csv", text: `\nduration (ms),status,error\n${"9".repeat(400)},OK,\n` }], undefined, "malformed"],
    [
      "a JMeter elapsed of 400 digits",
      [{ name: null, text: `timeStamp,elapsed,label,responseCode,success\n1795339200000,${"9".repeat(400)},GetListing,200,true\n` }],
      undefined,
      "malformed",
    ],
    [
      "an artillery report from the year 3 million",
      [{ name: null, text: JSON.stringify({ aggregate: { counters: { "http.requests": 1 }, firstMetricAt: 1e20 }, intermediate: [] }) }],
      undefined,
      "malformed",
    ],
  ] as const)("rejects %s", (_, files, format, code) => {
    const error = errorOf(() => parseUpload({ files: [...files], format }));
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(10);
  });

  it("names what was expected and what the content looks like", () => {
    const error = errorOf(() => parseUpload({ files: [k6], format: "locust" }));
    expect(error.message).toBe(
      "The format given expects Locust --json output or Locust --csv files or Locust --html report, but the content looks like k6 --summary-export JSON",
    );
  });

  it("lists what is accepted and points at /docs/api when nothing matches", () => {
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: "Total: 12 secs\nSlowest: 3 secs" }] }));
    expect(error.code).toBe("undetectable_format");
    for (const format of Object.values(FORMATS)) expect(error.message).toContain(format.title);
    expect(error.message).toContain("/docs/api");
  });

  it("refuses an unknown ?format= with the names it accepts (400)", () => {
    const error = errorOf(() => parseUpload({ files: [k6], format: "nonsense" }));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("query.format");
    for (const name of ["k6", "vegeta", "hey", "wrk", "autocannon", "artillery", "jmeter", "jmeter-csv", "ghz-csv"]) {
      expect(error.message).toContain(name);
    }
  });

  it("never guesses between two formats: content matching two is refused, naming both", () => {
    // A text that carries the markers of two formats at once (a wrk report pasted under a vegeta one).
    const vegeta = readFixture("vegeta/baseline/round1/report.txt");
    const both = `${vegeta}\nSummary report @ 09:46:22(+0000)\n`;
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: both }] }));
    expect(error.code).toBe("undetectable_format");
    expect(error.message).toContain("vegeta report -type=text");
    expect(error.message).toContain("artillery console output");
    expect(parseUpload({ files: [{ name: null, text: vegeta }], format: "vegeta" }).format).toBe("vegeta-text");
  });

  it("gives line and column of truncated JSON", () => {
    const text = readFixture("k6/baseline/round1/summary.json");
    const truncated = text.slice(0, 200);
    const error = errorOf(() => parseUpload({ files: [{ name: "summary.json", text: truncated }] }));
    expect(error.code).toBe("malformed");
    const lines = truncated.split("\n");
    expect(error.details[0]?.path).toBe(`summary.json: line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`);
  });

  it("gives line and column of a syntax error in the middle", () => {
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: '{\n  "schema": "benchtrack/v1",\n  "endpoints": [}\n}' }] }));
    expect(error.details[0]?.path).toBe("line 3, column 17");
  });

  it("gives the JSON path of wrong types", () => {
    const text = JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "a", latency: { p95: "fast" } }] });
    const error = errorOf(() => parseUpload({ files: [{ name: null, text }] }));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("endpoints[0].latency.p95");
  });

  it("names the missing-header line of a Locust CSV", () => {
    const withoutHeader = readFixture("locust/baseline/round1/locust_stats.csv").split("\n").slice(1).join("\n");
    const error = errorOf(() => parseUpload({ files: [{ name: "locust_stats.csv", text: withoutHeader }] }));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("locust_stats.csv: line 1");
  });

  it("refuses 10,000 endpoints and a 1 MB name after parsing", () => {
    const many = JSON.stringify({ schema: "benchtrack/v1", endpoints: Array.from({ length: 10_000 }, (_, i) => ({ name: `e${i}` })) });
    expect(errorOf(() => parseUpload({ files: [{ name: null, text: many }] })).code).toBe("too_large");
    const longName = JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "n".repeat(1_048_576) }] });
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: longName }] }));
    expect(error.code).toBe("too_large");
    expect(error.details[0]?.path).toBe("endpoints[0].name");
  });
});

describe("isNdjsonStart", () => {
  it("recognises k6 NDJSON by its first line only", () => {
    const firstLine = readFixture("k6/baseline/short-ndjson/points.ndjson").split("\n")[0] ?? "";
    expect(isNdjsonStart(firstLine)).toBe(true);
    expect(isNdjsonStart('{"metric":"http_reqs","type":"Point","data":{}}')).toBe(true);
    expect(isNdjsonStart(readFixture("k6/baseline/round1/handle-summary.json"))).toBe(false);
    expect(isNdjsonStart("{")).toBe(false);
    expect(isNdjsonStart("Type,Name,Request Count")).toBe(false);
  });
});

describe("?endpoint= names only a single target", () => {
  const named = (path: string) => applyRunMetadata(parseUpload({ files: [file(path, null)] }).run, { endpoint: "GetListing" });

  it("names a hey or vegeta report's one target, and renames wrk's URL", () => {
    expect(named("hey/baseline/round1/hey.txt").endpoints.map((e) => e.name)).toEqual(["GetListing"]);
    expect(named("vegeta/baseline/round1/report.json").endpoints.map((e) => e.name)).toEqual(["GetListing"]);
    const wrk = named("wrk/baseline/round1/wrk.txt").endpoints[0];
    expect(wrk).toMatchObject({ name: "GetListing", fullName: "http://127.0.0.1:18080/api/listings/42" });
  });

  it("refuses to name an aggregate of several requests, or a report of several endpoints", () => {
    for (const path of ["artillery/baseline/round1/report.json", "k6/baseline/round1/summary.json"]) {
      const error = errorOf(() => named(path));
      expect(error.code).toBe("malformed");
      expect(error.details[0]?.path).toBe("query.endpoint");
    }
  });
});

describe("detection stays linear on hostile text", () => {
  // Each of these took from seconds to hours with a backtracking marker; the test would time out.
  it.each([
    ["thousands of XML comments with no <testResults> after them", `<?xml version="1.0"?>${"<!---->".repeat(5_000)}nope`],
    ["Summary: then a megabyte of blank lines", `Summary:${"\n".repeat(1_000_000)}x`],
    ["Running then a megabyte of spaces", `Running ${" ".repeat(1_000_000)}x`],
  ])("%s", (_, text) => {
    expect(inspectFile(text, null)).toEqual({ kind: "text", formats: [] });
  });

  it("still finds a JMeter XML JTL behind its declaration and comments, and wrk behind a Lua script's lines", () => {
    const jtl = `<?xml version="1.0"?>\n<!-- made by JMeter -->\n<testResults version="1.2">\n</testResults>`;
    expect(inspectFile(jtl, null)).toEqual({ kind: "text", formats: ["jmeter-xml"] });
    const wrk = `setup done\n${readFixture("wrk/baseline/round1/wrk.txt")}`;
    expect(inspectFile(wrk, null)).toEqual({ kind: "text", formats: ["wrk-text"] });
  });
});
