import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "../../run";
import { readFixture, roundsOf } from "../fixtures/read-fixture";
import { parseLocustCsv } from "./locust-csv";
import { errorOf } from "../fixtures/input-error-of";

function filesOf(round: string, names: string[]) {
  return names.map((name) => ({ name, text: readFixture(`locust/${round}/${name}`) }));
}
const ALL_FILES = ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"];
const cell = (value: string | undefined): number | null => (value === undefined || value === "N/A" ? null : Number(value));
/** A history percentile: N/A before the first answer, 0 for a window without answers yet (Locust's `or 0`). */
const historyPercentile = (value: string | undefined): number | null => (cell(value) === 0 ? null : cell(value));
const pointOf = (row: Record<string, string>) => ({
  atMs: Number(row.Timestamp) * 1000,
  requestsPerSecond: Number(row["Requests/s"]),
  failuresPerSecond: Number(row["Failures/s"]),
  p50Ms: historyPercentile(row["50%"]),
  p95Ms: historyPercentile(row["95%"]),
  users: Number(row["User Count"]),
});

describe.each(roundsOf("locust"))("Locust CSV of %s", (round) => {
  const run = parseLocustCsv(filesOf(round, ALL_FILES));
  const rows = parse<Record<string, string>>(readFixture(`locust/${round}/locust_stats.csv`), { columns: true });

  it("reads every stats row back cell for cell", () => {
    expect(run.format).toBe("locust-csv");
    expect(run.endpoints).toHaveLength(rows.length - 1);
    for (const row of rows) {
      const result = row.Name === "Aggregated" ? run.aggregate : run.endpoints.find((e) => e.name === row.Name);
      expect(result?.name).toBe(row.Name === "Aggregated" ? AGGREGATE_NAME : row.Name);
      expect(result?.requests).toBe(cell(row["Request Count"]));
      expect(result?.failures).toBe(cell(row["Failure Count"]));
      expect(result?.throughput).toBe(cell(row["Requests/s"]));
      expect(result?.latency.meanMs).toBe(cell(row["Average Response Time"]));
      expect(result?.latency.minMs).toBe(cell(row["Min Response Time"]));
      expect(result?.latency.maxMs).toBe(cell(row["Max Response Time"]));
      for (const p of ["50", "66", "75", "80", "90", "95", "98", "99", "99.9", "99.99"]) {
        expect(result?.latency.percentiles[p]).toBe(cell(row[`${p}%`]));
      }
      expect(result?.latency.percentiles["100"]).toBeUndefined(); // 100% is the max, kept exact as maxMs
    }
  });

  it("attaches failures per endpoint and in total", () => {
    const failures = parse<Record<string, string>>(readFixture(`locust/${round}/locust_failures.csv`), { columns: true });
    const total = failures.reduce((sum, f) => sum + Number(f.Occurrences), 0);
    expect(Object.values(run.aggregate.errors ?? {}).reduce((a, b) => a + b, 0)).toBe(total);
    for (const failure of failures) {
      const endpoint = run.endpoints.find((e) => e.name === failure.Name);
      expect(endpoint?.errors?.[failure.Error ?? ""]).toBe(Number(failure.Occurrences));
    }
  });

  it("takes start, duration and peak users from the history", () => {
    const history = parse<Record<string, string>>(readFixture(`locust/${round}/locust_stats_history.csv`), { columns: true });
    const first = Number(history[0]?.Timestamp);
    expect(run.startedAt).toBe(new Date(first * 1000).toISOString());
    expect(run.durationSeconds).toBe(Number(history.at(-1)?.Timestamp) - first);
    expect(run.environment.config.users).toBe(15);
    // The exceptions files hold only their header.
    expect(run.notes).toEqual([]);
  });

  it("makes the Aggregated history rows the aggregate's timeline, point for point", () => {
    const history = parse<Record<string, string>>(readFixture(`locust/${round}/locust_stats_history.csv`), { columns: true });
    expect(history.every((row) => row.Name === "Aggregated")).toBe(true);
    // Without --csv-full-history the percentile columns run since the start: not a window's, so left out.
    expect(run.aggregate.timeline).toEqual(history.map((row) => ({ ...pointOf(row), p50Ms: null, p95Ms: null })));
    expect(run.aggregate.timeline?.some((point) => point.requestsPerSecond !== null && point.requestsPerSecond > 0)).toBe(true);
    expect(run.endpoints.every((e) => e.timeline === null)).toBe(true);
  });

  it("needs only the stats file", () => {
    const statsOnly = parseLocustCsv(filesOf(round, ["locust_stats.csv"]));
    expect(statsOnly.aggregate.requests).toBe(run.aggregate.requests);
    expect(statsOnly.endpoints[0]?.errors).toBeNull();
    expect(statsOnly.startedAt).toBeNull();
    expect(statsOnly.aggregate.timeline).toBeNull();
  });
});

