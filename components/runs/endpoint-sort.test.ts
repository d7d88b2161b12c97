import { describe, expect, it } from "vitest";
import type { SortableRow } from "./endpoint-sort";
import { nextSortState, parseSortState, sortEndpointRows, withSortParams } from "./endpoint-sort";

function row(name: string, p95Ms: number | null, requests: number | null = 10): SortableRow {
  return {
    name,
    requests,
    requestsPerSecond: null,
    meanMs: null,
    p50Ms: null,
    p90Ms: null,
    p95Ms,
    p99Ms: null,
    maxMs: null,
    failures: null,
    errorRate: null,
  };
}

const rows = [row("GetListing", 0.87), row("SearchListings", null), row("ListListings", 2.5), row("getAll", 0.87)];

describe("sortEndpointRows", () => {
  it("keeps the upload order without a sort", () => {
    expect(sortEndpointRows(rows, null).map((r) => r.name)).toEqual(["GetListing", "SearchListings", "ListListings", "getAll"]);
  });

  it("sorts numbers descending with missing values last and ties in upload order", () => {
    const sorted = sortEndpointRows(rows, { key: "p95", direction: "desc" });
    expect(sorted.map((r) => r.name)).toEqual(["ListListings", "GetListing", "getAll", "SearchListings"]);
  });

  it("sorts numbers ascending with missing values still last", () => {
    const sorted = sortEndpointRows(rows, { key: "p95", direction: "asc" });
    expect(sorted.map((r) => r.name)).toEqual(["GetListing", "getAll", "ListListings", "SearchListings"]);
  });

  it("sorts names case-insensitively", () => {
    const sorted = sortEndpointRows(rows, { key: "name", direction: "asc" });
    expect(sorted.map((r) => r.name)).toEqual(["getAll", "GetListing", "ListListings", "SearchListings"]);
  });

  it("does not mutate its input", () => {
    const copy = [...rows];
    sortEndpointRows(rows, { key: "p95", direction: "desc" });
    expect(rows).toEqual(copy);
  });
});

describe("sort state in the URL", () => {
  it("reads ?sort=p95&dir=asc", () => {
    expect(parseSortState(new URLSearchParams("sort=p95&dir=asc"))).toEqual({ key: "p95", direction: "asc" });
  });

  it("defaults the direction per column and ignores unknown keys", () => {
    expect(parseSortState(new URLSearchParams("sort=p99"))).toEqual({ key: "p99", direction: "desc" });
    expect(parseSortState(new URLSearchParams("sort=name&dir=sideways"))).toEqual({ key: "name", direction: "asc" });
    expect(parseSortState(new URLSearchParams("sort=constructor"))).toBeNull();
    expect(parseSortState(new URLSearchParams(""))).toBeNull();
  });

  it("flips the same column and starts a new one in its default direction", () => {
    expect(nextSortState(null, "p95")).toEqual({ key: "p95", direction: "desc" });
    expect(nextSortState({ key: "p95", direction: "desc" }, "p95")).toEqual({ key: "p95", direction: "asc" });
    expect(nextSortState({ key: "p95", direction: "asc" }, "name")).toEqual({ key: "name", direction: "asc" });
  });

  it("writes the sort and keeps other parameters", () => {
    expect(withSortParams("?hist=GetListing", { key: "p95", direction: "desc" })).toBe("?hist=GetListing&sort=p95&dir=desc");
    expect(withSortParams("?sort=p95&dir=desc", null)).toBe("");
  });
});
