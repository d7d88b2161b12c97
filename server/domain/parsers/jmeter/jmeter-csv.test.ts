import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { CSV_COLUMNS, expectRunOf, SAMPLES, TRANSACTION, writeCsv } from "../fixtures/jtl-samples";
import { parseJmeterCsv } from "./jmeter-csv";

describe("JMeter JTL written in the test", () => {
  it("reads the CSV (JMeter's default columns)", () => {
    const run = parseJmeterCsv(writeCsv(SAMPLES), "results.jtl");
    expect(run.format).toBe("jmeter-csv");
    expectRunOf(run, SAMPLES);
  });

  it("finds columns by name: another order, a subset, a tab delimiter", () => {
    const reordered = [
      "label",
      "success",
      "URL",
      "allThreads",
      "elapsed",
      "responseMessage",
      "failureMessage",
      "timeStamp",
      "responseCode",
    ];
    expectRunOf(parseJmeterCsv(writeCsv(SAMPLES, reordered), "results.jtl"), SAMPLES);
    expectRunOf(parseJmeterCsv(writeCsv(SAMPLES, CSV_COLUMNS, "\t"), "results.tsv"), SAMPLES);
  });

  it("builds the aggregate from transactions when they are all the file holds", () => {
    const only = SAMPLES.filter((sample) => sample.lb === TRANSACTION);
    const run = parseJmeterCsv(writeCsv(only), "tx.jtl");
    expect(run.aggregate.requests).toBe(only.length);
    expect(run.notes[0]).toMatch(/only Transaction Controller samples/);
  });

  it("reads the four required columns alone: codes unknown, transactions not recognisable", () => {
    const run = parseJmeterCsv(writeCsv(SAMPLES, ["timeStamp", "elapsed", "label", "success"]), "min.jtl");
    expect(run.aggregate.statusCodes).toBeNull();
    // Without responseMessage a Transaction Controller sample looks like any other: it is counted.
    expect(run.aggregate.requests).toBe(SAMPLES.length);
    expect(run.aggregate.failures).toBe(SAMPLES.filter((s) => !s.s).length);
    expect(run.environment.config.threads).toBeUndefined();
  });
});

describe("malformed JMeter JTL", () => {
  const csv = writeCsv(SAMPLES.slice(0, 30));
  const lines = csv.split("\n");
  const withLine = (line: number, text: string): string => lines.map((l, i) => (i === line - 1 ? text : l)).join("\n");

  it("names the CSV line with a wrong number of cells", () => {
    const error = errorOf(() => parseJmeterCsv(withLine(5, "1795339000000,12,GetListing"), "results.jtl"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("results.jtl: line 5");
  });

  it("names the CSV line with a non-numeric elapsed or success", () => {
    const cells = (lines[3] ?? "").split(",");
    expect(
      errorOf(() => parseJmeterCsv(withLine(4, ["1795339000000", "12ms", ...cells.slice(2)].join(",")), "r.jtl"))
        .details[0]?.path,
    ).toBe("r.jtl: line 4");
    const badSuccess = cells.map((cell) => (cell === "true" || cell === "false" ? "yes" : cell)).join(",");
    expect(errorOf(() => parseJmeterCsv(withLine(4, badSuccess), "r.jtl")).details[0]?.path).toBe("r.jtl: line 4");
  });

  it("refuses a formatted timeStamp, naming the line and the property to set", () => {
    const dated = (lines[2] ?? "").replace(/^\d+/, "2026/11/22 09:38:54.123");
    const error = errorOf(() => parseJmeterCsv(withLine(3, dated), "r.jtl"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("r.jtl: line 3");
    expect(error.message).toContain("jmeter.save.saveservice.timestamp_format=ms");
  });

  it("refuses a header without the required columns, or no header at all", () => {
    const noLabel = errorOf(() => parseJmeterCsv("timeStamp,elapsed,success\n1795339000000,5,true\n", "r.jtl"));
    expect(noLabel.details[0]).toEqual({ path: "r.jtl: line 1", message: "missing column label" });
    const headerless = errorOf(() => parseJmeterCsv(lines.slice(1).join("\n"), "r.jtl"));
    expect(headerless.message).toContain("print_field_names=true");
  });

  it("refuses aggregated (statistical mode) rows", () => {
    const text =
      "timeStamp,elapsed,label,success,SampleCount,ErrorCount\n1795339000000,5,a,true,1,0\n1795339000100,9,a,true,12,0\n";
    expect(errorOf(() => parseJmeterCsv(text, "r.jtl")).details[0]?.path).toBe("r.jtl: line 3");
  });

  it("refuses more labels than endpoints allow, early, as too large", () => {
    const rows = Array.from({ length: 1_001 }, (_, i) => `${1_795_339_000_000 + i},5,label-${i},true`);
    const error = errorOf(() => parseJmeterCsv(["timeStamp,elapsed,label,success", ...rows].join("\n"), "r.jtl"));
    expect(error.code).toBe("too_large");
    expect(error.details[0]?.path).toBe("r.jtl: line 1002");
  });
});
