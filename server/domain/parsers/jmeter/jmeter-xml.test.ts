import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { expectRunOf, generateSamples, SAMPLES, TRANSACTION, writeCsv, writeXml } from "../fixtures/jtl-samples";
import { parseJmeterCsv } from "./jmeter-csv";
import { parseJmeterXml } from "./jmeter-xml";

describe("JMeter JTL written in the test", () => {
  it("reads the XML, not counting nested sub-samples", () => {
    const run = parseJmeterXml(writeXml(SAMPLES), "results.jtl");
    expect(run.format).toBe("jmeter-xml");
    expectRunOf(run, SAMPLES);
    const nested = SAMPLES.reduce((sum, sample) => sum + sample.children, 0);
    expect(nested).toBeGreaterThan(0);
    expect(run.notes).toContain(
      `${nested} nested sub-sample(s) (embedded resources, redirects or a transaction's children) were not counted: their parent sample's time already covers them.`,
    );
  });

  it("gives the same run from the same samples as CSV and as XML", () => {
    const { format: _csv, notes: _csvNotes, ...fromCsv } = parseJmeterCsv(writeCsv(SAMPLES), "results.jtl");
    const { format: _xml, notes: _xmlNotes, ...fromXml } = parseJmeterXml(writeXml(SAMPLES), "results.jtl");
    expect(fromXml).toEqual(fromCsv);
  });

  it("reads other labels and numbers the same way (another seed, no transaction)", () => {
    const other = generateSamples(7, { get: "listing", search: "search", compute: "sum" }, 250).filter(
      (s) => s.lb !== TRANSACTION,
    );
    expectRunOf(parseJmeterCsv(writeCsv(other), "other.csv"), other);
    expectRunOf(parseJmeterXml(writeXml(other), "other.xml"), other);
  });
});

describe("malformed JMeter JTL", () => {
  it("names the XML line of a syntax error, a truncated file, or a sample missing an attribute", () => {
    const xml = writeXml(SAMPLES.slice(0, 30)).split("\n");
    const broken = xml.map((line, i) => (i === 6 ? line.replace(/ s="/, ' s="tr"ue" ') : line)).join("\n");
    const syntax = errorOf(() => parseJmeterXml(broken, "r.xml"));
    expect(syntax.code).toBe("malformed");
    expect(syntax.details[0]?.path).toBe("r.xml: line 7");
    const truncated = xml.slice(0, 12).join("\n");
    const cut = errorOf(() => parseJmeterXml(truncated, "r.xml"));
    expect(cut.code).toBe("malformed");
    expect(cut.details[0]?.path).toBe("r.xml: line 12");
    const sampleLine = xml.findIndex((line, i) => i > 4 && /^<(httpSample|sample) /.test(line));
    const noTs = xml.map((line, i) => (i === sampleLine ? line.replace(/ ts="\d+"/, "") : line)).join("\n");
    expect(errorOf(() => parseJmeterXml(noTs, "r.xml")).details[0]?.path).toBe(`r.xml: line ${sampleLine + 1}`);
  });

  it("refuses XML that is not a JTL", () => {
    expect(errorOf(() => parseJmeterXml('<?xml version="1.0"?>\n<html><body/></html>', "r.xml")).details[0]?.path).toBe(
      "r.xml: line 2",
    );
    expect(errorOf(() => parseJmeterXml("", "r.xml")).code).toBe("malformed");
  });
});
