import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseHeyText } from "./hey-text";

const TEXT_FIXTURES = ["hey/baseline/round1/hey.txt", "hey/managedasync/round1/hey.txt"];

/** The test's own reading of a hey report: one small regex per kind of line. */
function readBack(text: string) {
  const seconds = (key: string): number => Number(new RegExp(`^  ${key}:\\t([\\d.]+) secs$`, "m").exec(text)?.[1]);
  const all = (pattern: RegExp): RegExpExecArray[] => [...text.matchAll(pattern)];
  return {
    total: seconds("Total"),
    slowest: seconds("Slowest"),
    fastest: seconds("Fastest"),
    average: seconds("Average"),
    rps: Number(/^ {2}Requests\/sec:\t([\d.]+)$/m.exec(text)?.[1]),
    histogram: all(/^ {2}([\d.]+) \[(\d+)\]\t\|/gm).map((m) => ({ mark: Number(m[1]), count: Number(m[2]) })),
    percentiles: all(/^ {2}(\d+)% in ([\d.]+) secs$/gm).map((m) => ({ p: m[1] ?? "", seconds: Number(m[2]) })),
    statuses: all(/^ {2}\[(\d+)\]\t(\d+) responses$/gm).map((m) => ({ code: m[1] ?? "", count: Number(m[2]) })),
  };
}

const isFailedStatus = (code: string): boolean => !/^[23]\d\d$/.test(code);

describe.each(TEXT_FIXTURES)("hey text report %s", (path) => {
  const text = readFixture(path);
  const expected = readBack(text);
  const run = parseHeyText(text, "hey.txt");
  const { aggregate } = run;

  it("has no endpoint (hey does not print the URL) and no invented load config", () => {
    expect(run.format).toBe("hey-text");
    expect(run.tool).toBe("hey");
    expect(run.endpoints).toEqual([]);
    expect(run.environment.config).toEqual({ protocol: "http" });
    expect(run.startedAt).toBeNull();
    expect(run.notes).toEqual([]);
    expect(aggregate.name).toBe("(all)");
    expect(aggregate.protocol).toBe("http");
    expect(aggregate.method).toBeNull();
  });

  it("reads the summary in ms and the counts", () => {
    const responses = expected.statuses.reduce((sum, s) => sum + s.count, 0);
    expect(responses).toBeGreaterThan(0);
    expect(run.durationSeconds).toBeCloseTo(expected.total, 9);
    expect(aggregate.throughput).toBeCloseTo(expected.rps, 9);
    expect(aggregate.latency.minMs).toBeCloseTo(expected.fastest * 1000, 9);
    expect(aggregate.latency.meanMs).toBeCloseTo(expected.average * 1000, 9);
    expect(aggregate.latency.maxMs).toBeCloseTo(expected.slowest * 1000, 9);
    expect(aggregate.latency.stdDevMs).toBeNull();
    expect(aggregate.requests).toBe(responses);
    expect(aggregate.failures).toBe(
      expected.statuses.filter((s) => isFailedStatus(s.code)).reduce((sum, s) => sum + s.count, 0),
    );
    expect(aggregate.statusCodes).toEqual(Object.fromEntries(expected.statuses.map((s) => [s.code, s.count])));
    expect(aggregate.errors).toEqual({});
  });

  it("keeps hey's percentiles and histogram", () => {
    expect(Object.keys(aggregate.latency.percentiles)).toEqual(expected.percentiles.map((p) => p.p));
    for (const { p, seconds } of expected.percentiles)
      expect(aggregate.latency.percentiles[p]).toBeCloseTo(seconds * 1000, 9);
    expect(aggregate.histogram?.map((b) => b.count)).toEqual(expected.histogram.map((b) => b.count));
    aggregate.histogram?.forEach((bucket, i) =>
      expect(bucket.upperMs).toBeCloseTo((expected.histogram[i]?.mark ?? Number.NaN) * 1000, 9),
    );
    // hey's histogram holds every response, nothing else.
    expect(aggregate.histogram?.reduce((sum, b) => sum + b.count, 0)).toBe(aggregate.requests);
  });
});

describe("hey text report: literal values of the baseline file", () => {
  it("matches the numbers printed in the file", () => {
    const run = parseHeyText(readFixture(TEXT_FIXTURES[0] ?? ""), "hey.txt");
    expect(run.durationSeconds).toBe(12.011);
    expect(run.aggregate).toMatchObject({
      requests: 1200,
      failures: 1,
      throughput: 99.9085,
      statusCodes: { "200": 1199, "500": 1 },
    });
    expect(run.aggregate.latency).toMatchObject({ minMs: 1.7, meanMs: 5.4, maxMs: 25.5 });
    expect(run.aggregate.latency.percentiles).toEqual({
      "10": 3,
      "25": 3.8,
      "50": 4.9,
      "75": 6.2,
      "90": 8.4,
      "95": 9.7,
      "99": 13.8,
    });
    expect(run.aggregate.histogram?.[1]).toEqual({ upperMs: 4, count: 419 });
  });
});

