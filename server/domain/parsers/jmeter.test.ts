/**
 * No real JMeter output exists in the fixtures (JMeter 2.13 could not run there), so these tests write JTL
 * files themselves, from JMeter's documented layouts (user manual "Listeners": CSV Log format, XML Log
 * format 2.1, Sample Attributes), with seeded random samples, and check the parsed run against numbers
 * computed here independently.
 */
import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME, type ParsedRun } from "../run";
import { createSeededRandom } from "../stats/random";
import { errorOf } from "./fixtures/input-error-of";
import { parseJmeterCsv, parseJmeterXml } from "./jmeter";

interface Sample {
  ts: number;
  t: number;
  lb: string;
  rc: string;
  rm: string;
  s: boolean;
  failureMessage: string;
  url: string;
  http: boolean;
  na: number;
  /** XML only: nested sub-samples (embedded resources), which must not be counted. */
  children: number;
}

const TRANSACTION = "Checkout";
const CSV_COLUMNS = [
  "timeStamp",
  "elapsed",
  "label",
  "responseCode",
  "responseMessage",
  "threadName",
  "dataType",
  "success",
  "failureMessage",
  "bytes",
  "sentBytes",
  "grpThreads",
  "allThreads",
  "URL",
  "Latency",
  "IdleTime",
  "Connect",
];

/** Samples of three samplers (two HTTP, one not) and a Transaction Controller over two of them. */
function generateSamples(
  seed: number,
  labels: { get: string; search: string; compute: string },
  count: number,
): Sample[] {
  const random = createSeededRandom(seed);
  const samples: Sample[] = [];
  let ts = 1_795_339_000_000 + random.integer(1000);
  for (let i = 0; i < count; i++) {
    ts += random.integer(40);
    const na = Math.min(10, 1 + Math.floor(i / 20));
    const kind = random.integer(3);
    const t = Math.max(0, Math.round(random.gaussian(kind === 2 ? 5 : 40, kind === 2 ? 2 : 15)));
    const failed = random.uniform() < 0.06;
    const base = { ts, t, s: !failed, na, children: 0 };
    if (kind === 0) {
      const url = `http://127.0.0.1:18080/api/listings/${1 + random.integer(5000)}`;
      samples.push({
        ...base,
        lb: labels.get,
        url,
        http: true,
        rc: failed ? "500" : "200",
        rm: failed ? "Internal Server Error" : "OK",
        failureMessage: failed && random.uniform() < 0.5 ? "Test failed: code expected to equal /200/, got 500" : "",
        children: random.integer(3),
      });
    } else if (kind === 1) {
      samples.push({
        ...base,
        lb: labels.search,
        url: "https://127.0.0.1:18443/api/search?q=vintage+lamp&limit=10",
        http: true,
        rc: failed ? "Non HTTP response code: java.net.ConnectException" : "200",
        rm: failed ? "Non HTTP response message: Connection refused" : "OK",
        failureMessage: "",
      });
    } else {
      samples.push({
        ...base,
        lb: labels.compute,
        url: "",
        http: false,
        rc: failed ? "500" : "200",
        rm: failed ? "script error" : "OK",
        failureMessage: failed ? 'JSR223 assertion: total < 0, "quoted" & <odd>' : "",
      });
    }
    if (i % 10 === 9) {
      const last = samples.slice(-2);
      const failing = last.filter((sample) => !sample.s).length;
      samples.push({
        ts: last[0]?.ts ?? ts,
        t: last.reduce((sum, sample) => sum + sample.t, 0),
        lb: TRANSACTION,
        url: "",
        http: false,
        na,
        s: failing === 0,
        rc: failing === 0 ? "200" : "500",
        rm: `Number of samples in transaction : 2, number of failing samples : ${failing}`,
        failureMessage: "",
        children: 0,
      });
    }
  }
  return samples;
}

function csvCell(value: string, delimiter: string): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function cellsOf(sample: Sample): Record<string, string> {
  return {
    timeStamp: String(sample.ts),
    elapsed: String(sample.t),
    label: sample.lb,
    responseCode: sample.rc,
    responseMessage: sample.rm,
    threadName: "Thread Group 1-1",
    dataType: sample.http ? "text" : "",
    success: String(sample.s),
    failureMessage: sample.failureMessage,
    bytes: "512",
    sentBytes: "128",
    grpThreads: String(sample.na),
    allThreads: String(sample.na),
    URL: sample.url === "" ? "null" : sample.url,
    Latency: String(Math.floor(sample.t / 2)),
    IdleTime: "0",
    Connect: "1",
  };
}

