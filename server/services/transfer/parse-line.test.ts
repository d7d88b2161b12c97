import { describe, expect, it } from "vitest";
import { ServiceError } from "../platform";
import { parseTransferLine } from "./parse-line";

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

const token = { kind: "token", id: "t1", name: "ci", prefix: "bt_k3f9", tokenHash: "a".repeat(64), createdAt: "2026-11-29T23:00:00.000Z", lastUsedAt: null, revokedAt: null };
const user = {
  kind: "user",
  id: "u1",
  issuer: "https://id.example.com",
  subject: "s1",
  email: "ada@example.com",
  name: "Ada",
  groups: ["perf"],
  serverAdmin: true,
  disabledAt: "2026-11-29T23:00:00.000Z",
  createdAt: "2026-11-29T23:00:00.000Z",
  lastSignInAt: null,
};
const project = {
  kind: "project",
  id: "p1",
  slug: "p",
  name: "P",
  description: null,
  defaultBranch: "main",
  repoUrl: null,
  isDemo: false,
  minEffectPct: 5,
  alpha: 0.01,
  gateMetric: "auto",
  failOn: ["regression"],
  webhookUrl: null,
  webhookFormat: "json",
  webhookDigest: "off",
  rawRetentionDays: null,
  createdAt: "2026-11-29T23:00:00.000Z",
  updatedAt: "2026-11-29T23:00:00.000Z",
  slaPolicy: null,
};
const member = { kind: "email", subject: "ada@example.com", role: "viewer", grantedBy: "admin token", createdAt: "2026-11-29T23:00:00.000Z", updatedAt: "2026-11-29T23:00:00.000Z" };

describe("parseTransferLine", () => {
  it("reads a token line written before scopes existed as all three scopes, never expiring", () => {
    expect(parseTransferLine(JSON.stringify(token), 3)).toMatchObject({ kind: "token", line: { scopes: ["upload", "read", "triage"] } });
    const line = parseTransferLine(JSON.stringify({ ...token, scopes: ["read"], expiresAt: "2026-12-29T23:00:00.000Z", createdBy: "admin token" }), 3);
    expect(line).toMatchObject({ line: { scopes: ["read"], expiresAt: "2026-12-29T23:00:00.000Z", createdBy: "admin token" } });
    expect(parseTransferLine(JSON.stringify(user), 2)).toMatchObject({ kind: "user", line: { serverAdmin: true, groups: ["perf"] } });
    // A project line from before access state: the server's default, no grants.
    expect(parseTransferLine(JSON.stringify(project), 2)).toMatchObject({ kind: "project", line: { visibility: null, members: [] } });
    expect(parseTransferLine(JSON.stringify({ ...project, visibility: "private", members: [member] }), 2)).toMatchObject({ line: { visibility: "private", members: [member] } });
  });


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
    ["a token scope that does not exist", JSON.stringify({ ...token, scopes: ["read", "admin"] }), "line 7: scopes[1]"],
    ["a token expiry that is not a time", JSON.stringify({ ...token, expiresAt: "in 30 days" }), "line 7: expiresAt"],
    ["a user disabled at no time", JSON.stringify({ ...user, disabledAt: "yes" }), "line 7: disabledAt"],
    ["a user without a subject", JSON.stringify({ ...user, subject: undefined }), "line 7: subject"],
    ["a grant of a role that does not exist", JSON.stringify({ ...project, members: [member, { ...member, role: "owner" }] }), "line 7: members[1].role"],
    ["a visibility that does not exist", JSON.stringify({ ...project, visibility: "secret" }), "line 7: visibility"],
  ])("refuses %s, naming the line and path", (_name, text, path) => {
    expect(refusal(text)).toEqual({ code: "bad_request", path });
  });

  it("names a path deep in a run", () => {
    const run = { kind: "run", results: [{}, { p95Ms: "fast" }] };
    expect(refusal(JSON.stringify(run)).path).toMatch(/^line 7: /);
  });
});
