/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- the tools' JSON, read as the test files read it (eslint.config.js turns these rules off for *.test.ts) */
import { csvRows, percentile, type FactsTable } from "./file-facts.fixture";
import type { Json } from "./uploads.fixture";

// The load-test formats' own figures (file-facts.fixture.ts): each file's request count and, when the file
// states one, a percentile, read here from the file as the tool wrote it (for row-per-request files:
// computed here from the rows).

/** A Go duration as vegeta prints it ("1.453ms", "11.996s", "850µs") in ms. */
function goDurationMs(text: string): number {
  const match = /^([\d.]+)(ns|us|µs|ms|s)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  const factor = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000 }[match[2] as "ns" | "us" | "µs" | "ms" | "s"];
  return Number(match[1]) * factor;
}

export const LOAD_TEST_FACTS = {
  "k6-summary": ([file]) => {
    const metrics = JSON.parse(file!.text).metrics as Json;
    return {
      requests: metrics.http_reqs.count,
      percentile: { key: "p95", valueMs: metrics.http_req_duration["p(95)"] },
    };
  },
  "k6-handle-summary": ([file]) => {
    const metrics = JSON.parse(file!.text).metrics as Json;
    return {
      requests: metrics.http_reqs.values.count,
      percentile: { key: "p95", valueMs: metrics.http_req_duration.values["p(95)"] },
    };
  },
  "k6-new-summary": ([file]) => {
    const metrics = JSON.parse(file!.text).results.metrics as Json[];
    const named = (name: string) => metrics.find((metric) => metric.name === name)!.values as Json;
    return { requests: named("http_reqs").count, percentile: { key: "p95", valueMs: named("http_req_duration").p95 } };
  },
  "k6-ndjson": ([file]) => {
    const points = file!.text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Json);
    const of = (metric: string) => points.filter((point) => point.type === "Point" && point.metric === metric);
    const durations = of("http_req_duration").map((point) => point.data.value as number);
    return {
      requests: of("http_reqs").length,
      percentile: { key: "p95", valueMs: percentile(durations, 95), digits: 9 },
    };
  },
  "locust-json": ([file]) => ({
    requests: (JSON.parse(file!.text) as Json[]).reduce((sum, entry) => sum + entry.num_requests, 0),
  }),
  "locust-csv": (files) => {
    const stats = files.find((file) => file.path.endsWith("_stats.csv"))!;
    const [header, ...rows] = csvRows(stats.text);
    const aggregated = rows.find((row) => row[header!.indexOf("Name")] === "Aggregated")!;
    const cell = (name: string) => Number(aggregated[header!.indexOf(name)]);
    return { requests: cell("Request Count"), percentile: { key: "p95", valueMs: cell("95%") } };
  },
  "locust-html": ([file]) => {
    const start = file!.text.lastIndexOf("window.templateArgs = ") + "window.templateArgs = ".length;
    const end = file!.text.indexOf("\n", start);
    const args = JSON.parse(file!.text.slice(start, end).replace(/;\s*$/, "")) as Json;
    const aggregated = (args.requests_statistics as Json[]).find((row) => row.name === "Aggregated")!;
    return {
      requests: aggregated.num_requests,
      percentile: { key: "p95", valueMs: aggregated["response_time_percentile_0.95"] },
    };
  },
  ghz: (files) => {
    const reports = files.map((file) => JSON.parse(file.text) as Json);
    const requests = reports.reduce((sum, report) => sum + report.count, 0);
    if (reports.length === 1) {
      const p95 = (reports[0]!.latencyDistribution as Json[]).find((entry) => entry.percentage === 95)!.latency / 1e6;
      return { requests, percentile: { key: "p95", valueMs: p95 } };
    }
    // Several reports: the exact p95 of every OK call's latency.
    const ok = reports.flatMap((report) =>
      (report.details as Json[]).filter((d) => d.status === "OK").map((d) => d.latency / 1e6),
    );
    return { requests, percentile: { key: "p95", valueMs: percentile(ok, 95), digits: 9 } };
  },
  "ghz-csv": (files) => {
    const rows = files.flatMap((file) => csvRows(file.text).slice(1));
    const ok = rows.filter((row) => row[1] === "OK").map((row) => Number(row[0]));
    return { requests: rows.length, percentile: { key: "p95", valueMs: percentile(ok, 95), digits: 9 } };
  },
  "vegeta-json": (files) => {
    const report = JSON.parse(files.find((file) => file.path.endsWith(".json"))!.text) as Json;
    return { requests: report.requests, percentile: { key: "p95", valueMs: report.latencies["95th"] / 1e6 } };
  },
  "vegeta-text": ([file]) => {
    const requests = Number(/^Requests\s+\[total, rate, throughput\]\s+(\d+)/m.exec(file!.text)![1]);
    const latencies = /^Latencies\s+\[([^\]]+)\]\s+(.+)$/m.exec(file!.text)!;
    const names = latencies[1]!.split(",").map((name) => name.trim());
    const values = latencies[2]!.split(",").map((value) => value.trim());
    return { requests, percentile: { key: "p95", valueMs: goDurationMs(values[names.indexOf("95")]!) } };
  },
  "vegeta-hist": ([file]) => ({
    requests: [...file!.text.matchAll(/^\[[^\]]+\]\s+(\d+)\s/gm)].reduce((sum, match) => sum + Number(match[1]), 0),
  }),
  "hey-text": ([file]) => ({
    requests: [...file!.text.matchAll(/^\s+\[\d+\]\s+(\d+) responses/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    ),
    percentile: { key: "p95", valueMs: Number(/^\s+95% in ([\d.]+) secs/m.exec(file!.text)![1]) * 1000 },
  }),
  "hey-csv": ([file]) => {
    const rows = csvRows(file!.text).slice(1);
    return {
      requests: rows.length,
      percentile: {
        key: "p95",
        valueMs: percentile(
          rows.map((row) => Number(row[0]) * 1000),
          95,
        ),
        digits: 9,
      },
    };
  },
  "wrk-text": ([file]) => {
    const p90 = /^\s+90%\s+([\d.]+)(us|ms|s)$/m.exec(file!.text)!;
    return {
      requests: Number(/^\s+(\d+) requests in /m.exec(file!.text)![1]),
      percentile: { key: "p90", valueMs: Number(p90[1]) * { us: 0.001, ms: 1, s: 1000 }[p90[2] as "us" | "ms" | "s"] },
    };
  },
  "autocannon-json": ([file]) => {
    const result = JSON.parse(file!.text) as Json;
    return { requests: result.requests.total + result.errors, percentile: { key: "p99", valueMs: result.latency.p99 } };
  },
  "artillery-json": (files) => {
    const aggregate = (JSON.parse(files.find((file) => file.path.endsWith(".json"))!.text) as Json).aggregate;
    return {
      requests: aggregate.counters["http.requests"],
      percentile: { key: "p95", valueMs: aggregate.summaries["http.response_time"].p95 },
    };
  },
  "artillery-console": ([file]) => {
    const summary = file!.text.slice(file!.text.lastIndexOf("Summary report @"));
    const p95 = /^http\.response_time:\n(?:\s+\w+: \.+ [\d.]+\n)*?\s+p95: \.+ ([\d.]+)$/m.exec(summary)!;
    return {
      requests: Number(/^http\.requests: \.+ (\d+)$/m.exec(summary)![1]),
      percentile: { key: "p95", valueMs: Number(p95[1]) },
    };
  },
  "jmeter-csv": () => {
    throw new Error("no JMeter fixture");
  },
  "jmeter-xml": () => {
    throw new Error("no JMeter fixture");
  },
  benchtrack: () => {
    throw new Error("no Benchtrack fixture");
  },
} satisfies FactsTable;
