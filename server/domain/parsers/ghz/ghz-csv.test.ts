import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "../../run";
import { countBy, expectedPercentile } from "../fixtures/expected-stats";
import { errorOf } from "../fixtures/input-error-of";
import { filesIn, readFixture } from "../fixtures/read-fixture";
import { parseGhzCsv } from "./ghz-csv";

const FOLDER = "ghz/baseline/round1-csv";
const PERCENTILES = [10, 25, 50, 75, 90, 95, 99, 99.9];

/** The test's own reading of a ghz CSV: rows after the header, split at the first two commas. */
function readRows(text: string): { ms: number; status: string; error: string }[] {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  expect(lines[0]).toBe("duration (ms),status,error");
  return lines.slice(1).map((line) => {
    const first = line.indexOf(",");
    const second = line.indexOf(",", first + 1);
    return { ms: Number(line.slice(0, first)), status: line.slice(first + 1, second), error: line.slice(second + 1) };
  });
}

function expectCallsOf(
  result: ReturnType<typeof parseGhzCsv>["aggregate"] | undefined,
  rows: ReturnType<typeof readRows>,
): void {
  const ok = rows.filter((row) => row.status === "OK").map((row) => row.ms);
  expect(result?.protocol).toBe("grpc");
  expect(result?.requests).toBe(rows.length);
  expect(result?.failures).toBe(rows.length - ok.length);
  expect(result?.statusCodes).toEqual(countBy(rows.map((row) => row.status)));
  expect(result?.errors).toEqual(countBy(rows.map((row) => row.error).filter((error) => error !== "")));
  for (const p of PERCENTILES) expect(result?.latency.percentiles[String(p)]).toBeCloseTo(expectedPercentile(ok, p), 9);
  expect(Object.keys(result?.latency.percentiles ?? {}).sort()).toEqual(PERCENTILES.map(String).sort());
  expect(result?.latency.minMs).toBe(Math.min(...ok));
  expect(result?.latency.maxMs).toBe(Math.max(...ok));
  // The mean is over all calls, as the JSON report's `average` is; the rest covers the OK calls.
  expect(result?.latency.meanMs).toBeCloseTo(rows.reduce((sum, row) => sum + row.ms, 0) / rows.length, 9);
  expect(result?.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(ok.length);
  expect(result?.throughput).toBeNull();
}

describe("ghz -O csv files (baseline round1-csv)", () => {
  const files = filesIn(FOLDER);

  it("holds the five methods", () => {
    expect(files).toHaveLength(5);
  });

  it.each(files)("reads %s: one endpoint named after the file, OK-call latency exact", (file) => {
    const text = readFixture(`${FOLDER}/${file}`);
    const run = parseGhzCsv([{ name: file, text }]);
    const rows = readRows(text);
    expect(run.format).toBe("ghz-csv");
    expect(run.tool).toBe("ghz");
    expect(run.endpoints.map((e) => e.name)).toEqual([file.replace(/\.csv$/, "")]);
    expectCallsOf(run.endpoints[0], rows);
    expectCallsOf(run.aggregate, rows);
    expect(run.aggregate.name).toBe(AGGREGATE_NAME);
    expect(run.startedAt).toBeNull();
    expect(run.durationSeconds).toBeNull();
    expect(run.environment.config).toEqual({ protocol: "grpc" });
    const cutOff = ["Canceled", "Unavailable"].filter((status) => rows.some((row) => row.status === status));
    expect(run.notes).toHaveLength(cutOff.length > 0 ? 1 : 0);
    for (const status of cutOff)
      expect(run.notes[0]).toContain(`${rows.filter((row) => row.status === status).length} ${status}`);
  });

  it("combines the five files into one run, the aggregate pooling every OK call", () => {
    const uploads = files.map((file) => ({ name: `out/${file}`, text: readFixture(`${FOLDER}/${file}`) }));
    const run = parseGhzCsv(uploads);
    expect(run.endpoints.map((e) => e.name)).toEqual(files.map((f) => f.replace(/\.csv$/, "")));
    expectCallsOf(
      run.aggregate,
      uploads.flatMap((upload) => readRows(upload.text)),
    );
  });

  it("explains the calls ghz cut off at shutdown", () => {
    const run = parseGhzCsv([
      { name: "CheckStockAvailability.csv", text: readFixture(`${FOLDER}/CheckStockAvailability.csv`) },
    ]);
    expect(run.notes).toEqual([
      "CheckStockAvailability: 7 Canceled and 1 Unavailable — calls ghz cut off itself, typically still in flight when the run's duration (-z) ran out; counted as failures, not server errors.",
    ]);
  });

  it("gives a bare body (no file name) no endpoint, only the aggregate", () => {
    const text = readFixture(`${FOLDER}/ListListings.csv`);
    const run = parseGhzCsv([{ name: null, text }]);
    expect(run.endpoints).toEqual([]);
    expectCallsOf(run.aggregate, readRows(text));
    expect(run.notes[0]).toMatch(/^2 Canceled and 2 Unavailable — /);
  });
});

describe("ghz CSV built in the test (no special-casing of the fixtures)", () => {
  const text = [
    "",
    "duration (ms),status,error",
    "12.50,OK,",
    "3.00,OK,",
    "101.25,DeadlineExceeded,rpc error: code = DeadlineExceeded desc = context deadline exceeded",
    "7.75,OK,",
    "0.40,Internal,rpc error: code = Internal desc = boom, with a comma, or two",
    "1.00,Code(17),rpc error: code = Code(17) desc = custom",
    "20.00,OK,",
    "",
  ].join("\r\n");

  it("reads other statuses, errors holding commas, CRLF lines and a file in a folder", () => {
    const run = parseGhzCsv([{ name: "reports/round9/Ping.csv", text }]);
    expect(run.endpoints.map((e) => e.name)).toEqual(["Ping"]);
    const [endpoint] = run.endpoints;
    expect(endpoint?.requests).toBe(7);
    expect(endpoint?.failures).toBe(3);
    expect(endpoint?.statusCodes).toEqual({ OK: 4, DeadlineExceeded: 1, Internal: 1, "Code(17)": 1 });
    expect(endpoint?.errors).toEqual({
      "rpc error: code = DeadlineExceeded desc = context deadline exceeded": 1,
      "rpc error: code = Internal desc = boom, with a comma, or two": 1,
      "rpc error: code = Code(17) desc = custom": 1,
    });
    expect(endpoint?.latency.percentiles["50"]).toBeCloseTo(expectedPercentile([12.5, 3, 7.75, 20], 50), 9);
    expect(endpoint?.latency.minMs).toBe(3);
    expect(endpoint?.latency.maxMs).toBe(20);
    expect(endpoint?.latency.meanMs).toBeCloseTo((12.5 + 3 + 101.25 + 7.75 + 0.4 + 1 + 20) / 7, 9); // all calls, as ghz's average
    expect(run.notes).toEqual([]);
  });

  it("gives nulls, not zeros, when no call succeeded", () => {
    const run = parseGhzCsv([
      {
        name: "Down.csv",
        text: "\nduration (ms),status,error\n0.02,Unavailable,rpc error: code = Unavailable desc = connection refused\n",
      },
    ]);
    expect(run.endpoints[0]?.requests).toBe(1);
    expect(run.endpoints[0]?.failures).toBe(1);
    expect(run.endpoints[0]?.latency).toEqual({
      minMs: null,
      meanMs: null,
      maxMs: null,
      stdDevMs: null,
      percentiles: {},
    });
    expect(run.endpoints[0]?.histogram).toBeNull();
  });
});

describe("malformed ghz CSV", () => {
  const good = readFixture(`${FOLDER}/GetListing.csv`);

  it("names the garbled line", () => {
    const lines = good.split("\n");
    lines[6] = "7.05;OK;";
    const error = errorOf(() => parseGhzCsv([{ name: "GetListing.csv", text: lines.join("\n") }]));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("GetListing.csv: line 7");
  });

  it("names the line where a truncated file stops", () => {
    const cut = good.slice(0, good.indexOf("\n", 500) + 4); // a few characters into the next row
    const lineCount = cut.split("\n").length;
    const error = errorOf(() => parseGhzCsv([{ name: "GetListing.csv", text: cut }]));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`GetListing.csv: line ${lineCount}`);
  });

  it("refuses a file without ghz's header, or an empty one", () => {
    expect(errorOf(() => parseGhzCsv([{ name: "x.csv", text: "\n7.05,OK,\n" }])).details[0]?.path).toBe(
      "x.csv: line 2",
    );
    expect(errorOf(() => parseGhzCsv([{ name: "x.csv", text: "\n\n" }])).details[0]?.path).toBe("x.csv: line 1");
  });

  it("refuses a negative duration", () => {
    const error = errorOf(() => parseGhzCsv([{ name: null, text: "duration (ms),status,error\n-1.00,OK,\n" }]));
    expect(error.details[0]?.path).toBe("body: line 2");
  });

  it("needs file names when several files make one run", () => {
    const error = errorOf(() =>
      parseGhzCsv([
        { name: "A.csv", text: good },
        { name: null, text: good },
      ]),
    );
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("file 2");
  });
});
