import { describe, expect, it } from "vitest";
import type { SeriesChange, SeriesRun } from "./baseline-window";
import { BASELINE_CAP, chooseBaselineWindow } from "./baseline-window";

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
/** Runs r<day>, one a day, newest first as the service reads them; `failed` days regressed at upload. */
function runs(days: number, failed: readonly number[] = []): SeriesRun[] {
  return Array.from({ length: days }, (_, index) => days - index).map((day) => ({
    id: `r${day}`,
    startedAt: at(day),
    uploadedAt: at(day),
    regressed: failed.includes(day),
  }));
}
const change = (kind: SeriesChange["kind"], status: SeriesChange["status"], day: number, decidedDay: number | null): SeriesChange => ({
  kind,
  status,
  at: at(day),
  firstRunId: kind === "marker" ? null : `r${day}`,
  decidedAt: decidedDay === null ? null : at(decidedDay),
  summary: `${kind} at day ${day}`,
});

describe("chooseBaselineWindow", () => {
  it("takes the series' newest runs up to the cap, and the rest before nothing", () => {
    const window = chooseBaselineWindow(runs(60), [], "series");
    expect(window.runIds).toHaveLength(BASELINE_CAP);
    expect(window.runIds[0]).toBe("r60");
    expect(window.runIds.at(-1)).toBe("r31");
    expect(window.beyondCap).toBe(30);
    expect(window.noiseOnlyRunIds).toEqual([]);
  });

  it("starts at the last change marker; the runs before it only lend their noise", () => {
    const window = chooseBaselineWindow(runs(20), [change("marker", null, 15, 15)], "series");
    expect(window.runIds).toEqual(["r20", "r19", "r18", "r17", "r16", "r15"]);
    expect(window.since?.kind).toBe("marker");
    expect(window.noiseOnlyRunIds[0]).toBe("r14");
    expect(window.noiseOnlyRunIds).toHaveLength(14); // every run before it, up to the cap in all
  });

  it("stops before an open regression on the series itself: a step is not averaged in", () => {
    // The step at day 11 failed the gate and every run after it too; detection opened a regression at 11.
    const window = chooseBaselineWindow(runs(15, [11, 12, 13, 14, 15]), [change("regression", "open", 11, null)], "series");
    expect(window.runIds).toEqual(["r10", "r9", "r8", "r7", "r6", "r5", "r4", "r3", "r2", "r1"]);
    expect(window.openRegression?.summary).toBe("regression at day 11");
  });

  it("leaves out runs that failed the gate before detection confirmed anything", () => {
    const window = chooseBaselineWindow(runs(12, [11, 12]), [], "series");
    expect(window.runIds[0]).toBe("r10");
    expect(window.failedLeftOut).toBe(2);
  });

  it("takes back a lone failure once a later run did not regress: it was a false alarm, not a step", () => {
    const window = chooseBaselineWindow(runs(12, [9, 11]), [], "series");
    // r12 did not regress, so neither r11 nor r9 is a streak any more.
    expect(window.runIds[0]).toBe("r12");
    expect(window.runIds).toContain("r11");
    expect(window.runIds).toContain("r9");
    expect(window.failedLeftOut).toBe(0);
    // While the failures are the newest runs, they stay out.
    const streak = chooseBaselineWindow(runs(12, [8, 11, 12]), [], "series");
    expect(streak.runIds[0]).toBe("r10");
    expect(streak.runIds).toContain("r8");
    expect(streak.failedLeftOut).toBe(2);
  });

  it("makes the new level the baseline once the regression is acknowledged (its failed runs included)", () => {
    const window = chooseBaselineWindow(runs(15, [11, 12, 13, 14]), [change("regression", "acknowledged", 11, 15)], "series");
    expect(window.runIds).toEqual(["r15", "r14", "r13", "r12", "r11"]);
    expect(window.openRegression).toBeNull();
    expect(window.failedLeftOut).toBe(0);
  });

  it("spans a dismissed regression (noise), its failed runs covered by the dismissal", () => {
    const window = chooseBaselineWindow(runs(12, [11]), [change("regression", "dismissed", 11, 12)], "series");
    expect(window.runIds).toHaveLength(12);
    expect(window.since).toBeNull();
  });

  it("still leaves out a run that failed after the triage: it is a new failure", () => {
    const window = chooseBaselineWindow(runs(16, [11, 16]), [change("regression", "acknowledged", 11, 12)], "series");
    expect(window.runIds).toEqual(["r15", "r14", "r13", "r12", "r11"]);
    expect(window.failedLeftOut).toBe(1);
  });

  it("starts at a recorded improvement: the faster level is the new normal", () => {
    const window = chooseBaselineWindow(runs(12), [change("improvement", "open", 9, null)], "series");
    expect(window.runIds).toEqual(["r12", "r11", "r10", "r9"]);
  });

  it("judges a pull request against the regime it branched from: an open regression starts it, failed runs count", () => {
    const window = chooseBaselineWindow(runs(15, [11, 12, 13]), [change("regression", "open", 11, null)], "pull-request");
    expect(window.runIds).toEqual(["r15", "r14", "r13", "r12", "r11"]);
    expect(window.openRegression).toBeNull();
    expect(window.failedLeftOut).toBe(0);
  });
});
