import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "../run";
import { readFixture, roundsOf } from "./fixtures/read-fixture";
import { parseLocustCsv } from "./locust-csv";
import { errorOf } from "./fixtures/input-error-of";

function filesOf(round: string, names: string[]) {
  return names.map((name) => ({ name, text: readFixture(`locust/${round}/${name}`) }));
}
const ALL_FILES = ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"];
const cell = (value: string | undefined): number | null => (value === undefined || value === "N/A" ? null : Number(value));

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
    expect(run.notes).toEqual([]); // the exceptions files hold only their header
  });

  it("needs only the stats file", () => {
    const statsOnly = parseLocustCsv(filesOf(round, ["locust_stats.csv"]));
    expect(statsOnly.aggregate.requests).toBe(run.aggregate.requests);
    expect(statsOnly.endpoints[0]?.errors).toBeNull();
    expect(statsOnly.startedAt).toBeNull();
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
