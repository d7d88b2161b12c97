import { describe, expect, it } from "vitest";
import { ServiceError } from "../platform";
import { parseTransferLine } from "./import-lines";

// Each line of an import is checked by its kind's one schema; a refusal names the line and the path.

function refusal(text: string, lineNumber = 7): { code: string; path: string } {
  try {
    parseTransferLine(text, lineNumber);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { code: error.code, path: error.details[0]!.path };
  }
  throw new Error("accepted");
}

const header = { kind: "header", format: "benchtrack-export", version: 1, scope: "project", exportedAt: "2026-11-29T23:00:00.000Z", serverVersion: "0.1.0", project: "p" };
const endpoint = { kind: "endpoint", id: 3, name: "GET /", fullName: null, protocol: "http", method: "GET", createdAt: "2026-11-29T23:00:00.000Z" };

describe("parseTransferLine", () => {
  it("parses each kind by its schema", () => {
    expect(parseTransferLine(JSON.stringify(header), 1)).toMatchObject({ kind: "header", line: { version: 1 } });
    expect(parseTransferLine(JSON.stringify(endpoint), 2)).toMatchObject({ kind: "endpoint", line: { id: 3 } });
  });

  it.each([
    ["not JSON (a cut line)", '{"kind":"run","id":"a', "line 7"],
    ["not an object", "[1,2]", "line 7"],
    ["an unknown kind", JSON.stringify({ kind: "runz" }), "line 7: kind"],
    ["no kind", JSON.stringify({ id: 1 }), "line 7: kind"],
    ["a newer format version", JSON.stringify({ ...header, version: 2 }), "line 7: version"],
    ["a field of another kind", JSON.stringify({ ...endpoint, extra: true }), "line 7"],
    ["a wrong type", JSON.stringify({ ...endpoint, id: "3" }), "line 7: id"],
    ["a NUL character", JSON.stringify({ ...endpoint, name: "GET \u0000/" }), "line 7: name"],
    ["a time that is not ISO 8601", JSON.stringify({ ...endpoint, createdAt: "yesterday" }), "line 7: createdAt"],
  ])("refuses %s, naming the line and path", (_name, text, path) => {
    expect(refusal(text)).toEqual({ code: "bad_request", path });
  });

  it("names a path deep in a run", () => {
    const run = { kind: "run", results: [{}, { p95Ms: "fast" }] };
    expect(refusal(JSON.stringify(run)).path).toMatch(/^line 7: /);
  });
});
