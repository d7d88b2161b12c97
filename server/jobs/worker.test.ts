import { describe, expect, it } from "vitest";
import { JOB_NAMES, trackUpload, uploadQuietMs } from "../services/platform";
import { LULL_MS, MAX_LULL_WAIT_MS, MAX_REST_MS, idlePauseMs, lullWaitMs, restAfterJob } from "./worker";

describe("an idle worker's pace", () => {
  it("looks again after the interval, then twice as long each empty look, up to 8 times the interval", () => {
    expect([1, 2, 3, 4, 5, 50].map((emptyLooks) => idlePauseMs(1000, emptyLooks))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(idlePauseMs(200, 1)).toBe(200);
  });
});

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

describe("a coalescing queue's wait for a lull in uploads", () => {
  it("detection and rollups wait until LULL_MS without an upload, MAX_LULL_WAIT_MS at most; the others never wait", () => {
    const waiting = JOB_NAMES.filter((name) => lullWaitMs(name, 0, 0) > 0);
    expect(waiting.sort()).toEqual(["detect-regressions", "refresh-rollups"]);
    expect(lullWaitMs("detect-regressions", 0, 0)).toBe(LULL_MS);
    expect(lullWaitMs("refresh-rollups", LULL_MS - 100, 0)).toBe(100);
    expect(lullWaitMs("detect-regressions", LULL_MS, 0)).toBe(0);
    expect(lullWaitMs("detect-regressions", 0, MAX_LULL_WAIT_MS - 200)).toBe(200);
    expect(lullWaitMs("detect-regressions", 0, MAX_LULL_WAIT_MS)).toBe(0);
    expect(lullWaitMs("deliver-webhook", 0, 0)).toBe(0);
  });

  it("an upload counts as in flight until it settles, failed or not; the quiet is counted from its end", async () => {
    let finish: () => void = () => undefined;
    const held = trackUpload(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(uploadQuietMs()).toBe(0);
    const failing = trackUpload(() => Promise.reject(new Error("refused")));
    await expect(failing).rejects.toThrow("refused");
    expect(uploadQuietMs(), "another upload is still in flight").toBe(0);
    finish();
    await held;
    const ended = performance.now();
    expect(uploadQuietMs(ended + 300)).toBeGreaterThanOrEqual(300);
    expect(uploadQuietMs(ended + 300)).toBeLessThan(300 + 50);
  });
});
