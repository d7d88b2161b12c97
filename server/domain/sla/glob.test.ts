import { describe, expect, it } from "vitest";
import { matchesGlob } from "./glob";

describe("matchesGlob", () => {
  it.each([
    ["GetListing", "GetListing", true],
    ["Get*", "GetListing", true],
    ["Get*", "Get", true],
    ["*Listing", "GetListing", true],
    ["*List*", "ListListings", true],
    ["Get?isting", "GetListing", true],
    ["Get?", "Get", false],
    ["get*", "GetListing", false], // case-sensitive
    ["GET /api/*/:id", "GET /api/listings/:id", true],
    ["*a*b*c", "xaybzc", true],
    ["*a*b*c", "xaybzcd", false],
    ["", "", true],
    ["*", "", true],
    ["", "x", false],
  ])("%j matches %j: %s", (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });

  it("treats regex syntax as literal text", () => {
    expect(matchesGlob("GET /a(b|c)+", "GET /a(b|c)+")).toBe(true);
    expect(matchesGlob("GET /a(b|c)+", "GET /abc")).toBe(false);
    expect(matchesGlob(".*", "anything")).toBe(false);
    expect(matchesGlob("[a-z]", "a")).toBe(false);
  });

  it("stays fast on patterns that make backtracking regexes explode", () => {
    const started = performance.now();
    expect(matchesGlob("*a*a*a*a*a*a*a*a*b", "a".repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
