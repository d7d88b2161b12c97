import { describe, expect, it } from "vitest";
import { pagePaths } from "@/server/domain/urls";
import { DEFAULT_TREND_VIEW, parseTrendView, serializeTrendView, toggleTrendLine } from "./trend-view";

describe("trend view in the URL", () => {
  it("defaults to the four percentiles, time on x, no filters, the whole history", () => {
    expect(parseTrendView(new URLSearchParams())).toEqual(DEFAULT_TREND_VIEW);
    expect(serializeTrendView(DEFAULT_TREND_VIEW)).toBe("");
  });

  it("reads and writes every field, round-tripping", () => {
    const query =
      "protocol=grpc&lines=p50%2Cp95%2Cp99&x=order&branch=feature%2Fasync&branch=main&label=baseline&tool=k6&testbed=ci-4core&range=90d&overlay=pr%3A12";
    const view = parseTrendView(new URLSearchParams(query));
    expect(view).toEqual({
      lines: ["p50", "p95", "p99"],
      x: "order",
      branches: ["feature/async", "main"],
      label: "baseline",
      tool: "k6",
      testbed: "ci-4core",
      protocol: "grpc",
      range: "90d",
      overlay: "pr:12",
    });
    expect(serializeTrendView(view)).toBe(query);
  });

  it("accepts Next's searchParams object and ignores what it does not know", () => {
    expect(parseTrendView({ lines: ["mean,p99,bogus"], x: "sideways", range: "5y", branch: "" })).toEqual({
      ...DEFAULT_TREND_VIEW,
      lines: ["p99", "mean"],
    });
    expect(parseTrendView({ lines: "nothing" }).lines).toEqual(DEFAULT_TREND_VIEW.lines);
  });

  it("keeps each branch once, in the URL's order, from either form of the search params", () => {
    expect(parseTrendView(new URLSearchParams("branch=x&branch=main&branch=x&branch=")).branches).toEqual(["x", "main"]);
    expect(parseTrendView({ branch: ["all"] }).branches).toEqual(["all"]);
    expect(parseTrendView({ branch: "none" }).branches).toEqual(["none"]);
  });

  it("toggles a line keeping legend order", () => {
    expect(toggleTrendLine(["p50", "p99"], "p95")).toEqual(["p50", "p95", "p99"]);
    expect(toggleTrendLine(["p50", "p95", "p99"], "p95")).toEqual(["p50", "p99"]);
  });

  it("encodes endpoint names once in the trend page's path", () => {
    expect(pagePaths.endpoint("listings", "GET /api/listings/:id")).toBe(
      "/projects/listings/endpoints/GET%20%2Fapi%2Flistings%2F%3Aid",
    );
    expect(pagePaths.endpoint("listings", "_all", "x=order")).toBe("/projects/listings/endpoints/_all?x=order");
  });
});
