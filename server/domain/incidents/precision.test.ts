import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../stats/random";
import { computeAlertPrecision, wilsonInterval } from "./precision";

const at = (iso: string) => new Date(iso);

describe("computeAlertPrecision", () => {
  it("says why there is no precision before anything is closed", () => {
    expect(computeAlertPrecision([]).precision).toBeNull();
    expect(computeAlertPrecision([]).reason).toMatch(/No incidents yet/);
    const open = computeAlertPrecision([{ state: "open", detectorVersion: 2, closedAt: null }, { state: "investigating", detectorVersion: 2, closedAt: null }]);
    expect(open).toMatchObject({ closed: 0, active: 2, precision: null, interval: null });
    expect(open.reason).toMatch(/2 still open or investigating/);
  });

  it("counts fixed, backed out and accepted as valid and invalid as noise, per detector version and month", () => {
    const result = computeAlertPrecision([
      { state: "accepted", detectorVersion: 2, closedAt: at("2026-11-03T10:00:00Z") },
      { state: "fixed", detectorVersion: 2, closedAt: at("2026-11-20T10:00:00Z") },
      { state: "backed_out", detectorVersion: 1, closedAt: at("2026-10-01T10:00:00Z") },
      { state: "invalid", detectorVersion: 1, closedAt: at("2026-10-02T10:00:00Z") },
      { state: "open", detectorVersion: 2, closedAt: null },
    ]);
    expect(result).toMatchObject({ closed: 4, valid: 3, invalid: 1, precision: 0.75, active: 1, reason: null });
    expect(result.byDetectorVersion.map(({ detectorVersion, valid, invalid }) => [detectorVersion, valid, invalid])).toEqual([
      [1, 1, 1],
      [2, 2, 0],
    ]);
    expect(result.byMonth.map(({ month, closed, precision }) => [month, closed, precision])).toEqual([
      ["2026-10", 2, 0.5],
      ["2026-11", 2, 1],
    ]);
  });
});

describe("wilsonInterval", () => {
  it("matches hand-computed values", () => {
    // 1 of 1: centre (1 + z²/2)/(1 + z²) = 0.6016, half-width z·sqrt(z²/4)/(1 + z²) = 0.3984.
    const one = wilsonInterval(1, 1)!;
    expect(one.low).toBeCloseTo(0.2065, 4);
    expect(one.high).toBeCloseTo(1, 6);
    // 8 of 10: 0.4902–0.9433 (Newcombe 1998, table I, method 3).
    const eight = wilsonInterval(8, 10)!;
    expect(eight.low).toBeCloseTo(0.4902, 3);
    expect(eight.high).toBeCloseTo(0.9433, 3);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it("covers the true share about 95% of the time", () => {
    // Seeded, so the check is repeatable: 4,000 trials of 30 alerts at a true precision of 0.7. The
    // exact coverage at n = 30, p = 0.7 is 0.930 (Wilson's oscillates around 95% with n and p).
    const seeded = createSeededRandom(42);
    const random = () => seeded.uniform();
    let covered = 0;
    const trials = 4000;
    for (let trial = 0; trial < trials; trial += 1) {
      let valid = 0;
      for (let alert = 0; alert < 30; alert += 1) if (random() < 0.7) valid += 1;
      const interval = wilsonInterval(valid, 30)!;
      if (interval.low <= 0.7 && 0.7 <= interval.high) covered += 1;
    }
    expect(covered / trials).toBeGreaterThan(0.91);
    expect(covered / trials).toBeLessThan(0.95);
  });
});