function writeCsv(samples: readonly Sample[], columns = CSV_COLUMNS, delimiter = ","): string {
  const rows = samples.map((sample) =>
    columns.map((column) => csvCell(cellsOf(sample)[column] ?? "", delimiter)).join(delimiter),
  );
  return [columns.join(delimiter), ...rows, ""].join("\n");
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function writeXml(samples: readonly Sample[]): string {
  const element = (sample: Sample, indent: string): string => {
    const name = sample.http ? "httpSample" : "sample";
    const open = `${indent}<${name} t="${sample.t}" it="0" lt="${Math.floor(sample.t / 2)}" ct="1" ts="${sample.ts}" s="${sample.s}" lb="${xmlEscape(sample.lb)}" rc="${xmlEscape(sample.rc)}" rm="${xmlEscape(sample.rm)}" tn="Thread Group 1-1" dt="text" by="512" sby="128" ng="${sample.na}" na="${sample.na}"`;
    const body: string[] = [];
    if (!sample.s)
      body.push(
        `${indent}  <assertionResult>\n${indent}    <name>Duration</name>\n${indent}    <failure>false</failure>\n${indent}    <error>false</error>\n${indent}  </assertionResult>`,
      );
    if (sample.failureMessage !== "") {
      body.push(
        `${indent}  <assertionResult>\n${indent}    <name>Response Assertion</name>\n${indent}    <failure>true</failure>\n${indent}    <error>false</error>\n${indent}    <failureMessage>${xmlEscape(sample.failureMessage)}</failureMessage>\n${indent}  </assertionResult>`,
      );
    }
    for (let c = 0; c < sample.children; c++) {
      const child = {
        ...sample,
        lb: `${sample.url}/asset-${c}.css`,
        t: 3,
        s: false,
        failureMessage: "sub-sample failure",
        url: `${sample.url}/asset-${c}.css`,
        children: 0,
      };
      body.push(element(child, `${indent}  `));
    }
    if (sample.url !== "") body.push(`${indent}  <java.net.URL>${xmlEscape(sample.url)}</java.net.URL>`);
    return body.length === 0 ? `${open}/>` : `${open}>\n${body.join("\n")}\n${indent}</${name}>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">\n${samples.map((s) => element(s, "")).join("\n")}\n\n</testResults>\n`;
}

/** Linear interpolation between ranks, rank = p/100 × (n − 1), written out again here. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = sorted[Math.floor(rank)] ?? Number.NaN;
  const high = sorted[Math.ceil(rank)] ?? Number.NaN;
  return low + (high - low) * (rank - Math.floor(rank));
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function expectSamplesOf(
  result: ParsedRun["aggregate"] | undefined,
  samples: readonly Sample[],
  spanSeconds: number,
): void {
  const elapsed = samples.map((sample) => sample.t);
  const failed = samples.filter((sample) => !sample.s);
  expect(result?.requests).toBe(samples.length);
  expect(result?.failures).toBe(failed.length);
  expect(result?.throughput).toBeCloseTo(samples.length / spanSeconds, 9);
  for (const p of [50, 90, 95, 99, 99.9])
    expect(result?.latency.percentiles[String(p)]).toBeCloseTo(percentile(elapsed, p), 9);
  expect(result?.latency.minMs).toBe(Math.min(...elapsed));
  expect(result?.latency.maxMs).toBe(Math.max(...elapsed));
  expect(result?.latency.meanMs).toBeCloseTo(elapsed.reduce((a, b) => a + b, 0) / elapsed.length, 9);
  expect(result?.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(samples.length);
  expect(result?.statusCodes).toEqual(countBy(samples.map((sample) => sample.rc)));
  expect(result?.errors).toEqual(countBy(failed.map((sample) => sample.failureMessage || sample.rm)));
}

function expectRunOf(run: ParsedRun, samples: readonly Sample[]): void {
  const start = Math.min(...samples.map((s) => s.ts));
  const spanSeconds = (Math.max(...samples.map((s) => s.ts + s.t)) - start) / 1000;
  const labels = [...new Set(samples.map((sample) => sample.lb))];
  expect(run.tool).toBe("jmeter");
  expect(run.startedAt).toBe(new Date(start).toISOString());
  expect(run.durationSeconds).toBeCloseTo(spanSeconds, 9);
  expect(run.environment.config).toMatchObject({ threads: Math.max(...samples.map((s) => s.na)) });
  expect(run.environment.config.vus_max).toBeUndefined(); // measured, so never a load-profile key
  expect(run.endpoints.map((e) => e.name)).toEqual(labels);
  for (const label of labels) {
    const mine = samples.filter((sample) => sample.lb === label);
    const endpoint = run.endpoints.find((e) => e.name === label);
    expectSamplesOf(endpoint, mine, spanSeconds);
    const urls = new Set(mine.map((sample) => sample.url));
    expect(endpoint?.fullName).toBe(urls.size === 1 && mine[0]?.url !== "" ? mine[0]?.url : null);
    expect(endpoint?.protocol).toBe(mine.every((sample) => sample.http) ? "http" : null);
  }
  // The aggregate leaves the Transaction Controller out: its time is its samplers' time.
  expect(run.aggregate.name).toBe(AGGREGATE_NAME);
  expectSamplesOf(
    run.aggregate,
    samples.filter((sample) => sample.lb !== TRANSACTION),
    spanSeconds,
  );
  expect(run.notes.some((note) => note.includes(TRANSACTION) && note.includes("left out"))).toBe(
    labels.includes(TRANSACTION),
  );
}

const LABELS = { get: "GET /api/listings/:id", search: "Search listings", compute: "Compute total" };
const SAMPLES = generateSamples(42, LABELS, 600);

describe("JMeter JTL written in the test", () => {
  it("reads the CSV (JMeter's default columns)", () => {
    const run = parseJmeterCsv(writeCsv(SAMPLES), "results.jtl");
    expect(run.format).toBe("jmeter-csv");
    expectRunOf(run, SAMPLES);
  });

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

  it("reads other labels and numbers the same way (another seed, no transaction)", () => {
    const other = generateSamples(7, { get: "listing", search: "search", compute: "sum" }, 250).filter(
      (s) => s.lb !== TRANSACTION,
    );
    expectRunOf(parseJmeterCsv(writeCsv(other), "other.csv"), other);
    expectRunOf(parseJmeterXml(writeXml(other), "other.xml"), other);
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

  it("refuses more labels than endpoints allow, early, as too large", () => {
    const rows = Array.from({ length: 1_001 }, (_, i) => `${1_795_339_000_000 + i},5,label-${i},true`);
    const error = errorOf(() => parseJmeterCsv(["timeStamp,elapsed,label,success", ...rows].join("\n"), "r.jtl"));
    expect(error.code).toBe("too_large");
    expect(error.details[0]?.path).toBe("r.jtl: line 1002");
  });
});
