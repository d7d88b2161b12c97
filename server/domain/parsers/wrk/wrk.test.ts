import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseWrkText } from "./wrk";

const FIXTURES = ["wrk/baseline/round1/wrk.txt", "wrk/managedasync/round1/wrk.txt"];
const MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** The test's own reading of a wrk report. */
function readBack(text: string) {
  const time = (amount: string | undefined, unit: string | undefined): number =>
    Number(amount) * (MS[unit ?? ""] ?? Number.NaN);
  const running = /^Running (\d+)s test @ (\S+)$/m.exec(text);
  const threads = /^ {2}(\d+) threads and (\d+) connections$/m.exec(text);
  const latency = /^ {4}Latency +([\d.]+)(us|ms|s) +([\d.]+)(us|ms|s) +([\d.]+)(us|ms|s) /m.exec(text);
  const requests = /^ {2}(\d+) requests in ([\d.]+)s,/m.exec(text);
  return {
    duration: Number(running?.[1]),
    url: running?.[2] ?? "",
    threads: Number(threads?.[1]),
    connections: Number(threads?.[2]),
    meanMs: time(latency?.[1], latency?.[2]),
    stdDevMs: time(latency?.[3], latency?.[4]),
    maxMs: time(latency?.[5], latency?.[6]),
    percentiles: [...text.matchAll(/^ +(\d+)% +([\d.]+)(us|ms|s)$/gm)].map((m) => ({
      p: m[1] ?? "",
      ms: time(m[2], m[3]),
    })),
    requests: Number(requests?.[1]),
    seconds: Number(requests?.[2]),
    non2xx: Number(/^ {2}Non-2xx or 3xx responses: (\d+)$/m.exec(text)?.[1] ?? 0),
    rps: Number(/^Requests\/sec: +([\d.]+)$/m.exec(text)?.[1]),
  };
}

describe.each(FIXTURES)("wrk report %s", (path) => {
  const text = readFixture(path);
  const expected = readBack(text);
  const run = parseWrkText(text, "wrk.txt");
  const [endpoint] = run.endpoints;

  it("makes the URL the one endpoint and the aggregate", () => {
    expect(run.format).toBe("wrk-text");
    expect(run.tool).toBe("wrk");
    expect(run.endpoints).toHaveLength(1);
    expect(endpoint?.name).toBe(new URL(expected.url).pathname);
    expect(endpoint?.fullName).toBe(expected.url);
    expect(endpoint?.protocol).toBe("http");
    expect(endpoint?.method).toBeNull();
    expect(run.aggregate).toEqual({ ...endpoint, name: "(all)", fullName: null });
    expect(run.environment.config).toEqual({
      duration: expected.duration,
      threads: expected.threads,
      connections: expected.connections,
      url: expected.url,
      protocol: "http",
    });
    expect(run.notes).toEqual([]);
  });

  it("reads the file's own numbers", () => {
    expect(endpoint?.requests).toBe(expected.requests);
    expect(endpoint?.failures).toBe(expected.non2xx);
    expect(endpoint?.throughput).toBe(expected.rps);
    expect(run.durationSeconds).toBe(expected.seconds);
    expect(endpoint?.latency.minMs).toBeNull(); // wrk prints no minimum
    expect(endpoint?.latency.meanMs).toBeCloseTo(expected.meanMs, 9);
    expect(endpoint?.latency.stdDevMs).toBeCloseTo(expected.stdDevMs, 9);
    expect(endpoint?.latency.maxMs).toBeCloseTo(expected.maxMs, 9);
    expect(Object.keys(endpoint?.latency.percentiles ?? {})).toEqual(expected.percentiles.map((p) => p.p));
    for (const { p, ms } of expected.percentiles) expect(endpoint?.latency.percentiles[p]).toBeCloseTo(ms, 9);
    expect(endpoint?.histogram).toBeNull();
    expect(endpoint?.statusCodes).toBeNull();
  });
});

describe("wrk report: literal values of the baseline file", () => {
  it("matches the numbers printed in the file", () => {
    const run = parseWrkText(readFixture(FIXTURES[0] ?? ""), "wrk.txt");
    expect(run.aggregate).toMatchObject({ requests: 23426, failures: 32, throughput: 1950.88 });
    expect(run.aggregate.latency).toEqual({
      minMs: null,
      meanMs: 5.17,
      stdDevMs: 2.15,
      maxMs: 26.25,
      percentiles: { "50": 4.91, "75": 6.33, "90": 7.96, "99": 12.15 },
    });
    expect(run.durationSeconds).toBe(12.01);
    expect(run.endpoints[0]?.name).toBe("/api/listings/42");
  });
});

