import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_IDS } from "../run";
import { FORMAT_NAMES, FORMATS, formatsInOrder, formatTableMarkdown, resolveFormatName, TOOL_NAMES } from "./formats";
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
      "benchtrack",
    ]);
    expect(resolveFormatName("valgrind")).toEqual(["cachegrind", "callgrind"]);
    expect(resolveFormatName("iai-callgrind")).toEqual(["callgrind"]);
  });

  it("refuses an unknown name with a 400 naming the parameter and the accepted names", () => {
    const error = errorOf(() => resolveFormatName("gatling"));
    expect(error.code).toBe("malformed");
    expect(error.details).toEqual([{ path: "query.format", message: expect.stringContaining("vegeta") as string }]);
    expect(error.message).toContain("/docs/api");
  });

  it("is the README's format table, row for row (print formatTableMarkdown() and paste it when a format changes)", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../../README.md"), "utf8");
    expect(readme).toContain(formatTableMarkdown());
  });
});