describe("Locust CSV with --csv-full-history", () => {
  const folder = "locust/baseline/csv-full-history";
  const run = parseLocustCsv(filesOf("baseline/csv-full-history", ALL_FILES));
  const historyText = readFixture(`${folder}/locust_stats_history.csv`);
  const history = parse<Record<string, string>>(historyText, { columns: true });

  it("gives each endpoint its own timeline and the aggregate the Aggregated rows", () => {
    const names = [...new Set(history.map((row) => row.Name))];
    expect(names).toHaveLength(6);
    expect(run.endpoints).toHaveLength(5);
    for (const name of names) {
      const rows = history.filter((row) => row.Name === name);
      const result = name === "Aggregated" ? run.aggregate : run.endpoints.find((e) => e.name === name);
      expect(result?.method ?? "").toBe(rows[0]?.Type);
      expect(result?.timeline).toHaveLength(rows.length);
      expect(result?.timeline).toEqual(rows.map(pointOf));
    }
    // Current-window percentiles: 0 until Locust has cached answers, and they end below the run's totals.
    expect(history.some((row) => row.Name !== "Aggregated" && row["95%"] === "0")).toBe(true);
    expect(run.endpoints.every((e) => e.timeline?.[0]?.p95Ms === null)).toBe(true);
    expect(run.notes).toEqual([]);
  });

  it("still takes start, duration and peak users from the Aggregated rows", () => {
    const aggregated = history.filter((row) => row.Name === "Aggregated");
    const first = Number(aggregated[0]?.Timestamp);
    expect(run.startedAt).toBe(new Date(first * 1000).toISOString());
    expect(run.durationSeconds).toBe(Number(aggregated.at(-1)?.Timestamp) - first);
    expect(run.environment.config.users).toBe(Math.max(...aggregated.map((row) => Number(row["User Count"]))));
  });

  it("reads renamed endpoints and changed numbers the same way", () => {
    const rename = (text: string) => text.replaceAll(",GetListing,", ",/api/listings/42?view=full,").replaceAll(",15,", ",40,");
    const files = ALL_FILES.map((name) => ({ name, text: rename(readFixture(`${folder}/${name}`)) }));
    const renamed = parseLocustCsv(files);
    const rows = parse<Record<string, string>>(rename(historyText), { columns: true }).filter((r) => r.Name === "/api/listings/42?view=full");
    const endpoint = renamed.endpoints.find((e) => e.name === "/api/listings/42?view=full");
    expect(rows.length).toBeGreaterThan(0);
    expect(endpoint?.timeline).toEqual(rows.map(pointOf));
    expect(renamed.environment.config.users).toBe(40);
  });

  it("refuses a history row naming an endpoint the stats file does not list, with its line", () => {
    const lines = historyText.trimEnd().split("\n");
    for (const row of ["1795340713,15,GET,Elsewhere,1.0,0.0,5,5,5,5,5,5,5,5,5,5,5,3,0,5,5.0,5,5,10", "1795340713,15,PUT,GetListing,1.0,0.0,5,5,5,5,5,5,5,5,5,5,5,3,0,5,5.0,5,5,10"]) {
      const files = [
        { name: "locust_stats.csv", text: readFixture(`${folder}/locust_stats.csv`) },
        { name: "locust_stats_history.csv", text: `${historyText.trimEnd()}\n${row}\n` },
      ];
      const error = errorOf(() => parseLocustCsv(files));
      expect(error.code).toBe("malformed");
      expect(error.details[0]?.path).toBe(`locust_stats_history.csv: line ${lines.length + 1}`);
    }
  });

  it("refuses a garbled history cell with its line and column", () => {
    const broken = historyText.replace("\n1795340703,15,GET,GetListing,0.000000,", "\n1795340703,15,GET,GetListing,fast,");
    const line = historyText.split("\n").findIndex((l) => l.startsWith("1795340703,15,GET,GetListing,")) + 1;
    const error = errorOf(() =>
      parseLocustCsv([
        { name: "locust_stats.csv", text: readFixture(`${folder}/locust_stats.csv`) },
        { name: "locust_stats_history.csv", text: broken },
      ]),
    );
    expect(error.details[0]?.path).toBe(`locust_stats_history.csv: line ${line}: Requests/s`);
  });
});

describe("Locust CSV edge cases", () => {
  const stats = readFixture("locust/baseline/round1/locust_stats.csv");

  it("turns N/A into null and summarises exceptions into notes", () => {
    const header = stats.split("\n")[0] ?? "";
    const naRow = ",Aggregated,0,0,0,0,0,0,0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A";
    const run = parseLocustCsv([
      { name: "x_stats.csv", text: `${header}\n${naRow}\n` },
      { name: "x_exceptions.csv", text: 'Count,Message,Traceback,Nodes\n2,"KeyError(\'listings\')","Traceback...\n  line",local\n' },
    ]);
    expect(run.aggregate.latency.percentiles).toEqual({});
    expect(run.aggregate.latency.meanMs).toBeNull();
    expect(run.notes[0]).toMatch(/2 exception\(s\).*KeyError/);
  });

  it("rejects a stats CSV without its header, pointing at line 1", () => {
    const withoutHeader = stats.split("\n").slice(1).join("\n");
    const error = errorOf(() => parseLocustCsv([{ name: "locust_stats.csv", text: withoutHeader }]));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("locust_stats.csv: line 1");
  });

  it("rejects a bad cell with its line and column", () => {
    const broken = stats.replace("\nPOST,CheckStockAvailability,", "\nPOST,CheckStockAvailability,lots");
    const error = errorOf(() => parseLocustCsv([{ name: "locust_stats.csv", text: broken }]));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("locust_stats.csv: line 2: Request Count");
  });

  it("rejects a ragged CSV and an upload without the stats file", () => {
    expect(errorOf(() => parseLocustCsv([{ name: "locust_stats.csv", text: `${stats}1,2\n` }])).details[0]?.path).toMatch(/line \d+/);
    expect(errorOf(() => parseLocustCsv([{ name: "locust_failures.csv", text: "Method,Name,Error,Occurrences,First Seen,Last Seen\n" }])).code).toBe("malformed");
  });
});
