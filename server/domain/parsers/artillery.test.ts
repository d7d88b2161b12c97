import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "../run";
import { artilleryReportSchema, parseArtilleryConsole, parseArtilleryJson, parseArtillerySet } from "./artillery";
import { errorOf } from "./fixtures/input-error-of";
import { readFixture, readFixtureJson } from "./fixtures/read-fixture";
import type { DetectedFile } from "./uploaded-file";

interface Period {
  counters: Record<string, number>;
  summaries: Record<string, Record<string, number>>;
  rates: Record<string, number>;
  firstMetricAt: number;
  lastMetricAt: number;
  period: number | string;
}
interface Report {
  aggregate: Period;
  intermediate: Period[];
}

const PLUGIN = "plugins.metrics-by-endpoint.";
const reportOf = (variant: string): Report => readFixtureJson(`artillery/${variant}/round1/report.json`) as Report;
const CONSOLE_FILE = "artillery-console.txt";
const consoleText = readFixture(`artillery/baseline/round1/${CONSOLE_FILE}`);
const sumOf = (values: number[]): number => values.reduce((a, b) => a + b, 0);
/** Counters under a prefix, keyed by what follows it (`http.codes.` → {"200": …}). */
const countersUnder = (counters: Record<string, number>, prefix: string): Record<string, number> =>
  Object.fromEntries(
    Object.entries(counters)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );
const failuresOf = (codes: Record<string, number>, errors: Record<string, number>): number =>
  sumOf(
    Object.entries(codes)
      .filter(([code]) => Number(code) >= 400)
      .map(([, n]) => n),
  ) + sumOf(Object.values(errors));

