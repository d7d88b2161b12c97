import { describe, expect, it } from "vitest";
import { numberMarkers } from "./markers";

describe("numberMarkers", () => {
  it("numbers positions left to right, one number per x, each text once", () => {
    const numbered = numberMarkers([
      { x: 30, text: "▲ regression p95 +93%", color: "red" },
      { x: 10, text: "📌 pinned", color: "blue" },
      { x: 30, text: "▲ regression p99 +42%", color: "red" },
      { x: 30, text: "▲ regression p95 +93%", color: "red" },
    ]);
    expect(numbered).toEqual([
      { number: 1, x: 10, color: "blue", texts: ["📌 pinned"] },
      { number: 2, x: 30, color: "red", texts: ["▲ regression p95 +93%", "▲ regression p99 +42%"] },
    ]);
    expect(numberMarkers([])).toEqual([]);
  });
});
