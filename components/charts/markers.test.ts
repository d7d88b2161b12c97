import { describe, expect, it } from "vitest";
import { numberMarkers } from "./markers";

describe("numberMarkers", () => {
  it("numbers positions left to right, one number per x, each text once", () => {
    const numbered = numberMarkers([
      { x: 30, text: "◆ Incident #2 (Open): p95 +93%", color: "red", href: "/projects/p/incidents/2" },
      { x: 10, text: "📌 pinned", color: "blue" },
      { x: 30, text: "✎ deployed v2.3", color: "grey" },
      { x: 30, text: "◆ Incident #2 (Open): p95 +93%", color: "red", href: "/projects/p/incidents/2" },
    ]);
    expect(numbered).toEqual([
      { number: 1, x: 10, color: "blue", items: [{ text: "📌 pinned", href: null }] },
      {
        number: 2,
        x: 30,
        color: "red",
        items: [
          { text: "◆ Incident #2 (Open): p95 +93%", href: "/projects/p/incidents/2" },
          { text: "✎ deployed v2.3", href: null },
        ],
      },
    ]);
    expect(numberMarkers([])).toEqual([]);
  });
});
