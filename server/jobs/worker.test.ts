import { describe, expect, it } from "vitest";
import { JOB_NAMES } from "../services/platform";
import { MAX_REST_MS, restAfterJob } from "./worker";

describe("a worker's rest after a job", () => {
  it("the coalescing queues rest twice the job's time (rollups at least 5 s), up to MAX_REST_MS; the others take the next job at once", () => {
    const resting = JOB_NAMES.filter((name) => restAfterJob(name, 100) > 0);
    expect(resting.sort()).toEqual(["detect-regressions", "refresh-rollups"]);
    expect(restAfterJob("detect-regressions", 250)).toBe(500);
    // Rollups rest at least 5 s: the page reads a pending week raw meanwhile.
    expect(restAfterJob("refresh-rollups", 40)).toBe(5_000);
    expect(restAfterJob("refresh-rollups", 4_000)).toBe(8_000);
    expect(restAfterJob("detect-regressions", 60_000)).toBe(MAX_REST_MS);
    expect(restAfterJob("deliver-webhook", 250)).toBe(0);
    expect(restAfterJob("detect-regressions", 0)).toBe(0);
  });
});
