import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { TimelinePoint } from "../../run";
import { errorOfAsync } from "../fixtures/input-error-of";
import { readFixture, streamFixtureLines, streamTextLines } from "../fixtures/read-fixture";
import { parseUpload } from "../index";
import { MAX_TIMELINE_POINTS } from "../validate";
import { parseK6Ndjson } from "./k6-ndjson";

const POINTS = "k6/baseline/short-ndjson/points.ndjson";


const point = (metric: string, value: number, tags: Record<string, string>, time: string) =>
  JSON.stringify({ metric, type: "Point", data: { time, value, tags } });

/** One request as k6 writes it: its duration, its http_reqs and its http_req_failed points. */
const request = (name: string, ms: number, time: string, failed = false) =>
  [
    point("http_req_duration", ms, { name }, time),
    point("http_reqs", 1, { name }, time),
    point("http_req_failed", failed ? 1 : 0, { name }, time),
  ].join("\n");

/** k6's p95 as nearest rank: the smallest sample with at least 95% of them at or below it. */
function nearestRank(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? Number.NaN;
}

/**
 * The test's own windows over the raw fixture, with plain loops: whole seconds from the first point
 * (the fixture is in time order), the last window ending at the last point and folded into the one
 * before when shorter than half a second.
 */
function independentWindows(text: string) {
  const entry = z.object({
    type: z.string(),
    metric: z.string(),
    data: z.object({ time: z.string(), value: z.number(), tags: z.record(z.string(), z.string()).nullish() }).partial(),
  });
  const points = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => entry.parse(JSON.parse(line)))
    .filter((p) => p.type === "Point")
    .map((p) => ({ metric: p.metric, time: Date.parse(p.data.time ?? ""), value: p.data.value ?? 0, name: p.data.tags?.name ?? null }));
  const origin = points[0]!.time;
  const first = Math.min(...points.map((p) => p.time));
  const last = Math.max(...points.map((p) => p.time));
  let lastIndex = Math.floor((last - origin) / 1000);
  if (last - (origin + lastIndex * 1000) < 500) lastIndex--;
  const windowOf = (time: number) => Math.max(0, Math.min(Math.floor((time - origin) / 1000), lastIndex));
  const windows = Array.from({ length: lastIndex + 1 }, (_, index) => ({
    start: index === 0 ? first : origin + index * 1000,
    end: index === lastIndex ? last : origin + (index + 1) * 1000,
    requests: new Map<string | null, number>(),
    durations: new Map<string | null, number[]>(),
    vus: null as number | null,
  }));
  for (const p of points) {
    const window = windows[windowOf(p.time)]!;
    for (const key of [null, p.name]) {
      if (p.metric === "http_reqs") window.requests.set(key, (window.requests.get(key) ?? 0) + p.value);
      if (p.metric === "http_req_duration") window.durations.set(key, [...(window.durations.get(key) ?? []), p.value]);
    }
    if (p.metric === "vus") window.vus = Math.max(window.vus ?? 0, p.value);
  }
  return windows;
}

/** HDR's value at a percentile is the top of the ≤1%-wide bucket of the nearest-rank sample (recorded in whole µs). */
function expectWithinHdrBucket(actual: number | null, exact: number): void {
  expect(actual).not.toBeNull();
  expect(actual!).toBeGreaterThanOrEqual(exact - 0.0005);
  expect(actual!).toBeLessThanOrEqual(exact * 1.01 + 0.001);
}

describe("the k6 NDJSON timeline, on the short-ndjson fixture", async () => {
  const text = readFixture(POINTS);
  const run = await parseK6Ndjson(streamFixtureLines(POINTS));
  const windows = independentWindows(text);

  it("has the aggregate's requests/s, p50, p95 and VUs of every window, as counted here", () => {
    const timeline = run.aggregate.timeline ?? [];
    expect(windows.length).toBe(3);
    expect(timeline).toHaveLength(windows.length);
    for (const [index, window] of windows.entries()) {
      const point = timeline[index]!;
      const seconds = (window.end - window.start) / 1000;
      expect(point.atMs).toBe(window.end);
      expect(point.requestsPerSecond).toBeCloseTo((window.requests.get(null) ?? 0) / seconds, 9);
      // The fixture's run had no failed request; failures/s are 0, not unknown.
      expect(point.failuresPerSecond).toBe(0);
      const durations = window.durations.get(null) ?? [];
      expectWithinHdrBucket(point.p50Ms, nearestRank(durations, 50));
      expectWithinHdrBucket(point.p95Ms, nearestRank(durations, 95));
      expect(point.users).toBe(window.vus);
    }
  });

  it("counts every request of the run once, window by window", () => {
    const timeline = run.aggregate.timeline ?? [];
    const counted = timeline.reduce((sum, point, index) => sum + point.requestsPerSecond! * ((windows[index]!.end - windows[index]!.start) / 1000), 0);
    expect(counted).toBeCloseTo(run.aggregate.requests ?? Number.NaN, 6);
  });

  it("has each endpoint's own windows, as counted here", () => {
    expect(run.endpoints).toHaveLength(5);
    for (const endpoint of run.endpoints) {
      const timeline = endpoint.timeline ?? [];
      const mine = windows.filter((window) => window.requests.has(endpoint.name));
      expect(timeline).toHaveLength(mine.length);
      for (const [index, window] of mine.entries()) {
        const point = timeline[index]!;
        expect(point.atMs).toBe(window.end);
        expect(point.requestsPerSecond).toBeCloseTo(window.requests.get(endpoint.name)! / ((window.end - window.start) / 1000), 9);
        expectWithinHdrBucket(point.p95Ms, nearestRank(window.durations.get(endpoint.name) ?? [], 95));
        expect(point.users).toBeNull();
      }
    }
  });

  it("is the same when the file is read from memory instead of streamed", () => {
    const { run: fromMemory } = parseUpload({ files: [{ name: "points.ndjson", text }] });
    expect(fromMemory.aggregate.timeline).toEqual(run.aggregate.timeline);
    expect(fromMemory.endpoints.map((e) => e.timeline)).toEqual(run.endpoints.map((e) => e.timeline));
  });
});

