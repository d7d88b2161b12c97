import { describe, expect, it } from "vitest";
import { findIncidentOfStep, isBackAtLevel } from "./grouping";

const runs = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"];

describe("findIncidentOfStep", () => {
  it("joins the incident opened at the same run", () => {
    expect(findIncidentOfStep([{ id: "a", firstRunId: "r5" }], "r5", runs)?.id).toBe("a");
  });

  it("joins the nearest incident within three runs of the series, and none further away", () => {
    const incidents = [
      { id: "far", firstRunId: "r1" },
      { id: "near", firstRunId: "r6" },
      { id: "nearer", firstRunId: "r4" },
    ];
    expect(findIncidentOfStep(incidents, "r5", runs)?.id).toBe("near");
    expect(findIncidentOfStep([{ id: "far", firstRunId: "r1" }], "r5", runs)).toBeNull();
    expect(findIncidentOfStep([{ id: "edge", firstRunId: "r2" }], "r5", runs)?.id).toBe("edge");
  });

  it("does not join an incident outside the series", () => {
    expect(findIncidentOfStep([{ id: "other", firstRunId: "x9" }], "r5", runs)).toBeNull();
  });
});

describe("isBackAtLevel", () => {
  it("is back within the minimum effect of the level before the step, or past it", () => {
    // Latency stepped 100 → 150: back at 104 (within 5%) or 90; not at 140 (a partial undo).
    expect(isBackAtLevel({ beforeValue: 100, afterValue: 150 }, 104, 5)).toBe(true);
    expect(isBackAtLevel({ beforeValue: 100, afterValue: 150 }, 90, 5)).toBe(true);
    expect(isBackAtLevel({ beforeValue: 100, afterValue: 150 }, 140, 5)).toBe(false);
    // Throughput fell 1000 → 700: back at 960, not at 800.
    expect(isBackAtLevel({ beforeValue: 1000, afterValue: 700 }, 960, 5)).toBe(true);
    expect(isBackAtLevel({ beforeValue: 1000, afterValue: 700 }, 800, 5)).toBe(false);
  });
});
