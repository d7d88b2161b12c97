import { describe, expect, it } from "vitest";
import { headroomOf } from "./headroom";

describe("headroomOf", () => {
  it("lower is better: threshold / value, as a factor from 2×", () => {
    expect(headroomOf(1.85, "<=", 50, true)).toEqual({ ratio: 50 / 1.85, label: "27× under target" });
    expect(headroomOf(20, "<=", 50, true).label).toBe("2.5× under target");
  });

  it("lower is better: as a share of the threshold when close, either side", () => {
    expect(headroomOf(37, "<=", 50, true).label).toBe("26% under target");
    expect(headroomOf(56, "<=", 50, false).label).toBe("12% over target");
    expect(headroomOf(50.2, "<=", 50, false).label).toBe("0.4% over target");
    expect(headroomOf(150, "<=", 50, false)).toEqual({ ratio: 1 / 3, label: "3× over target" });
  });

  it("higher is better: value / threshold", () => {
    expect(headroomOf(1200, ">=", 900, true)).toEqual({ ratio: 1200 / 900, label: "33% above target" });
    expect(headroomOf(800, ">=", 900, false).label).toBe("11% below target");
    expect(headroomOf(3000, ">", 900, true).label).toBe("3.3× above target");
    expect(headroomOf(300, ">", 900, false).label).toBe("3× below target");
  });

  it("on the line, and the zero and negative edge cases", () => {
    expect(headroomOf(50, "<=", 50, true)).toEqual({ ratio: 1, label: "at target" });
    expect(headroomOf(0, "<=", 0.01, true)).toEqual({ ratio: null, label: "zero, under target" });
    expect(headroomOf(0.02, "<=", 0, false)).toEqual({ ratio: 0, label: "over a zero target" });
    expect(headroomOf(0, "<=", 0, true)).toEqual({ ratio: 1, label: "at target" });
    expect(headroomOf(0, ">=", 900, false)).toEqual({ ratio: 0, label: "zero, below target" });
    expect(headroomOf(-3, "<=", 0, true)).toEqual({ ratio: null, label: "within target" });
  });
});
