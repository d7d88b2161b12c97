import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { VEGETA_BASELINE } from "../fixtures/vegeta-report-view";
import type { DetectedFile } from "../uploaded-file";
import { parseVegetaHist } from "./vegeta-hist";
import { parseVegetaJson } from "./vegeta-json";
import { parseVegetaSet } from "./vegeta-set";

describe("one vegeta attack's reports sent together", () => {
  const jsonText = readFixture(`${VEGETA_BASELINE}/report.json`);
  const reportFile: DetectedFile = {
    name: "report.json",
    text: jsonText,
    format: "vegeta-json",
    document: JSON.parse(jsonText),
  };
  const textFile: DetectedFile = {
    name: "report.txt",
    text: readFixture(`${VEGETA_BASELINE}/report.txt`),
    format: "vegeta-text",
  };
  const histFile: DetectedFile = {
    name: "report-hist.txt",
    text: readFixture(`${VEGETA_BASELINE}/report-hist.txt`),
    format: "vegeta-hist",
  };

  it("puts the histogram on the JSON or text report's aggregate", () => {
    const run = parseVegetaSet([histFile, reportFile]);
    const json = parseVegetaJson(reportFile.document);
    const hist = parseVegetaHist(histFile.text, "report-hist.txt");
    expect(run.format).toBe("vegeta-json");
    expect(run.aggregate.histogram).toEqual(hist.aggregate.histogram);
    expect({ ...run, aggregate: { ...run.aggregate, histogram: null } }).toEqual(json);
    expect(parseVegetaSet([textFile, histFile]).format).toBe("vegeta-text");
    expect(parseVegetaSet([histFile])).toEqual(hist);
    expect(parseVegetaSet([reportFile])).toEqual(json);
  });

  it("refuses two reports, two histograms, or a histogram of another attack", () => {
    const two = errorOf(() => parseVegetaSet([reportFile, textFile]));
    expect(two.code).toBe("malformed");
    expect(two.details.map((d) => d.path)).toEqual(["report.json", "report.txt"]);
    expect(
      errorOf(() => parseVegetaSet([histFile, { ...histFile, name: "b.txt" }])).details.map((d) => d.path),
    ).toEqual(["report-hist.txt", "b.txt"]);
    const otherAttack = {
      ...histFile,
      text: [
        "Bucket  #  %  Histogram",
        "[0s, 2ms]  24  2.00%",
        "[2ms, 5ms]  375  31.22%",
        "[5ms, 10ms]  423  35.22%",
        "[10ms, 20ms]  291  24.23%",
        "[20ms, 50ms]  88  7.33%",
        "[50ms, +Inf]  0  0.00%",
      ].join("\n"),
    };
    const mismatch = errorOf(() => parseVegetaSet([reportFile, otherAttack]));
    expect(mismatch.message).toContain("1201");
    expect(mismatch.details.map((d) => d.path)).toEqual(["report-hist.txt", "report.json"]);
  });

  it("names the file and JSON path of a wrong type", () => {
    const document = { ...(reportFile.document as Record<string, unknown>), requests: "1200" };
    const error = errorOf(() => parseVegetaSet([{ ...reportFile, document }]));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("report.json: requests");
    expect(errorOf(() => parseVegetaJson(document)).details[0]?.path).toBe("requests");
  });
});
