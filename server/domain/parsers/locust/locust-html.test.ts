import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME, type EndpointResult, type ParsedRun } from "../../run";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson } from "../fixtures/read-fixture";
import { parseLocustHtml } from "./locust-html";

const REPORT = "locust/baseline/round1/report.html";
const html = readFixture(REPORT);

// The test's own reading of the data: Locust writes the object on the assignment's line (report.html line 142).
const ASSIGNMENT_LINE = /^( *)window\.templateArgs = (\{.*\})$/m;
function argsOf(text: string): any {
  const match = ASSIGNMENT_LINE.exec(text);
  if (!match?.[2]) throw new Error("no templateArgs line in the fixture");
  return JSON.parse(match[2]);
}
/** The fixture with other data in its templateArgs line. */
function reportWith(args: unknown): string {
  return html.replace(
    ASSIGNMENT_LINE,
    (_line, indent: string) => `${indent}window.templateArgs = ${JSON.stringify(args)}`,
  );
}
function resultOf(run: ParsedRun, name: string, method: string): EndpointResult | undefined {
  if (name === "Aggregated" && method === "") return run.aggregate;
  return run.endpoints.find((e) => e.name === name && (e.method ?? "") === method);
}
/** The report's percentile columns, by this test's own table ("1.0" is the maximum, not a percentile). */
const COLUMN_PERCENTILES: Record<string, string> = {
  "0.5": "50",
  "0.6": "60",
  "0.7": "70",
  "0.8": "80",
  "0.9": "90",
  "0.95": "95",
  "0.99": "99",
};

describe("Locust HTML report (baseline round 1)", () => {
  const args = argsOf(html);
  const run = parseLocustHtml(html, "report.html");

  it("reads every requests_statistics entry, the last one (Aggregated) as the aggregate", () => {
    expect(run.format).toBe("locust-html");
    expect(run.tool).toBe("locust");
    expect(run.endpoints).toHaveLength(args.requests_statistics.length - 1);
    expect(args.requests_statistics.at(-1).name).toBe("Aggregated");
    expect(run.aggregate.name).toBe(AGGREGATE_NAME);
    for (const stats of args.requests_statistics) {
      const result = resultOf(run, stats.name, stats.method);
      expect(result?.protocol).toBe("http");
      expect(result?.method).toBe(stats.method === "" ? null : stats.method);
      expect(result?.requests).toBe(stats.num_requests);
      expect(result?.failures).toBe(stats.num_failures);
      expect(result?.throughput).toBe(stats.total_rps);
      expect(result?.latency.meanMs).toBe(stats.avg_response_time);
      expect(result?.latency.minMs).toBe(stats.min_response_time);
      expect(result?.latency.maxMs).toBe(stats.max_response_time);
      expect(result?.latency.percentiles["50"]).toBe(stats.median_response_time);
      expect(result?.latency.percentiles["95"]).toBe(stats["response_time_percentile_0.95"]);
      expect(result?.latency.percentiles["99"]).toBe(stats["response_time_percentile_0.99"]);
      expect(result?.histogram).toBeNull();
    }
  });

  it("takes every percentile column of response_time_statistics, but not 1.0 (the maximum)", () => {
    expect(args.response_time_statistics).toHaveLength(args.requests_statistics.length);
    for (const row of args.response_time_statistics) {
      const result = resultOf(run, row.name, row.method);
      const expected: Record<string, number> = {};
      for (const [column, key] of Object.entries(COLUMN_PERCENTILES)) expected[key] = row[column];
      expect(result?.latency.percentiles).toEqual(expected);
      expect(row["1.0"]).toBe(result?.latency.maxMs);
    }
  });

  it("attaches failures by message per endpoint and in total", () => {
    const total = args.failures_statistics.reduce((sum: number, f: any) => sum + f.occurrences, 0);
    expect(total).toBeGreaterThan(0);
    expect(Object.values(run.aggregate.errors ?? {}).reduce((a, b) => a + b, 0)).toBe(total);
    for (const failure of args.failures_statistics) {
      expect(resultOf(run, failure.name, failure.method)?.errors?.[failure.error]).toBe(failure.occurrences);
    }
    const failing = new Set(args.failures_statistics.map((f: any) => f.name));
    for (const endpoint of run.endpoints.filter((e) => !failing.has(e.name))) expect(endpoint.errors).toEqual({});
    expect(run.notes).toEqual([]); // exceptions_statistics is empty in this run
  });

  it("makes the history the aggregate's timeline, and takes start, end, host and peak users", () => {
    const history: any[] = args.history;
    expect(history.length).toBeGreaterThan(0);
    expect(run.aggregate.timeline).toHaveLength(history.length);
    history.forEach((entry, index) => {
      expect(run.aggregate.timeline?.[index]).toEqual({
        atMs: Date.parse(entry.time),
        requestsPerSecond: entry.current_rps[1],
        failuresPerSecond: entry.current_fail_per_sec[1],
        p50Ms: entry["response_time_percentile_0.5"][1],
        p95Ms: entry["response_time_percentile_0.95"][1],
        users: entry.user_count[1],
      });
    });
    expect(run.endpoints.every((e) => e.timeline === null)).toBe(true);
    expect(run.startedAt).toBe(new Date(args.start_time).toISOString());
    expect(run.durationSeconds).toBe((Date.parse(args.end_time) - Date.parse(args.start_time)) / 1000);
    expect(run.environment.config).toEqual({
      protocol: "http",
      host: args.host,
      users: Math.max(...history.map((entry) => entry.user_count[1])),
    });
  });

  it("agrees with the same run's locust.json and locust_stats.csv where they state the same thing", () => {
    // The report is written when the run ends, like the --json output: the same counts.
    const json: any[] = readFixtureJson("locust/baseline/round1/locust.json") as any[];
    expect(run.endpoints).toHaveLength(json.length);
    for (const entry of json) {
      const endpoint = resultOf(run, entry.name, entry.method);
      expect(endpoint?.requests).toBe(entry.num_requests);
      expect(endpoint?.failures).toBe(entry.num_failures);
      expect(endpoint?.latency.maxMs).toBe(Math.round(entry.max_response_time)); // the report rounds to whole ms
      expect(endpoint?.latency.minMs).toBe(Math.round(entry.min_response_time));
    }
    // The CSV is written a second or so earlier (README: counts differ slightly): a few more requests here.
    const rows = parse<Record<string, string>>(readFixture("locust/baseline/round1/locust_stats.csv"), {
      columns: true,
    });
    expect(rows).toHaveLength(args.requests_statistics.length);
    for (const row of rows) {
      const result = resultOf(run, row.Name ?? "", row.Type ?? "");
      const csvRequests = Number(row["Request Count"]);
      expect(result?.requests).toBeGreaterThanOrEqual(csvRequests);
      expect(result?.requests).toBeLessThanOrEqual(csvRequests * (row.Name === "Aggregated" ? 1.1 : 1.2));
      expect(result?.failures).toBeGreaterThanOrEqual(Number(row["Failure Count"]));
    }
    const failures = parse<Record<string, string>>(readFixture("locust/baseline/round1/locust_failures.csv"), {
      columns: true,
    });
    expect(Object.keys(run.aggregate.errors ?? {}).sort()).toEqual(failures.map((f) => f.Error).sort());
    const history = parse<Record<string, string>>(readFixture("locust/baseline/round1/locust_stats_history.csv"), {
      columns: true,
    });
    expect(run.startedAt).toBe(new Date(Number(history[0]?.Timestamp) * 1000).toISOString());
  });
});