describe.each(["baseline", "managedasync"])("artillery report.json of %s", (variant) => {
  const report = reportOf(variant);
  const run = parseArtilleryJson(report);
  const { aggregate } = report;
  const spanSeconds = (aggregate.lastMetricAt - aggregate.firstMetricAt) / 1000;
  const names = Object.keys(aggregate.summaries)
    .filter((k) => k.startsWith(`${PLUGIN}response_time.`))
    .map((k) => k.slice(`${PLUGIN}response_time.`.length));

  it("reads the aggregate from http.* and errors.*", () => {
    expect(run.format).toBe("artillery-json");
    expect(run.tool).toBe("artillery");
    const codes = countersUnder(aggregate.counters, "http.codes.");
    const errors = countersUnder(aggregate.counters, "errors.");
    expect(run.aggregate.name).toBe(AGGREGATE_NAME);
    expect(run.aggregate.protocol).toBe("http");
    expect(run.aggregate.requests).toBe(aggregate.counters["http.requests"]);
    expect(run.aggregate.failures).toBe(failuresOf(codes, errors));
    expect(run.aggregate.failures).toBeGreaterThan(0); // each run had injected 500s
    expect(run.aggregate.statusCodes).toEqual(codes);
    expect(run.aggregate.errors).toEqual(errors);
    expect(run.aggregate.throughput).toBeCloseTo((aggregate.counters["http.requests"] ?? 0) / spanSeconds, 9);
    const summary = aggregate.summaries["http.response_time"] ?? {};
    expect(run.aggregate.latency).toEqual({
      minMs: summary.min,
      meanMs: summary.mean,
      maxMs: summary.max,
      stdDevMs: null,
      percentiles: {
        "50": summary.p50,
        "75": summary.p75,
        "90": summary.p90,
        "95": summary.p95,
        "99": summary.p99,
        "99.9": summary.p999,
      },
    });
    expect(run.startedAt).toBe(new Date(aggregate.firstMetricAt).toISOString());
    expect(run.durationSeconds).toBe(spanSeconds);
    expect(run.environment.config).toEqual({ protocol: "http" });
  });

  it("reads one endpoint per metrics-by-endpoint summary", () => {
    expect(run.endpoints.map((e) => e.name)).toEqual(names);
    expect(names).toHaveLength(5);
    for (const endpoint of run.endpoints) {
      const summary = aggregate.summaries[`${PLUGIN}response_time.${endpoint.name}`] ?? {};
      const codes = countersUnder(aggregate.counters, `${PLUGIN}${endpoint.name}.codes.`);
      const errors = countersUnder(aggregate.counters, `${PLUGIN}${endpoint.name}.errors.`);
      expect(endpoint.protocol).toBe("http");
      expect(endpoint.method).toBeNull();
      expect(endpoint.requests).toBe((summary.count ?? 0) + sumOf(Object.values(errors)));
      expect(endpoint.requests).toBe(sumOf(Object.values(codes))); // no errors in these runs: every request answered
      expect(endpoint.failures).toBe(failuresOf(codes, errors));
      expect(endpoint.statusCodes).toEqual(codes);
      expect(endpoint.throughput).toBeCloseTo((endpoint.requests ?? 0) / spanSeconds, 9);
      expect(endpoint.latency.minMs).toBe(summary.min);
      expect(endpoint.latency.maxMs).toBe(summary.max);
      expect(endpoint.latency.meanMs).toBe(summary.mean);
      expect(endpoint.latency.percentiles).toEqual({
        "50": summary.p50,
        "75": summary.p75,
        "90": summary.p90,
        "95": summary.p95,
        "99": summary.p99,
        "99.9": summary.p999,
      });
    }
    expect(sumOf(run.endpoints.map((e) => e.requests ?? 0))).toBe(run.aggregate.requests);
    expect(sumOf(run.endpoints.map((e) => e.failures ?? 0))).toBe(run.aggregate.failures);
  });

  it("turns each intermediate period into a timeline point", () => {
    const periods = report.intermediate;
    const timelines = [run.aggregate.timeline, ...run.endpoints.map((e) => e.timeline)];
    for (const timeline of timelines) expect(timeline).toHaveLength(periods.length);
    periods.forEach((period, index) => {
      const start = Math.max(Number(period.period), aggregate.firstMetricAt);
      const end = Math.min(Number(period.period) + 10_000, aggregate.lastMetricAt);
      const point = run.aggregate.timeline?.[index];
      const summary = period.summaries["http.response_time"] ?? {};
      expect(point?.atMs).toBe(end);
      expect((point?.requestsPerSecond ?? 0) * ((end - start) / 1000)).toBeCloseTo(
        period.counters["http.requests"] ?? 0,
        9,
      );
      expect((point?.failuresPerSecond ?? 0) * ((end - start) / 1000)).toBeCloseTo(
        failuresOf(countersUnder(period.counters, "http.codes."), {}),
        9,
      );
      expect(point?.p50Ms).toBe(summary.p50);
      expect(point?.p95Ms).toBe(summary.p95);
      expect(point?.users).toBeNull(); // artillery reports arrivals, not concurrent users
      for (const endpoint of run.endpoints) {
        const own = endpoint.timeline?.[index];
        const endpointSummary = period.summaries[`${PLUGIN}response_time.${endpoint.name}`];
        expect((own?.requestsPerSecond ?? 0) * ((end - start) / 1000)).toBeCloseTo(endpointSummary?.count ?? 0, 9);
        expect(own?.p95Ms).toBe(endpointSummary?.p95 ?? null);
      }
    });
    // Full windows are 10 s; the first and last are cut by the run's start and end.
    expect(run.aggregate.timeline?.at(-1)?.atMs).toBe(aggregate.lastMetricAt);
  });

  it("keeps the vusers counts and session length as run metrics", () => {
    expect(run.metrics).toEqual({
      "vusers.created": { value: aggregate.counters["vusers.created"], unit: "vusers", better: null },
      "vusers.completed": { value: aggregate.counters["vusers.completed"], unit: "vusers", better: null },
      "vusers.failed": { value: aggregate.counters["vusers.failed"], unit: "vusers", better: "lower" },
      "vusers.session_length mean": {
        value: aggregate.summaries["vusers.session_length"]?.mean,
        unit: "ms",
        better: null,
      },
    });
    expect(run.thresholds).toEqual([]); // ensure's results are in the console only
    expect(run.notes).toEqual([]);
  });
});

