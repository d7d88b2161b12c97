import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_IDS } from "../run";
import { FORMAT_NAMES, FORMATS, formatsInOrder, formatTableMarkdown, rawDownloadOf, resolveFormatName, TOOL_NAMES } from "./formats";
import { errorOf } from "./fixtures/input-error-of";

describe("the format registry", () => {
  it("describes every format once, with a command, a recipe, what it keeps and drops, and its latency resolution", () => {
    expect(
      formatsInOrder()
        .map((format) => format.id)
        .sort(),
    ).toEqual([...FORMAT_IDS].sort());
    for (const format of formatsInOrder()) {
      expect(FORMATS[format.id]).toBe(format);
      expect(format.recipe).toContain("$RUNS");
      expect(format.keeps.length).toBeGreaterThan(10);
      expect(format.drops.length).toBeGreaterThan(3);
      expect(format.resolution.length).toBeGreaterThan(10);
    }
  });

  it("takes a tool's name, a format id or an older alias in ?format=, whatever the case", () => {
    expect(resolveFormatName("vegeta")).toEqual(["vegeta-json", "vegeta-text", "vegeta-hist"]);
    expect(resolveFormatName(" JMeter ")).toEqual(["jmeter-csv", "jmeter-xml"]);
    expect(resolveFormatName("hey-csv")).toEqual(["hey-csv"]);
    expect(resolveFormatName("summary-export")).toEqual(["k6-summary"]);
    for (const name of FORMAT_NAMES) expect(resolveFormatName(name).length).toBeGreaterThan(0);
    expect(TOOL_NAMES).toEqual([
      "k6",
      "locust",
      "ghz",
      "vegeta",
      "hey",
      "wrk",
      "autocannon",
      "artillery",
      "jmeter",
      "go",
      "benchmarkjs",
      "hyperfine",
      "vitest",
      "pytest-benchmark",
      "google-benchmark",
      "jmh",
      "criterion",
      "benchmarkdotnet",
      "valgrind",
      "github-action-benchmark",
      "bencher",
      "benchtrack",
    ]);
    expect(resolveFormatName("valgrind")).toEqual(["cachegrind", "callgrind"]);
    // github-action-benchmark's own `tool:` names, in its camel case.
    expect(resolveFormatName("customBiggerIsBetter")).toEqual(["custom-bigger-is-better"]);
    expect(resolveFormatName("customSmallerIsBetter")).toEqual(["custom-smaller-is-better"]);
    expect(resolveFormatName("bmf")).toEqual(["bencher-bmf"]);
    expect(resolveFormatName("iai-callgrind")).toEqual(["callgrind"]);
  });

  it("refuses an unknown name with a 400 naming the parameter and the accepted names", () => {
    const error = errorOf(() => resolveFormatName("gatling"));
    expect(error.code).toBe("malformed");
    expect(error.details).toEqual([{ path: "query.format", message: expect.stringContaining("vegeta") as string }]);
    expect(error.message).toContain("/docs/api");
  });

  it("is the format table of docs/uploading.md, row for row (print formatTableMarkdown() and paste it when a format changes)", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../../docs/uploading.md"), "utf8");
    expect(readme).toContain(formatTableMarkdown());
  });
});

describe("rawDownloadOf", () => {
  it("names a body upload by run and format with the format's extension, typed by it", () => {
    expect(rawDownloadOf("k6-summary", "run1", null)).toEqual({ name: "run1-k6-summary.json", contentType: "application/json" });
    expect(rawDownloadOf("k6-ndjson", "run1", null)).toEqual({ name: "run1-k6-ndjson.ndjson", contentType: "application/x-ndjson" });
    expect(rawDownloadOf("jmeter-csv", "run1", null)).toEqual({ name: "run1-jmeter-csv.csv", contentType: "text/csv; charset=utf-8" });
    expect(rawDownloadOf("go-bench-text", "run1", null)).toEqual({ name: "run1-go-bench-text.txt", contentType: "text/plain; charset=utf-8" });
  });

  it("keeps a file's own name (its path and unsafe characters dropped), adding the extension only when it has none", () => {
    expect(rawDownloadOf("locust-csv", "run1", "locust_stats.csv").name).toBe("locust_stats.csv");
    expect(rawDownloadOf("ghz", "run1", "reports/Get Listing.json").name).toBe("Get_Listing.json");
    expect(rawDownloadOf("ghz", "run1", 'a"b').name).toBe("a_b.json");
  });

  it("never types a download as a page a browser would render, and names an unknown format's file .txt", () => {
    expect(rawDownloadOf("locust-html", "run1", null)).toEqual({ name: "run1-locust-html.html", contentType: "text/plain; charset=utf-8" });
    expect(rawDownloadOf("locust-html", "run1", "report.HTML").contentType).toBe("text/plain; charset=utf-8");
    expect(rawDownloadOf("retired-format", "run1", null).name).toBe("run1-retired-format.txt");
  });

  it("gives every format an extension", () => {
    for (const format of formatsInOrder()) expect(format.extension, format.id).toMatch(/^\.[a-z]+$/);
  });
});