describe("hey text report: other runs read the same way", () => {
  const base = readFixture(TEXT_FIXTURES[0] ?? "");

  it("counts an Error distribution (hey's layout: `  [count]\\tmessage`) as requests and failures", () => {
    // requester/print.go: "\n\n{{ if gt (len .ErrorDist) 0 }}Error distribution:{{ range }}\n  [{{ $num }}]\t{{ $err }}…"
    const refused =
      'Get "http://127.0.0.1:18080/api/listings/42": dial tcp 127.0.0.1:18080: connect: connection refused';
    const timeout =
      'Get "http://127.0.0.1:18080/api/listings/42": context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
    const text = `${base.trimEnd()}\n\nError distribution:\n  [3]\t${refused}\n  [2]\t${timeout}\n\n`;
    const run = parseHeyText(text, "hey.txt");
    expect(run.aggregate.errors).toEqual({ [refused]: 3, [timeout]: 2 });
    expect(run.aggregate.requests).toBe(1200 + 5);
    expect(run.aggregate.failures).toBe(1 + 5);
  });

  it("follows changed numbers, other status codes and fewer percentiles", () => {
    const text = base
      .replace("Total:\t12.0110 secs", "Total:\t30.5000 secs")
      .replace("Requests/sec:\t99.9085", "Requests/sec:\t251.1000")
      .replace("  [200]\t1199 responses", "  [200]\t7000 responses\n  [302]\t600 responses\n  [404]\t7 responses")
      .replace("  99% in 0.0138 secs\n", "")
      .replace("  50% in 0.0049 secs", "  50% in 0.0123 secs");
    const run = parseHeyText(text, "report.txt");
    expect(run.durationSeconds).toBe(30.5);
    expect(run.aggregate.throughput).toBe(251.1);
    expect(run.aggregate.statusCodes).toEqual({ "200": 7000, "302": 600, "404": 7, "500": 1 });
    expect(run.aggregate.requests).toBe(7608);
    expect(run.aggregate.failures).toBe(8);
    expect(run.aggregate.latency.percentiles["50"]).toBe(12.3);
    expect(run.aggregate.latency.percentiles).not.toHaveProperty("99");
  });

  it("reads a run where nothing got a response: counts only, no latency", () => {
    const text = [
      "",
      "Summary:",
      "  Total:\t2.0012 secs",
      "  Slowest:\t0.0000 secs",
      "  Fastest:\t0.0000 secs",
      "  Average:\tNaN secs",
      "  Requests/sec:\t99.9400",
      "  ",
      "",
      "Response time histogram:",
      "",
      "",
      "Latency distribution:",
      "",
      "Details (average, fastest, slowest):",
      "  DNS+dialup:\tNaN secs, 0.0000 secs, 0.0000 secs",
      "  DNS-lookup:\tNaN secs, 0.0000 secs, 0.0000 secs",
      "",
      "Status code distribution:",
      "",
      "Error distribution:",
      '  [200]\tGet "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: connection refused',
      "",
      "",
    ].join("\n");
    const run = parseHeyText(text, "hey.txt");
    expect(run.aggregate).toMatchObject({ requests: 200, failures: 200, statusCodes: {}, histogram: null });
    expect(run.aggregate.latency).toEqual({ minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} });
  });

  it("merges histogram buckets whose 3-decimal marks coincide, so edges ascend", () => {
    const text = base.replace("  0.002 [1]\t|\n  0.004 [419]", "  0.004 [1]\t|\n  0.004 [419]");
    const run = parseHeyText(text, "hey.txt");
    expect(run.aggregate.histogram?.[0]).toEqual({ upperMs: 4, count: 420 });
    expect(run.aggregate.histogram).toHaveLength(10);
  });
});

describe("hey text report: bad input", () => {
  const base = readFixture(TEXT_FIXTURES[0] ?? "");
  const lineOf = (text: string, needle: string): number =>
    text.split("\n").findIndex((line) => line.includes(needle)) + 1;

  it.each([
    ["a garbled number", "  50% in 0.0049 secs", "  50% in 0.00x9 secs"],
    ["a garbled summary line", "  Slowest:\t0.0255 secs", "  Slowest:\t0.0255 minutes"],
    ["a garbled status line", "  [500]\t1 responses", "  [500]\tone responses"],
    ["an unknown section", "Latency distribution:", "Latency distributon:"],
  ])("names the line of %s", (_, from, to) => {
    const text = base.replace(from, to);
    const error = errorOf(() => parseHeyText(text, "hey.txt"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`hey.txt: line ${lineOf(text, to)}`);
  });

  it("rejects a report cut short and a text that is not hey's", () => {
    const cut = base.slice(0, base.indexOf("Details"));
    const error = errorOf(() => parseHeyText(cut, "hey.txt"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`hey.txt: line ${cut.split("\n").length}`);
    expect(error.details[0]?.message).toMatch(/Status code distribution/);
    expect(
      errorOf(() => parseHeyText(base.replace("  Average:\t0.0054 secs\n", ""), "hey.txt")).details[0]?.message,
    ).toMatch(/no Average/);
    expect(errorOf(() => parseHeyText("hello\n", "hey.txt")).details[0]?.path).toBe("hey.txt: line 1");
  });
});
