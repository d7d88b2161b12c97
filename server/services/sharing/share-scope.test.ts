import { describe, expect, it } from "vitest";
import { readTargetOfPage, shareCovers, shareReadTarget } from "../access/auth";
import type { ShareScope } from "../access/sessions";

describe("what a share link opens", () => {
  const compare: ShareScope = { kind: "compare", project: "shop", base: "r1,r2", head: "r3", tool: null };
  const run: ShareScope = { kind: "run", project: "shop", runId: "r3" };
  const page = (path: string) => readTargetOfPage(new URL(path, "http://bench.test"));

  it("its comparison page and preview image, whatever view state rides along", () => {
    expect(shareCovers(compare, page("/projects/shop/compare?base=r1%2Cr2&head=r3&share=x&metric=p99"))).toBe(true);
    expect(shareCovers(compare, page("/projects/shop/compare/og?base=r1,r2&head=r3"))).toBe(true);
  });

  it("the run pages of the runs it names, and the comparison narrowed to one tool (a subset of its runs)", () => {
    for (const id of ["r1", "r2", "r3"]) expect(shareCovers(compare, page(`/projects/shop/runs/${id}?share=x`))).toBe(true);
    expect(shareCovers(compare, page("/projects/shop/compare?base=r1%2Cr2&head=r3&tool=k6"))).toBe(true);
  });

  it("no other comparison, run, project page or project", () => {
    expect(shareCovers(compare, page("/projects/shop/compare?base=r1&head=r3"))).toBe(false);
    expect(shareCovers(compare, page("/projects/other/compare?base=r1%2Cr2&head=r3"))).toBe(false);
    expect(shareCovers(compare, page("/projects/shop"))).toBe(false);
    expect(shareCovers(compare, page("/projects/shop/runs/r4"))).toBe(false);
    expect(shareCovers(compare, page("/projects/other/runs/r3"))).toBe(false);
    expect(shareCovers(compare, page("/projects/shop/runs"))).toBe(false);
    expect(shareCovers(compare, page("/projects/shop/endpoints/_all"))).toBe(false);
    expect(shareCovers(compare, page("/projects/shop/settings"))).toBe(false);
    expect(shareCovers(compare, page("/"))).toBe(false);
    // A link of one tool's comparison does not open the comparison of every tool.
    const oneTool: ShareScope = { ...compare, tool: "k6" };
    expect(shareCovers(oneTool, page("/projects/shop/compare?base=r1%2Cr2&head=r3"))).toBe(false);
    expect(shareCovers(oneTool, page("/projects/shop/compare?base=r1%2Cr2&head=r3&tool=wrk"))).toBe(false);
  });

  it("a comparison named by selectors opens no run page (links minted here are pinned to run ids)", () => {
    const bySelector: ShareScope = { kind: "compare", project: "shop", base: "label:baseline", head: "branch:r3", tool: null };
    expect(shareCovers(bySelector, page("/projects/shop/compare?base=label%3Abaseline&head=branch%3Ar3"))).toBe(true);
    expect(shareCovers(bySelector, page("/projects/shop/runs/r3"))).toBe(false);
    expect(shareCovers(bySelector, page("/projects/shop/runs/baseline"))).toBe(false);
  });

  it("a run link opens that run's page only", () => {
    expect(shareCovers(run, page("/projects/shop/runs/r3?share=x"))).toBe(true);
    expect(shareCovers(run, page("/projects/shop/runs/r2"))).toBe(false);
    expect(shareCovers(run, page("/projects/shop/runs/r3/raw"))).toBe(false);
    expect(shareCovers(run, page("/projects/shop/runs"))).toBe(false);
    expect(shareCovers(run, page("/projects/shop/compare?base=r2&head=r3"))).toBe(false);
  });

  it("a procedure's declared read, from its input, the same way as a page's", () => {
    const input = (fields: Record<string, string>) => (name: string) => fields[name] ?? null;
    expect(shareCovers(compare, shareReadTarget("compare", input({ project: "shop", base: "r1,r2", head: "r3" })))).toBe(true);
    expect(shareCovers(run, shareReadTarget("run", input({ project: "shop", id: "r3" })))).toBe(true);
    expect(shareCovers(run, shareReadTarget("project", input({ project: "shop" })))).toBe(true);
    expect(shareCovers(run, shareReadTarget("project", input({ project: "other" })))).toBe(false);
    // A comparison's run, through the run procedure or the REST reads of the run (JSON, raw, verdict).
    expect(shareCovers(compare, shareReadTarget("run", input({ project: "shop", id: "r2" })))).toBe(true);
    expect(shareCovers(compare, shareReadTarget("run", input({ project: "shop", id: "r9" })))).toBe(false);
    // Undeclared, or without the fields its read needs: nothing a share link covers.
    expect(shareReadTarget(undefined, input({ project: "shop", id: "r3" }))).toEqual({ kind: "any" });
    expect(shareReadTarget("compare", input({ project: "shop", base: "r1,r2" }))).toEqual({ kind: "any" });
    expect(shareReadTarget("run", input({ id: "r3" }))).toEqual({ kind: "any" });
  });
});
