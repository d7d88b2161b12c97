import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type ParsedRun, type TimelinePoint } from "../run";
import { thinTimelines } from "./timeline";

function point(second: number): TimelinePoint {
  return {
    atMs: 1_795_339_200_000 + second * 1000,
    requestsPerSecond: second % 7,
    failuresPerSecond: 0,
    p50Ms: 5,
    p95Ms: 9,
    users: 10,
  };
}

function runWith(points: number): ParsedRun {
  const aggregate = {
    ...emptyEndpoint(AGGREGATE_NAME),
    timeline: Array.from({ length: points }, (_, second) => point(second)),
  };
  return { ...emptyRun("locust-csv", "locust"), aggregate };
}

describe("thinTimelines", () => {
  it("leaves a timeline within the limit as it is", () => {
    const run = runWith(100);
    expect(thinTimelines(run, 100)).toBe(run);
  });

  it("keeps one point in every k, first and last included, each as the tool wrote it, and says so", () => {
    const run = runWith(86_400);
    const thinned = thinTimelines(run, 3_600);
    const kept = thinned.aggregate.timeline!;
    expect(kept.length).toBeLessThanOrEqual(3_600);
    expect(kept[0]).toEqual(point(0));
    expect(kept.at(-1)).toEqual(point(86_399));
    const step = (kept[1]!.atMs - kept[0]!.atMs) / 1000;
    for (const entry of kept.slice(0, -1)) expect(entry).toEqual(point((entry.atMs - kept[0]!.atMs) / 1000));
    expect(thinned.notes).toEqual([
      `All endpoints: the timeline had 86400 points; one in every ${step} is kept (${kept.length}).`,
    ]);
  });
});
