import { describe, expect, it } from "vitest";
import { branchFilterOf, isDefaultBranchOnly, resolveTrendBranches } from "./trend-branches";

describe("resolveTrendBranches", () => {
  it("draws the default branch when the URL names none, every run when no run names a branch", () => {
    expect(resolveTrendBranches([], "main", ["feature/x", "main"])).toEqual({ kind: "some", branches: ["main"], why: "default" });
    expect(resolveTrendBranches([], "main", [])).toEqual({ kind: "every", why: "no-branch-data" });
  });

  it("takes the URL's branches in order, once each, none as the runs without a branch, all as every run", () => {
    expect(resolveTrendBranches(["feature/x", "main", "feature/x", "none"], "main", ["main"])).toEqual({
      kind: "some",
      branches: ["feature/x", "main", null],
      why: "asked",
    });
    expect(resolveTrendBranches(["main", "all"], "main", ["main"])).toEqual({ kind: "every", why: "asked" });
    expect(resolveTrendBranches(["a", "b", "c", "d", "e", "f"], "main", ["main"])).toMatchObject({ branches: ["a", "b", "c", "d", "e"] });
  });

  it("knows the default branch alone, and the filter a history reads", () => {
    const main = resolveTrendBranches([], "main", ["main"]);
    expect(isDefaultBranchOnly(main, "main")).toBe(true);
    expect(isDefaultBranchOnly(resolveTrendBranches(["main", "x"], "main", ["main"]), "main")).toBe(false);
    expect(branchFilterOf(main)).toEqual(["main"]);
    expect(branchFilterOf(resolveTrendBranches(["all"], "main", ["main"]))).toBeNull();
  });
});