describe("wrk report: other runs read the same way", () => {
  const base = readFixture(FIXTURES[0] ?? "");
  const withoutDistribution = base.replace(/ {2}Latency Distribution\n(?: +\d+% +\S+\n)+/, "");

  it("reads a report without --latency, with no percentiles", () => {
    expect(withoutDistribution).not.toMatch(/Distribution|^ +\d+%/m);
    const run = parseWrkText(withoutDistribution, "wrk.txt");
    expect(run.aggregate.latency.percentiles).toEqual({});
    expect(run.aggregate.latency.meanMs).toBe(5.17);
    expect(run.aggregate.requests).toBe(23426);
  });

  it("counts socket errors as failures (connect/read/write also as requests) and says so", () => {
    const text = base.replace("6.39MB read\n", "6.39MB read\n  Socket errors: connect 2, read 3, write 1, timeout 5\n");
    const run = parseWrkText(text, "wrk.txt");
    expect(run.aggregate.requests).toBe(23426 + 6);
    expect(run.aggregate.failures).toBe(32 + 6 + 5);
    expect(run.notes).toHaveLength(1);
    expect(run.notes[0]).toMatch(/connect 2, read 3, write 1, timeout 5/);
  });

  it("follows other units, a URL with a query and a run without any non-2xx line", () => {
    const text = [
      "Running 1m test @ https://api.example.com:8443/api/search?q=shoes&page=2",
      "  8 threads and 400 connections",
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
      "    Latency   850.00us  312.50us    1.20s    91.02%",
      "    Req/Sec     1.12M     0.98k     2.00M    80.00%",
      "  Latency Distribution",
      "     50%  798.00us",
      "     75%    1.02ms",
      "     90%    1.50ms",
      "     99%    1.03s ",
      "  2403516 requests in 1.00m, 1.21GB read",
      "Requests/sec:  40058.60",
      "Transfer/sec:     20.65MB",
    ].join("\n");
    const run = parseWrkText(text, "wrk.txt");
    expect(run.endpoints[0]).toMatchObject({
      name: "/api/search?q=shoes&page=2",
      fullName: "https://api.example.com:8443/api/search?q=shoes&page=2",
    });
    expect(run.environment.config).toMatchObject({ duration: 60, threads: 8, connections: 400 });
    expect(run.durationSeconds).toBe(60);
    expect(run.aggregate).toMatchObject({ requests: 2403516, failures: 0, throughput: 40058.6 });
    expect(run.aggregate.latency).toEqual({
      minMs: null,
      meanMs: 0.85,
      stdDevMs: 0.3125,
      maxMs: 1200,
      percentiles: { "50": 0.798, "75": 1.02, "90": 1.5, "99": 1030 },
    });
  });

  it("ignores a Lua script's own lines before and after the report", () => {
    const text = `setup: 1 thread started\n${base.replace("\n  2 threads", "\nresponse: 200\n  2 threads")}\n------\n50%,4910\n99%,12150\n`;
    const plain = parseWrkText(base, "wrk.txt");
    expect(parseWrkText(text, "wrk.txt")).toEqual(plain);
  });

  it("reads a run without a single response: no latency, failures from the socket errors", () => {
    const text = [
      "Running 10s test @ http://127.0.0.1:1/",
      "  2 threads and 10 connections",
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
      "    Latency     0.00us    0.00us   0.00us    -nan%",
      "    Req/Sec     0.00      0.00     0.00      -nan%",
      "  0 requests in 10.01s, 0.00B read",
      "  Socket errors: connect 10, read 0, write 0, timeout 0",
      "Requests/sec:      0.00",
      "Transfer/sec:       0.00B",
    ].join("\n");
    const run = parseWrkText(text, "wrk.txt");
    expect(run.endpoints[0]?.name).toBe("/");
    expect(run.aggregate).toMatchObject({ requests: 10, failures: 10, throughput: 0 });
    expect(run.aggregate.latency).toEqual({ minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} });
  });
});

describe("wrk report: bad input", () => {
  const base = readFixture(FIXTURES[0] ?? "");
  const lineOf = (text: string, needle: string): number =>
    text.split("\n").findIndex((line) => line.includes(needle)) + 1;

  it.each([
    [
      "a garbled latency row",
      "    Latency     5.17ms    2.15ms  26.25ms   69.54%",
      "    Latency     5.17ms    2.1xms  26.25ms   69.54%",
    ],
    ["a garbled percentile", "     90%    7.96ms", "     90%    7.96"],
    ["a garbled request count", "  23426 requests in 12.01s", "  23426 requests in 12.01 seconds"],
    ["a garbled Running line", "Running 12s test @", "Running twelve seconds test @"],
    ["a line that is none of wrk's inside the report", "  Non-2xx or 3xx responses: 32", "  Non-2xx responses: 32"],
    ["a repeated line", "Requests/sec:   1950.88", "Requests/sec:   1950.88\nRequests/sec:   1950.89"],
  ])("names the line of %s", (_, from, to) => {
    const text = base.replace(from, to);
    expect(text).not.toBe(base);
    const error = errorOf(() => parseWrkText(text, "wrk.txt"));
    expect(error.code).toBe("malformed");
    const last = to.split("\n").at(-1) ?? to;
    expect(error.details[0]?.path).toBe(`wrk.txt: line ${lineOf(text, last)}`);
  });

  it("rejects a report cut short, two reports in one file and a text that is not wrk's", () => {
    const cut = base.slice(0, base.indexOf("  Latency Distribution"));
    const error = errorOf(() => parseWrkText(cut, "wrk.txt"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.message).toMatch(/requests in/);
    expect(error.details[0]?.path).toBe(`wrk.txt: line ${cut.split("\n").length}`);
    const twice = errorOf(() => parseWrkText(`${base}${base}`, "wrk.txt"));
    expect(twice.details[0]?.path).toBe(`wrk.txt: line ${base.split("\n").length}`);
    expect(errorOf(() => parseWrkText("hello\n", "wrk.txt")).details[0]?.path).toBe("wrk.txt: line 1");
  });
});