describe("artillery report.json, beyond the fixtures", () => {
  it("reads other names, errors and codes the same way", () => {
    const report = structuredClone(reportOf("baseline"));
    const { counters, summaries } = report.aggregate;
    // Rename GetListing to a path-style name with dots and spaces, as the plugin writes without useOnlyRequestNames.
    const renamed = "/api/v1.2/listings/42 (Get one)";
    for (const key of Object.keys(counters).filter((k) => k.includes(".GetListing."))) {
      counters[key.replace(".GetListing.", `.${renamed}.`)] = counters[key] ?? 0;
      delete counters[key];
    }
    summaries[`${PLUGIN}response_time.${renamed}`] = summaries[`${PLUGIN}response_time.GetListing`] ?? {};
    delete summaries[`${PLUGIN}response_time.GetListing`];
    Object.assign(counters, {
      [`${PLUGIN}${renamed}.errors.ETIMEDOUT`]: 3,
      [`${PLUGIN}${renamed}.codes.404`]: 2,
      [`${PLUGIN}OnlyErrors.errors.ECONNREFUSED`]: 4,
      "errors.ETIMEDOUT": 3,
      "errors.ECONNREFUSED": 4,
      "http.codes.404": 2,
      "http.requests": (counters["http.requests"] ?? 0) + 7,
    });
    const run = parseArtilleryJson(report);
    const endpoint = run.endpoints.find((e) => e.name === renamed);
    const summary = summaries[`${PLUGIN}response_time.${renamed}`] ?? {};
    expect(endpoint?.requests).toBe((summary.count ?? 0) + 3);
    expect(endpoint?.failures).toBe(3 + 2);
    expect(endpoint?.errors).toEqual({ ETIMEDOUT: 3 });
    expect(endpoint?.statusCodes).toMatchObject({ "404": 2 });
    const onlyErrors = run.endpoints.find((e) => e.name === "OnlyErrors");
    expect(onlyErrors).toMatchObject({ requests: 4, failures: 4, errors: { ECONNREFUSED: 4 }, statusCodes: {} });
    expect(onlyErrors?.latency.percentiles).toEqual({});
    expect(run.aggregate.requests).toBe(607);
    expect(run.aggregate.failures).toBe(1 + 2 + 3 + 4);
    expect(run.notes.join(" ")).toContain("7 error(s) (ETIMEDOUT ×3, ECONNREFUSED ×4)");
  });

  it("counts requests that all failed to connect", () => {
    const report = structuredClone(reportOf("baseline"));
    report.aggregate.counters = { "errors.ECONNREFUSED": 12, "vusers.created": 12, "vusers.failed": 12 };
    report.aggregate.summaries = {};
    const run = parseArtilleryJson(report);
    expect(run.aggregate).toMatchObject({ requests: 12, failures: 12, errors: { ECONNREFUSED: 12 }, statusCodes: {} });
    expect(run.aggregate.latency.minMs).toBeNull();
    expect(run.metrics["vusers.failed"]).toEqual({ value: 12, unit: "vusers", better: "lower" });
  });

  it("never counts more failures than requests: a failed capture falls on a response already counted as 404", () => {
    const report = structuredClone(reportOf("baseline"));
    report.aggregate.counters = { "http.requests": 10, "http.codes.404": 10, "errors.Failed capture or match": 10 };
    report.aggregate.summaries = {};
    report.intermediate = [];
    const run = parseArtilleryJson(report);
    expect(run.aggregate).toMatchObject({ requests: 10, failures: 10 });
    expect(run.notes.join(" ")).toContain("All endpoints: artillery counted 20 failures");
  });

  it("keeps the aggregate only when the plugin is off", () => {
    const report = structuredClone(reportOf("baseline"));
    for (const period of [report.aggregate, ...report.intermediate]) {
      for (const key of Object.keys(period.counters)) if (key.startsWith(PLUGIN)) delete period.counters[key];
      for (const key of Object.keys(period.summaries)) if (key.startsWith(PLUGIN)) delete period.summaries[key];
    }
    const run = parseArtilleryJson(report);
    expect(run.endpoints).toEqual([]);
    expect(run.aggregate.requests).toBe(600);
    expect(run.aggregate.timeline).toHaveLength(report.intermediate.length);
    expect(run.notes[0]).toContain("No metrics-by-endpoint data");
  });

  it.each([
    [
      "a counter that is not a number",
      (r: Report) => Object.assign(r.aggregate.counters, { "http.requests": "600" }),
      "aggregate.counters.http.requests",
    ],
    [
      "a period that is not epoch ms",
      (r: Report) => Object.assign(r.intermediate[1] ?? {}, { period: "10:00" }),
      "intermediate[1].period",
    ],
    [
      "a summary statistic of the wrong type",
      (r: Report) => Object.assign(r.aggregate.summaries["http.response_time"] ?? {}, { p95: "22.9ms" }),
      "aggregate.summaries.http.response_time.p95",
    ],
    ["no aggregate", (r: Report) => Object.assign(r, { aggregate: undefined }), "aggregate"],
  ])("refuses %s, naming its JSON path", (_what, change, path) => {
    const report = structuredClone(reportOf("baseline"));
    change(report);
    const error = errorOf(() => parseArtilleryJson(report));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toContain(path);
  });

  it("exports its wire schema", () => {
    expect(artilleryReportSchema.safeParse(reportOf("managedasync")).success).toBe(true);
  });
});