describe("Locust HTML report variants and errors", () => {
  const args = argsOf(html);

  it("reads a report with other endpoints, numbers and escaping the same way", () => {
    const variant = structuredClone(args);
    const rename = (name: string): string => (name === "Aggregated" ? name : `/api/v2/${name.toLowerCase()}?a=1&b=<2>`);
    const escaped = (name: string): string =>
      rename(name).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    for (const stats of variant.requests_statistics) {
      stats.name = escaped(stats.name); // html.py escapes the statistics' names…
      stats.num_requests *= 3;
      stats.avg_response_time += 1.5;
      stats["response_time_percentile_0.999"] = 99; // …a custom PERCENTILES_TO_STATISTICS
    }
    for (const row of variant.response_time_statistics) {
      row.name = escaped(row.name);
      row["0.9"] += 1;
    }
    for (const failure of variant.failures_statistics) failure.name = rename(failure.name); // …but not the failures'
    variant.failures_statistics.push({
      ...variant.failures_statistics[0],
      error: "ConnectionResetError(104)",
      occurrences: 4,
    });
    variant.exceptions_statistics = [{ count: 2, msg: "KeyError('listings')", traceback: "…", nodes: "local" }];
    variant.history = [
      {
        time: "2026-11-23 10:00:05",
        current_rps: 12.5,
        current_fail_per_sec: 0,
        "response_time_percentile_0.5": 0,
        "response_time_percentile_0.95": 0,
        user_count: 40,
      },
      {
        time: "2026-11-23 10:00:10",
        current_rps: 30,
        current_fail_per_sec: 0.5,
        "response_time_percentile_0.5": 8,
        "response_time_percentile_0.95": 31,
        user_count: 40,
      },
    ];
    variant.start_time = "2026-11-23 10:00:00";
    variant.end_time = "2026-11-23 10:01:30";
    variant.host = "None";
    const run = parseLocustHtml(reportWith(variant), "variant.html");

    expect(run.endpoints.map((e) => e.name)).toEqual(
      args.requests_statistics.slice(0, -1).map((s: any) => rename(s.name)),
    );
    for (const [index, stats] of args.requests_statistics.entries()) {
      const result = index === args.requests_statistics.length - 1 ? run.aggregate : run.endpoints[index];
      expect(result?.requests).toBe(stats.num_requests * 3);
      expect(result?.latency.meanMs).toBe(stats.avg_response_time + 1.5);
      expect(result?.latency.percentiles["90"]).toBe(args.response_time_statistics[index]["0.9"] + 1);
      expect(result?.latency.percentiles["99.9"]).toBe(99);
    }
    const failing = run.endpoints.find((e) => e.name === rename(args.failures_statistics[0].name));
    expect(failing?.errors?.["ConnectionResetError(104)"]).toBe(4);
    expect(run.aggregate.errors?.["ConnectionResetError(104)"]).toBe(4);
    expect(run.notes).toEqual([expect.stringMatching(/2 exception\(s\).*KeyError\('listings'\)/)]);
    expect(run.aggregate.timeline).toEqual([
      {
        atMs: Date.UTC(2026, 10, 23, 10, 0, 5),
        requestsPerSecond: 12.5,
        failuresPerSecond: 0,
        p50Ms: null,
        p95Ms: null,
        users: 40,
      },
      {
        atMs: Date.UTC(2026, 10, 23, 10, 0, 10),
        requestsPerSecond: 30,
        failuresPerSecond: 0.5,
        p50Ms: 8,
        p95Ms: 31,
        users: 40,
      },
    ]);
    expect(run.startedAt).toBe("2026-11-23T10:00:00.000Z");
    expect(run.durationSeconds).toBe(90);
    expect(run.environment.config).toEqual({ protocol: "http", users: 40 });
  });

  it("reads an entry without requests as counts only", () => {
    const variant = structuredClone(args);
    Object.assign(variant.requests_statistics[0], {
      num_requests: 0,
      num_failures: 0,
      avg_response_time: 0,
      min_response_time: 0,
      max_response_time: 0,
      median_response_time: 0,
    });
    const run = parseLocustHtml(reportWith(variant), "report.html");
    expect(run.endpoints[0]?.requests).toBe(0);
    expect(run.endpoints[0]?.latency).toEqual({
      minMs: null,
      meanMs: null,
      maxMs: null,
      stdDevMs: null,
      percentiles: {},
    });
  });

  it("refuses a report without templateArgs, saying which Locust versions are read", () => {
    const legacy = html.replace(ASSIGNMENT_LINE, "      document.title = 'Locust'");
    const error = errorOf(() => parseLocustHtml(legacy, "report.html"));
    expect(error.code).toBe("malformed");
    expect(error.message).toMatch(/Locust 2\.22 and newer/);
    expect(error.details[0]?.path).toBe("report.html");
    expect(errorOf(() => parseLocustHtml("Type,Name,Request Count\n", "stats.csv")).code).toBe("malformed");
  });

  it("refuses a report cut short inside templateArgs, naming the line it starts on", () => {
    const line = html.split("\n").findIndex((l) => l.includes("window.templateArgs = ")) + 1;
    const cut = html.slice(0, html.indexOf("requests_statistics", html.indexOf("window.templateArgs = ")));
    const error = errorOf(() => parseLocustHtml(cut, "report.html"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`report.html: line ${line}`);
  });

  it("refuses garbled JSON and a wrong type with the path at fault", () => {
    const garbled = html.replace('"num_failures": 0,', '"num_failures": 0,,');
    const syntax = errorOf(() => parseLocustHtml(garbled, "report.html"));
    expect(syntax.code).toBe("malformed");
    expect(syntax.details[0]?.path).toMatch(/^window\.templateArgs \(report\.html, line \d+\): line 1, column \d+$/);

    const variant = structuredClone(args);
    variant.requests_statistics[1].num_requests = "lots";
    variant.history[0].time = "yesterday";
    const error = errorOf(() => parseLocustHtml(reportWith(variant), "report.html"));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toEqual([
      "window.templateArgs.requests_statistics[1].num_requests",
      "window.templateArgs.history[0].time",
    ]);

    const orphan = structuredClone(args);
    orphan.response_time_statistics[0].name = "Elsewhere";
    const orphanError = errorOf(() => parseLocustHtml(reportWith(orphan), "report.html"));
    expect(orphanError.details[0]?.path).toBe("window.templateArgs.response_time_statistics[0]");

    const badPercentile = structuredClone(args);
    badPercentile.response_time_statistics[2]["0.95"] = "fast";
    expect(errorOf(() => parseLocustHtml(reportWith(badPercentile), "report.html")).details[0]?.path).toBe(
      "window.templateArgs.response_time_statistics[2].0.95",
    );
  });
});
