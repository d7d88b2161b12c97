import { describe, expect, it } from "vitest";
import { JOB_NAMES } from "../services/platform";
import { MAX_REST_MS, restAfterJob } from "./worker";

describe("a worker's rest after a job", () => {
  it("the coalescing queues rest twice the job's time, up to MAX_REST_MS; the others take the next job at once", () => {
    const resting = JOB_NAMES.filter((name) => restAfterJob(name, 100) > 0);
    expect(resting.sort()).toEqual(["detect-regressions", "refresh-rollups"]);
    expect(restAfterJob("detect-regressions", 250)).toBe(500);
    expect(restAfterJob("refresh-rollups", 40)).toBe(80);
    expect(restAfterJob("detect-regressions", 60_000)).toBe(MAX_REST_MS);
    expect(restAfterJob("deliver-webhook", 250)).toBe(0);
    expect(restAfterJob("detect-regressions", 0)).toBe(0);
  });
});