describe("the k6 NDJSON timeline, on files built here", () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0) + seconds * 1000).toISOString();

  it("counts failed requests per second, as the run's failures", async () => {
    const lines = [request("A", 10, at(0)), request("A", 20, at(0.5), true), request("B", 30, at(1.2), true), request("A", 40, at(2))];
    const run = await parseK6Ndjson(streamTextLines(lines.join("\n")));
    expect(run.aggregate.failures).toBe(2);
    const perSecond = (points: TimelinePoint[] | null) => points?.map((p) => [p.requestsPerSecond, p.failuresPerSecond]);
    // Windows [0, 1) and [1, 2]: the last point, 2 s in, ends the second window.
    expect(perSecond(run.aggregate.timeline)).toEqual([[2, 1], [2, 1]]);
    expect(perSecond(run.endpoints.find((e) => e.name === "A")!.timeline)).toEqual([[2, 1], [1, 0]]);
    expect(perSecond(run.endpoints.find((e) => e.name === "B")!.timeline)).toEqual([[1, 1]]);
  });

  it("shows seconds with no request as 0 requests/s for the aggregate, without latency", async () => {
    const run = await parseK6Ndjson(streamTextLines([request("A", 10, at(0)), request("A", 12, at(3.9))].join("\n")));
    const timeline = run.aggregate.timeline ?? [];
    expect(timeline.map((p) => p.requestsPerSecond)).toEqual([1, 0, 0, 1 / 0.9]);
    expect(timeline.map((p) => p.p95Ms === null)).toEqual([false, true, true, false]);
    expectWithinHdrBucket(timeline[0]!.p95Ms, 10);
    expectWithinHdrBucket(timeline[3]!.p95Ms, 12);
    expect(run.endpoints[0]?.timeline).toHaveLength(2);
  });

  it("has no timeline for a run shorter than a second", async () => {
    const run = await parseK6Ndjson(streamTextLines([request("A", 10, at(0)), request("A", 12, at(0.5))].join("\n")));
    expect(run.aggregate.timeline).toBeNull();
    expect(run.endpoints[0]?.timeline).toBeNull();
  });

  it("counts a duration that comes after its window closed, leaves it out of the percentiles and says so", async () => {
    const lines = [request("A", 10, at(0)), request("A", 10, at(0.5)), request("A", 10, at(20)), request("A", 900, at(0.2)), request("A", 10, at(21))];
    const run = await parseK6Ndjson(streamTextLines(lines.join("\n")));
    const first = run.aggregate.timeline?.[0];
    expect(first?.requestsPerSecond).toBe(3);
    expectWithinHdrBucket(first?.p95Ms ?? null, 10);
    expect(run.endpoints[0]?.latency.maxMs).toBe(900);
    expect(run.notes.join(" ")).toMatch(/1 request duration\(s\) came more than 10 s after later points/);
  });

  it("keeps at most MAX_TIMELINE_POINTS windows of a long run, one in every k, and says so", async () => {
    // Two hours, a request every 2 s: 7,200 windows.
    const lines = Array.from({ length: 3_601 }, (_, i) => request("A", 5 + (i % 7), at(i * 2)));
    const run = await parseK6Ndjson(streamTextLines(lines.join("\n")));
    const timeline = run.aggregate.timeline ?? [];
    expect(timeline.length).toBeLessThanOrEqual(MAX_TIMELINE_POINTS);
    expect(timeline[0]?.atMs).toBe(Date.parse(at(1)));
    expect(timeline.at(-1)?.atMs).toBe(Date.parse(at(7_200)));
    // Every third window kept: 0, 3, 6…: each is one window as counted, never averaged.
    expect(timeline.slice(0, 4).map((p) => p.requestsPerSecond)).toEqual([1, 0, 1, 0]);
    expect(run.notes).toContain(`All endpoints: the timeline had 7200 points; one in every 3 is kept (${timeline.length}).`);
    expect(run.endpoints[0]?.timeline?.length).toBeLessThanOrEqual(MAX_TIMELINE_POINTS);
  });

  it("stays small for points years apart (hostile times), thinning instead of making every second", async () => {
    const lines = [request("A", 10, "2001-01-01T00:00:00Z"), request("A", 10, "2026-01-01T00:00:00Z")];
    const started = performance.now();
    const run = await parseK6Ndjson(streamTextLines(lines.join("\n")));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(run.aggregate.timeline?.length).toBeLessThanOrEqual(MAX_TIMELINE_POINTS);
    expect(run.endpoints[0]?.timeline).toHaveLength(2);
  });

  it("refuses a bad line in the middle of a timeline, naming it", async () => {
    const text = [request("A", 10, at(0)), request("A", 10, at(1)), point("http_reqs", 1, { name: "A" }, "yesterday"), request("A", 10, at(2))].join("\n");
    const error = await errorOfAsync(() => parseK6Ndjson(streamTextLines(text)));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("line 7: data.time");
  });
});
