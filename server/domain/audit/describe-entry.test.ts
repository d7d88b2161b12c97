import { describe, expect, it } from "vitest";
import { describeAuditEntry, valueWords } from "./describe-entry";
import { AUDIT_ACTIONS, AUDIT_ACTION_WORDS, changedFields } from "./actions";

describe("changedFields", () => {
  it("keeps only the fields whose value changed, compared by content", () => {
    expect(changedFields({ name: "A", failOn: ["sla"], alpha: 0.01 }, { name: "B", failOn: ["sla"], alpha: undefined })).toEqual({
      from: { name: "A" },
      to: { name: "B" },
    });
    expect(changedFields({ failOn: ["sla"] }, { failOn: ["regression", "sla"] })).toEqual({ from: { failOn: ["sla"] }, to: { failOn: ["regression", "sla"] } });
  });
  it("is null when nothing changed; a missing old value reads as null", () => {
    expect(changedFields({ name: "A" }, { name: "A" })).toBeNull();
    expect(changedFields({}, { description: "x" })).toEqual({ from: { description: null }, to: { description: "x" } });
  });
});

describe("describeAuditEntry", () => {
  it("turns from/to into one line per field, in words", () => {
    const described = describeAuditEntry({
      action: "settings.update",
      targetId: null,
      detail: { from: { defaultBranch: "main", failOn: ["regression", "sla"], description: null }, to: { defaultBranch: "trunk", failOn: ["sla"], description: "API" } },
    });
    expect(described.headline).toBe("changed settings");
    expect(described.changes).toEqual([
      { field: "default branch", from: "main", to: "trunk" },
      { field: "fail on", from: "regression, sla", to: "sla" },
      { field: "description", from: "none", to: "API" },
    ]);
    expect(described.facts).toEqual([]);
  });

  it("leads with an incident's number and keeps its note", () => {
    const described = describeAuditEntry({ action: "incident.update", targetId: "x", detail: { number: 3, from: { state: "open" }, to: { state: "accepted" }, by: "sam" } });
    expect(described.changes).toEqual([{ field: "state", from: "open", to: "accepted" }]);
    expect(described.facts).toEqual(["#3", "by: sam"]);
  });

  it("says counts, skips zeros and empty lists, names the rest", () => {
    const described = describeAuditEntry({ action: "run.delete", targetId: "r1", detail: { runs: 1, results: 12, metrics: 0, incidents: [] } });
    expect(described.facts).toEqual(["1 run", "12 results"]);
    expect(describeAuditEntry({ action: "token.create", targetId: "t", detail: { name: "ci", prefix: "bt_ab12", scopes: ["upload", "read"] } }).facts).toEqual([
      "name: ci",
      "prefix: bt_ab12",
      "scopes: upload, read",
    ]);
  });

  it("shows an unknown action as it is", () => {
    expect(describeAuditEntry({ action: "thing.frob", targetId: null, detail: {} }).headline).toBe("thing.frob");
  });
});

describe("valueWords", () => {
  it("says none for nothing, yes/no for booleans, and cuts long text", () => {
    expect(valueWords(null)).toBe("none");
    expect(valueWords([])).toBe("none");
    expect(valueWords(true)).toBe("yes");
    expect(valueWords("x".repeat(300))).toHaveLength(120);
    expect(valueWords({ targets: [] })).toBe('{"targets":[]}');
    expect(valueWords([{ metric: "p95", op: "<=", threshold: 250, unit: "ms", scope: "endpoints" }, { metric: "errorRate", op: "<", threshold: 0.01 }])).toBe(
      "p95 <= 250 ms, errorRate < 0.01",
    );
  });
});

describe("AUDIT_ACTIONS", () => {
  it("are <object>.<verb>, each with its words", () => {
    for (const action of AUDIT_ACTIONS) {
      expect(action).toMatch(/^[a-z]+\.[a-z]+$/);
      expect(AUDIT_ACTION_WORDS[action]).toBeTruthy();
    }
  });

  it("says a member's role change and a visibility change as from → to lines", () => {
    expect(describeAuditEntry({ action: "member.update", targetId: "m1", detail: { kind: "group", subject: "perf", role: { from: "viewer", to: "triager" } } })).toEqual({
      headline: "changed a role",
      changes: [{ field: "role", from: "viewer", to: "triager" }],
      facts: ["kind: group", "subject: perf"],
    });
    const visibility = describeAuditEntry({ action: "project.visibility", targetId: null, detail: { from: null, to: "private", effective: { from: "public", to: "private" } } });
    expect(visibility.changes).toEqual([
      { field: "visibility", from: "server default", to: "private" },
      { field: "effective", from: "public", to: "private" },
    ]);
  });
});
