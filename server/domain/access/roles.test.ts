import { describe, expect, it } from "vitest";
import { PROJECT_ACTIONS, roleAllows, roleInProject, scopesAllow } from "./roles";

describe("roles", () => {
  it("each role may do what the ones before it may", () => {
    const allowed = (role: Parameters<typeof roleAllows>[0]) => PROJECT_ACTIONS.filter((action) => roleAllows(role, action));
    expect(allowed(null)).toEqual([]);
    expect(allowed("viewer")).toEqual(["read"]);
    expect(allowed("triager")).toEqual(["read", "mark", "triage"]);
    expect(allowed("maintainer")).toEqual(["read", "upload", "mark", "triage", "share", "manage"]);
  });

  it("a token may do what its scopes open, nothing more; unknown scopes open nothing", () => {
    expect(scopesAllow(["upload"], "upload")).toBe(true);
    expect(scopesAllow(["upload"], "mark")).toBe(true);
    expect(scopesAllow(["upload"], "read")).toBe(false);
    expect(scopesAllow(["read"], "share")).toBe(true);
    expect(scopesAllow(["triage"], "triage")).toBe(true);
    expect(scopesAllow(["upload", "read", "triage"], "manage")).toBe(false);
    expect(scopesAllow(["manage"], "manage")).toBe(false);
    expect(scopesAllow([], "read")).toBe(false);
  });

  it("a person's role is the highest matching grant, and the default role on public projects only", () => {
    const ada = { email: "ada@example.com", groups: ["perf", "eng"] };
    const grants = [
      { kind: "email" as const, subject: "Ada@Example.com", role: "viewer" as const },
      { kind: "group" as const, subject: "perf", role: "triager" as const },
      { kind: "group" as const, subject: "Perf-Leads", role: "maintainer" as const },
    ];
    expect(roleInProject(ada, grants, "private", null)).toBe("triager");
    expect(roleInProject(ada, grants.slice(0, 1), "private", null)).toBe("viewer");
    expect(roleInProject(ada, [], "private", "triager")).toBe(null);
    expect(roleInProject(ada, [], "public", "triager")).toBe("triager");
    expect(roleInProject(ada, grants.slice(0, 1), "public", "triager")).toBe("triager");
    // Group names match exactly, as the provider spells them.
    expect(roleInProject({ email: null, groups: ["perf-leads"] }, grants, "private", null)).toBe(null);
    // No verified email: email grants never match.
    expect(roleInProject({ email: null, groups: [] }, grants, "private", null)).toBe(null);
  });
});
