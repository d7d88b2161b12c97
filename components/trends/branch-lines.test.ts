import { describe, expect, it } from "vitest";
import { branchChartLines, branchField, splitByBranch } from "./branch-lines";

describe("one line per branch", () => {
  const points = [
    { runId: "a", branch: "main", p95Ms: 10, throughput: 100 },
    { runId: "b", branch: "feature/x", p95Ms: 30, throughput: 80 },
    { runId: "c", branch: null, p95Ms: 20, throughput: null },
    { runId: "d", branch: "main", p95Ms: 11, throughput: 101 },
  ];

  it("gives each branch its own fields, null on the other branches' runs", () => {
    const split = splitByBranch(points, ["main", "feature/x", null], ["p95Ms", "throughput"]);
    expect(split.map((point) => point[branchField(0, "p95Ms")])).toEqual([10, null, null, 11]);
    expect(split.map((point) => point[branchField(1, "p95Ms")])).toEqual([null, 30, null, null]);
    expect(split.map((point) => point[branchField(2, "p95Ms")])).toEqual([null, null, 20, null]);
    expect(split.map((point) => point[branchField(2, "throughput")])).toEqual([null, null, null, null]);
    // The run itself is kept (tooltip, click).
    expect(split[1]).toMatchObject({ runId: "b", branch: "feature/x", p95Ms: 30 });
  });

  it("names each line by its branch, one colour per branch, later lines of a branch dashed", () => {
    const format = (value: number | null) => String(value);
    const lines = branchChartLines(["main", null], [
      { dataKey: "p95Ms", name: "p95", color: "x", format },
      { dataKey: "p99Ms", name: "p99", color: "y", format },
    ]);
    expect(lines.map((line) => [line.dataKey, line.name, line.dashed])).toEqual([
      ["b0_p95Ms", "main p95", false],
      ["b0_p99Ms", "main p99", true],
      ["b1_p95Ms", "no branch p95", false],
      ["b1_p99Ms", "no branch p99", true],
    ]);
    expect(new Set(lines.map((line) => line.color)).size).toBe(2);
  });
});
