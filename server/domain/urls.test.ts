import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "./run";
import { absoluteUrl, apiPaths, commitUrl, compareCommitsUrl, compareSearch, pagePaths, pullRequestUrl, safeHttpUrl } from "./urls";

describe("pagePaths", () => {
  it("encodes every segment once", () => {
    expect(pagePaths.project("a b")).toBe("/projects/a%20b");
    expect(pagePaths.run("listings", "x/y")).toBe("/projects/listings/runs/x%2Fy");
    expect(pagePaths.endpoint("listings", "GET /api/listings/:id")).toBe("/projects/listings/endpoints/GET%20%2Fapi%2Flistings%2F%3Aid");
  });

  it("names the aggregate _all in trend links, whichever spelling it is given in", () => {
    expect(pagePaths.endpoint("listings", null)).toBe("/projects/listings/endpoints/_all");
    expect(pagePaths.endpoint("listings", AGGREGATE_NAME, "x=order")).toBe("/projects/listings/endpoints/_all?x=order");
    expect(pagePaths.endpoint("listings", "_all")).toBe("/projects/listings/endpoints/_all");
    // An endpoint is its name and protocol: a known protocol rides in the query, first.
    expect(pagePaths.endpoint("listings", { name: "GetListing", protocol: "grpc" }, "x=order")).toBe(
      "/projects/listings/endpoints/GetListing?protocol=grpc&x=order",
    );
    expect(pagePaths.endpoint("listings", { name: "GetListing", protocol: null })).toBe("/projects/listings/endpoints/GetListing");
    expect(pagePaths.endpoint("listings", { name: "(all)", protocol: "http" })).toBe("/projects/listings/endpoints/_all");
  });

  it("keeps run-id lists readable in comparison links and encodes selectors", () => {
    expect(pagePaths.compare("listings", { base: ["b1", "b2"], head: ["h1"] })).toBe("/projects/listings/compare?base=b1,b2&head=h1");
    expect(pagePaths.compare("listings", { base: "b1,b2", head: "h1" })).toBe("/projects/listings/compare?base=b1,b2&head=h1");
    expect(pagePaths.compare("listings", { base: "label:baseline", head: "label:Managed Async", last: 5, test: "welch" })).toBe(
      "/projects/listings/compare?base=label%3Abaseline&head=label%3AManaged%20Async&last=5&test=welch",
    );
    expect(pagePaths.compare("listings")).toBe("/projects/listings/compare");
  });

  it("round-trips a comparison query through URLSearchParams", () => {
    const params = new URLSearchParams(compareSearch({ base: ["a", "b"], head: "branch:feature/x,y", metric: "p95" }));
    expect(params.get("base")).toBe("a,b");
    expect(params.get("head")).toBe("branch:feature/x,y");
    expect(params.get("metric")).toBe("p95");
  });

  it("anchors a regression in its inbox", () => {
    expect(pagePaths.regression("listings", "r1")).toBe("/projects/listings/incidents#regression-r1");
    expect(pagePaths.incidents("listings", "state=all")).toBe("/projects/listings/incidents?state=all");
  });
});

describe("apiPaths and absoluteUrl", () => {
  it("builds the REST paths", () => {
    expect(apiPaths.run("listings", "r1")).toBe("/api/v1/projects/listings/runs/r1");
    expect(apiPaths.runRaw("listings", "r1")).toBe("/api/v1/projects/listings/runs/r1/raw");
    expect(apiPaths.runRaw("listings", "r1", 2)).toBe("/api/v1/projects/listings/runs/r1/raw?file=2");
    expect(apiPaths.compare("listings", { base: "a", head: "b" })).toBe("/api/v1/projects/listings/compare?base=a&head=b");
  });

  it("puts the base URL in front, with one slash", () => {
    expect(absoluteUrl("https://bench.example.com/", pagePaths.project("x"))).toBe("https://bench.example.com/projects/x");
  });
});

describe("links to outside", () => {
  it("links only http(s) URLs", () => {
    expect(safeHttpUrl("https://ci.example.com/1")).toBe("https://ci.example.com/1");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });

  it("links commits and pull requests on known hosts only", () => {
    expect(commitUrl("https://github.com/example/listings/", "9f1c2e7")).toBe("https://github.com/example/listings/commit/9f1c2e7");
    expect(pullRequestUrl("https://github.com/example/listings", 47)).toBe("https://github.com/example/listings/pull/47");
    expect(pullRequestUrl("https://gitlab.com/example/listings", 47)).toBe("https://gitlab.com/example/listings/-/merge_requests/47");
    expect(pullRequestUrl("https://git.example.com/listings", 47)).toBeNull();
  });

  it("links the diff between two commits, GitHub and GitLab style, on known hosts only", () => {
    expect(compareCommitsUrl("https://github.com/example/listings/", "9f1c2e7", "4b1d2aa")).toBe("https://github.com/example/listings/compare/9f1c2e7...4b1d2aa");
    expect(compareCommitsUrl("https://gitlab.com/example/listings", "9f1c2e7", "4b1d2aa")).toBe("https://gitlab.com/example/listings/-/compare/9f1c2e7...4b1d2aa");
    expect(compareCommitsUrl("https://github.com/example/listings", "a/b", "c?d")).toBe("https://github.com/example/listings/compare/a%2Fb...c%3Fd");
    expect(compareCommitsUrl("https://git.example.com/listings", "9f1c2e7", "4b1d2aa")).toBeNull();
  });
});
