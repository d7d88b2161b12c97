import { describe, expect, it } from "vitest";
import { byLargestChange, summarizeStep } from "./summary";

describe("summarizeStep", () => {
  it("puts the largest |Δ| first, an improvement's size counted as a regression's, and counts endpoints with the aggregate as one", () => {
    const rows = [
      { id: "a", deltaPct: 12, endpointId: 1 },
      { id: "b", deltaPct: -40, endpointId: null },
      { id: "c", deltaPct: 30, endpointId: 1 },
      { id: "d", deltaPct: 5, endpointId: 2 },
    ];
    expect(byLargestChange(rows).map((row) => row.id)).toEqual(["b", "c", "a", "d"]);
    expect(summarizeStep(rows)).toEqual({ largest: rows[1], changes: 4, endpoints: 3 });
    expect(summarizeStep([])).toEqual({ largest: null, changes: 0, endpoints: 0 });
  });
});