/** `change` applied to the final summary block and what follows it only (intermediate blocks repeat its lines). */
function inSummary(text: string, change: (tail: string) => string): string {
  const at = text.lastIndexOf("Summary report @");
  return text.slice(0, at) + change(text.slice(at));
}

/** An independent read of the summary block: `name: .... value` and `  stat: .... value` lines after the header. */
function summaryValue(text: string, name: string, stat?: string): number {
  const block = text.slice(text.lastIndexOf("Summary report @"));
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = stat
    ? new RegExp(`^${escaped}:\\n(?:  .*\\n)*?  ${stat}: \\.+ (\\S+)$`, "m")
    : new RegExp(`^${escaped}: \\.+ (\\S+?)(?:/sec)?$`, "m");
  return Number(pattern.exec(block)?.[1]);
}

describe("artillery console output", () => {
  const run = parseArtilleryConsole(consoleText, CONSOLE_FILE);

  it("reads the final summary block's own numbers", () => {
    expect(run.format).toBe("artillery-console");
    expect(run.aggregate.requests).toBe(600);
    expect(run.aggregate.requests).toBe(summaryValue(consoleText, "http.requests"));
    expect(run.aggregate.statusCodes).toEqual({
      "200": summaryValue(consoleText, "http.codes.200"),
      "500": summaryValue(consoleText, "http.codes.500"),
    });
    expect(run.aggregate.failures).toBe(summaryValue(consoleText, "http.codes.500"));
    // The console gives no span; artillery's http.request_rate (a mean of window rates) is a run metric.
    expect(run.aggregate.throughput).toBeNull();
    expect(run.metrics["http.request_rate"]).toEqual({ value: 48, unit: "/s", better: null });
    expect(run.aggregate.latency).toEqual({
      minMs: 1,
      meanMs: 8.7,
      maxMs: 55,
      stdDevMs: null,
      percentiles: { "50": 7, "95": 22.9, "99": 30.3 },
    });
    expect(run.startedAt).toBeNull(); // "Summary report @ 09:46:22(+0000)": a time of day only
    expect(run.durationSeconds).toBeNull();
    expect(run.aggregate.timeline).toBeNull(); // intermediate blocks are not read
  });

  it("reads every endpoint's summary and codes", () => {
    const names = [
      ...consoleText
        .slice(consoleText.lastIndexOf("Summary report @"))
        .matchAll(/^plugins\.metrics-by-endpoint\.response_time\.(.+):$/gm),
    ].map((m) => m[1]);
    expect(run.endpoints.map((e) => e.name)).toEqual(names);
    for (const endpoint of run.endpoints) {
      const timeName = `${PLUGIN}response_time.${endpoint.name}`;
      expect(endpoint.latency.minMs).toBe(summaryValue(consoleText, timeName, "min"));
      expect(endpoint.latency.maxMs).toBe(summaryValue(consoleText, timeName, "max"));
      expect(endpoint.latency.meanMs).toBe(summaryValue(consoleText, timeName, "mean"));
      expect(endpoint.latency.percentiles).toEqual({
        "50": summaryValue(consoleText, timeName, "median"),
        "95": summaryValue(consoleText, timeName, "p95"),
        "99": summaryValue(consoleText, timeName, "p99"),
      });
      expect(endpoint.requests).toBe(120);
      expect(endpoint.throughput).toBeNull();
    }
    expect(run.endpoints.find((e) => e.name === "ListListings")).toMatchObject({
      failures: 1,
      statusCodes: { "200": 119, "500": 1 },
    });
  });

  it("agrees with report.json of the same run", () => {
    const json = parseArtilleryJson(reportOf("baseline"));
    for (const endpoint of run.endpoints) {
      const same = json.endpoints.find((e) => e.name === endpoint.name);
      expect(endpoint).toMatchObject({
        requests: same?.requests,
        failures: same?.failures,
        statusCodes: same?.statusCodes,
      });
      expect(endpoint.latency.percentiles["95"]).toBe(same?.latency.percentiles["95"]);
    }
    const { "http.request_rate": _rate, ...consoleMetrics } = run.metrics;
    expect(consoleMetrics).toEqual(json.metrics);
  });

  it("reads the ensure checks as thresholds", () => {
    expect(run.thresholds).toEqual([
      { metric: "ensure", expression: "vusers.failed == 0 and http.requests > 500", passed: true },
      { metric: "http.response_time.p95", expression: "http.response_time.p95 < 35", passed: true },
    ]);
    expect(run.notes).toEqual([]);
  });

  it("reads a failed check as not passed; an optional one as a check, which never fails CI", () => {
    const failed = consoleText
      .replace("ok: http.response_time.p95 < 35", "fail: http.response_time.p95 < 35")
      .replace("ok: vusers.failed == 0 and http.requests > 500", "fail: p99 < 20 (optional)");
    const run = parseArtilleryConsole(failed, CONSOLE_FILE);
    expect(run.thresholds).toEqual([{ metric: "http.response_time.p95", expression: "http.response_time.p95 < 35", passed: false }]);
    expect(run.checks).toEqual([{ name: "p99 < 20", group: "ensure (optional)", passes: 0, fails: 1 }]);
    expect(run.notes.join(" ")).toContain("1 failed ensure check(s) are optional");
  });

  it("is not misled by colours, CRLF, or summary lines repeated after the checks", () => {
    const summaryBlock = consoleText.slice(consoleText.lastIndexOf("http.codes.200"), consoleText.indexOf("Log file:"));
    const noisy = `${consoleText}${summaryBlock.replace("599", "1")}`
      .replace("ok: http", "\u001b[32mok\u001b[39m: http")
      .replaceAll("\n", "\r\n");
    const reread = parseArtilleryConsole(noisy, CONSOLE_FILE);
    expect(reread.thresholds).toEqual(run.thresholds);
    expect(reread.aggregate).toEqual(run.aggregate);
    expect(reread.endpoints).toEqual(run.endpoints);
  });

  it("reads a summary of other endpoints and counts the same way (and skips cut names)", () => {
    const longName = `${PLUGIN}${"x".repeat(60)}.codes.200:`;
    const cut = `${longName.slice(0, 76)}... .. 5`;
    const variant = inSummary(consoleText, (tail) =>
      tail
        .replaceAll("SearchListings", "Search.v2 (by text)")
        .replace(
          "http.codes.500: ................................................................ 1",
          `http.codes.500: ...... 1\nhttp.codes.404: ...... 9\n${cut}`,
        )
        .replace(/^(http\.requests: \.+ )600$/m, "$1609"),
    );
    const reread = parseArtilleryConsole(variant, CONSOLE_FILE);
    expect(reread.endpoints.map((e) => e.name)).toContain("Search.v2 (by text)");
    expect(reread.aggregate).toMatchObject({
      requests: 609,
      failures: 10,
      statusCodes: { "200": 599, "500": 1, "404": 9 },
    });
    expect(reread.notes.join(" ")).toContain("1 metric name(s) longer than 79 characters");
  });

  it.each([
    [
      "a counter whose value is garbled",
      (t: string) => inSummary(t, (s) => s.replace(/^(http\.codes\.500: \.+ )1$/m, "$11x")),
      /^http\.codes\.500: \.+ 1x$/m,
    ],
    [
      "a statistic that is garbled",
      (t: string) => inSummary(t, (s) => s.replace(/^( {2}p95: \.+ )22\.9$/m, "$122,9")),
      /^ {2}p95: \.+ 22,9$/m,
    ],
    [
      "a line without its colon",
      (t: string) => inSummary(t, (s) => s.replace(/^http\.requests: (\.+ 600)$/m, "http.requests $1")),
      /^http\.requests \.+ 600$/m,
    ],
    ["a check that is neither ok nor fail", (t: string) => t.replace("ok: vusers", "okay: vusers"), /^okay: vusers/m],
  ])("refuses %s, naming its line", (_what, change, locate) => {
    const text = change(consoleText);
    const lines = text.split("\n");
    const line = lines.findLastIndex((l) => locate.test(l)) + 1;
    expect(line).toBeGreaterThan(240);
    const error = errorOf(() => parseArtilleryConsole(text, CONSOLE_FILE));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`${CONSOLE_FILE}: line ${line}`);
  });

  it("refuses an output cut before its summary", () => {
    const cutShort = consoleText.slice(0, consoleText.indexOf("All VUs finished"));
    const error = errorOf(() => parseArtilleryConsole(cutShort, CONSOLE_FILE));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toMatch(/^artillery-console\.txt: line \d+$/);
  });
});

