import { describe, expect, it } from "vitest";
import { pagePaths } from "@/server/domain/urls";
import {
  DEFAULT_CAPACITY_VIEW,
  capacityLinesOf,
  capacityQueryInput,
  parseCapacityView,
  serializeCapacityView,
} from "./capacity-view";

describe("capacity view in the URL", () => {
  it("defaults to the run aggregate, the default series, one curve, throughput on x", () => {
    expect(parseCapacityView(new URLSearchParams())).toEqual(DEFAULT_CAPACITY_VIEW);
    expect(serializeCapacityView(DEFAULT_CAPACITY_VIEW)).toBe("");
  });

  it("reads and writes every field, round-tripping", () => {
    const query =
      "endpoint=GetListing&protocol=grpc&tool=ghz&label=capacity&base=branch%3Amain&head=branch%3Afeature%2Fasync&load=concurrency&x=load&lines=p50%2Cp99";
    const view = parseCapacityView(new URLSearchParams(query));
    expect(view).toEqual({
      endpoint: "GetListing",
      protocol: "grpc",
      tool: "ghz",
      label: "capacity",
      base: "branch:main",
      head: "branch:feature/async",
      load: "concurrency",
      x: "load",
      lines: ["p50", "p99"],
    });
    expect(serializeCapacityView(view)).toBe(query);
  });

  it("spells the series without a label as an empty label, apart from the default series", () => {
    const unlabeled = parseCapacityView(new URLSearchParams("tool=k6&label="));
    expect(unlabeled.label).toBeNull();
    expect(serializeCapacityView(unlabeled)).toBe("tool=k6&label=");
    expect(capacityQueryInput("listings", unlabeled)).toMatchObject({ tool: "k6", label: null });
    expect(capacityQueryInput("listings", DEFAULT_CAPACITY_VIEW)).not.toHaveProperty("label");
  });

  it("falls back to defaults for what it does not know", () => {
    expect(parseCapacityView({ load: "threads", x: "sideways", lines: "p90,mean", base: " " })).toEqual(
      DEFAULT_CAPACITY_VIEW,
    );
  });

  it("draws p50, p95 and p99 for one curve, p95 alone for two, unless asked", () => {
    expect(capacityLinesOf(DEFAULT_CAPACITY_VIEW, false)).toEqual(["p50", "p95", "p99"]);
    expect(capacityLinesOf(DEFAULT_CAPACITY_VIEW, true)).toEqual(["p95"]);
    expect(capacityLinesOf({ ...DEFAULT_CAPACITY_VIEW, lines: ["p99"] }, true)).toEqual(["p99"]);
  });

  it("is the project's capacity path", () => {
    expect(
      pagePaths.capacity(
        "listings",
        serializeCapacityView({ ...DEFAULT_CAPACITY_VIEW, endpoint: "GET /api/listings/:id" }),
      ),
    ).toBe("/projects/listings/capacity?endpoint=GET+%2Fapi%2Flistings%2F%3Aid");
    expect(pagePaths.capacity("listings")).toBe("/projects/listings/capacity");
  });
});
