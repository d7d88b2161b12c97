import { describe, expect, it } from "vitest";
import { findIncidentOfStep } from "./grouping";

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
