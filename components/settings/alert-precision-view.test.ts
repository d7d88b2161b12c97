import { describe, expect, it } from "vitest";
import { computeAlertPrecision } from "@/server/domain/incidents/precision";
import type { PrecisionIncident } from "@/server/domain/incidents/precision";
import { describeCounts, formatInterval, precisionHeadline, toPrecisionBars } from "./alert-precision-view";

const at = (month: number) => new Date(Date.UTC(2026, month - 1, 15));

describe("the alert precision panel's words", () => {
  it("gives valid, invalid and closed, the share and its Wilson interval", () => {
    const incidents: PrecisionIncident[] = [
      ...Array.from({ length: 6 }, () => ({ state: "accepted" as const, detectorVersion: 2, closedAt: at(11) })),
      { state: "fixed", detectorVersion: 1, closedAt: at(10) },
      { state: "invalid", detectorVersion: 1, closedAt: at(10) },
      { state: "open", detectorVersion: 2, closedAt: null },
    ];
    const precision = computeAlertPrecision(incidents);
    // 7 of 8: Wilson's 95% interval is 52.9–97.8% (by hand: centre (0.875 + z²/16) / (1 + z²/8) = 0.7534, half-width 0.2242).
    expect(precisionHeadline(precision)).toBe("Alert precision: 7 valid / 1 invalid of 8 closed (87.5%, 95% CI 52.9–97.8%)");
    expect(describeCounts(precision.byDetectorVersion[0]!)).toBe("1 valid / 1 invalid of 2 closed (50.0%, 95% CI 9.5–90.5%)");
    expect(toPrecisionBars(precision.byMonth)).toEqual([
      { month: "2026-10", valid: 1, invalid: 1, text: "50.0% (1 of 2)" },
      { month: "2026-11", valid: 6, invalid: 0, text: "100.0% (6 of 6)" },
    ]);
    expect(formatInterval({ low: 0.2065, high: 1 })).toBe("20.7–100%");
  });

  it("says why there is no precision yet", () => {
    expect(precisionHeadline(computeAlertPrecision([]))).toBe(
      "Alert precision: not measured yet. No incidents yet: precision is measured on incidents that have been closed.",
    );
    expect(precisionHeadline(computeAlertPrecision([{ state: "investigating", detectorVersion: 2, closedAt: null }]))).toBe(
      "Alert precision: not measured yet. No incident closed yet (1 still open or investigating): precision is measured on closed incidents.",
    );
    expect(describeCounts({ closed: 0, valid: 0, invalid: 0, precision: null, interval: null })).toBe("none closed");
  });
});
