import { describe, expect, it } from "vitest";
import { compressRounds, describeRunSet } from "./run-names";

const run = (label: string | null, round: number | null, branch: string | null = "main", commit: string | null = null) => ({ label, round, branch, commit });

describe("describeRunSet", () => {
  it("names rounds of a label on one branch and commit as people do", () => {
    const rounds = [5, 4, 3, 2, 1].map((round) => run("baseline", round, "main", "6bb136f0a1b2c3"));
    expect(describeRunSet(rounds)).toBe("baseline #1–5 on main@6bb136f");
    expect(describeRunSet([run("ManagedAsync", 1, "feature/managed-async"), run("ManagedAsync", 3, "feature/managed-async")])).toBe(
      "ManagedAsync #1, 3 on feature/managed-async",
    );
  });

  it("counts runs without rounds or labels, and says when branches differ", () => {
    expect(describeRunSet([run("nightly", null), run("nightly", null)])).toBe("nightly (2 runs) on main");
    expect(describeRunSet([run(null, null, "main"), run(null, null, "release")])).toBe("2 runs on 2 branches");
    expect(describeRunSet([run("a", 1), run("b", 1)])).toBe("a #1 + b #1 on main");
    expect(describeRunSet([run(null, null, null, "abcdef123456")])).toBe("1 run @abcdef1");
    expect(describeRunSet([])).toBe("no runs");
  });
});

describe("compressRounds", () => {
  it("writes consecutive rounds as ranges", () => {
    expect(compressRounds([1, 2, 3, 5, 7, 8])).toBe("1–3, 5, 7–8");
    expect(compressRounds([2])).toBe("2");
  });
});