describe("artillery report.json with its console output", () => {
  const jsonFile = (variant = "baseline"): DetectedFile => ({
    name: "report.json",
    text: "",
    format: "artillery-json",
    document: reportOf(variant),
  });
  const consoleFile = (text = consoleText, name = CONSOLE_FILE): DetectedFile => ({
    name,
    text,
    format: "artillery-console",
  });

  it("takes the JSON's numbers and the console's checks", () => {
    const json = parseArtilleryJson(reportOf("baseline"));
    for (const files of [
      [jsonFile(), consoleFile()],
      [consoleFile(), jsonFile()],
    ]) {
      const run = parseArtillerySet(files);
      expect(run.format).toBe("artillery-json");
      expect(run.thresholds).toEqual(parseArtilleryConsole(consoleText, CONSOLE_FILE).thresholds);
      expect({ ...run, thresholds: [] }).toEqual(json);
    }
  });

  it("reads one file alone with its own parser", () => {
    expect(parseArtillerySet([jsonFile()])).toEqual(parseArtilleryJson(reportOf("baseline")));
    expect(parseArtillerySet([consoleFile()])).toEqual(parseArtilleryConsole(consoleText, CONSOLE_FILE));
  });

  it.each([
    [
      "two JSON reports",
      () => [jsonFile(), { ...jsonFile("managedasync"), name: "other.json" }],
      ["report.json", "other.json"],
    ],
    [
      "two console outputs",
      () => [consoleFile(), consoleFile(consoleText, "again.txt"), jsonFile()],
      [CONSOLE_FILE, "again.txt"],
    ],
    ["a console of another run", () => [jsonFile("managedasync"), consoleFile()], ["report.json", CONSOLE_FILE]],
    [
      "a console with another request count",
      () => [
        jsonFile(),
        consoleFile(inSummary(consoleText, (tail) => tail.replace(/^(http\.requests: \.+ )600$/m, "$1601"))),
      ],
      ["report.json", CONSOLE_FILE],
    ],
  ])("refuses %s, naming the files", (_what, files, paths) => {
    const error = errorOf(() => parseArtillerySet(files()));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toEqual(paths);
  });

  it("names the file in a JSON path", () => {
    const report = structuredClone(reportOf("baseline"));
    Object.assign(report.aggregate.counters, { "http.requests": null });
    const error = errorOf(() => parseArtillerySet([{ ...jsonFile(), document: report }, consoleFile()]));
    expect(error.details[0]?.path).toBe("report.json: aggregate.counters.http.requests");
  });
});
