import { describe, expect, it } from "vitest";
import type { SignInPolicy } from "./oidc";
import { OIDC_REFUSALS, admissionOf, identityOfClaims, isOidcRefusal, signInDecidesServerAdmin } from "./oidc";

const OPEN: SignInPolicy = { allowedDomains: [], allowedGroups: [], adminGroups: [], adminEmails: [] };

describe("identityOfClaims", () => {
  it("reads subject, a verified email lower-cased, the name and the groups", () => {
    expect(
      identityOfClaims(
        { sub: "s1", email: " Ada@Example.COM ", email_verified: true, name: "Ada", groups: ["a", "b", "a"] },
        "groups",
      ),
    ).toEqual({
      subject: "s1",
      email: "ada@example.com",
      name: "Ada",
      groups: ["a", "b"],
    });
  });

  it('drops an email the provider does not vouch for (Cognito\'s string "true" counts)', () => {
    expect(identityOfClaims({ sub: "s", email: "a@x.io" }, "groups")?.email).toBeNull();
    expect(identityOfClaims({ sub: "s", email: "a@x.io", email_verified: false }, "groups")?.email).toBeNull();
    expect(identityOfClaims({ sub: "s", email: "a@x.io", email_verified: "true" }, "groups")?.email).toBe("a@x.io");
    expect(identityOfClaims({ sub: "s", email: "not-an-email", email_verified: true }, "groups")?.email).toBeNull();
  });

  it("needs a subject", () => {
    expect(identityOfClaims({ email: "a@x.io", email_verified: true }, "groups")).toBeNull();
    expect(identityOfClaims({ sub: "" }, "groups")).toBeNull();
    expect(identityOfClaims({ sub: 42 }, "groups")).toBeNull();
  });

  it("names a person from name, else given and family names, else the username", () => {
    expect(identityOfClaims({ sub: "s", given_name: "Grace", family_name: "Hopper" }, "groups")?.name).toBe(
      "Grace Hopper",
    );
    expect(identityOfClaims({ sub: "s", preferred_username: "ghopper" }, "groups")?.name).toBe("ghopper");
    expect(identityOfClaims({ sub: "s", name: "  " }, "groups")?.name).toBeNull();
    expect(identityOfClaims({ sub: "s", name: "x".repeat(500) }, "groups")?.name).toHaveLength(200);
  });

  it("reads groups from the named claim, a dotted path, or one string, keeping strings only", () => {
    expect(
      identityOfClaims({ sub: "s", realm_access: { roles: ["dev", 7, ""] } }, "realm_access.roles")?.groups,
    ).toEqual(["dev"]);
    expect(
      identityOfClaims({ sub: "s", "https://example.com/groups": ["x"] }, "https://example.com/groups")?.groups,
    ).toEqual(["x"]);
    expect(identityOfClaims({ sub: "s", team: "perf" }, "team")?.groups).toEqual(["perf"]);
    expect(identityOfClaims({ sub: "s", groups: { not: "a list" } }, "groups")?.groups).toEqual([]);
    expect(identityOfClaims({ sub: "s" }, "a.b.c")?.groups).toEqual([]);
  });
});

describe("admissionOf", () => {
  const ada = { subject: "s", email: "ada@example.com", name: "Ada", groups: ["perf-team"] };

  it("admits anyone the provider signs in when nothing is restricted", () => {
    expect(admissionOf({ ...ada, email: null, groups: [] }, OPEN)).toEqual({ admitted: true, serverAdmin: false });
  });

  it("restricts by email domain: a verified email of an allowed domain", () => {
    const policy = { ...OPEN, allowedDomains: ["example.com"] };
    expect(admissionOf(ada, policy)).toEqual({ admitted: true, serverAdmin: false });
    expect(admissionOf({ ...ada, email: "ada@sub.example.com" }, policy)).toEqual({
      admitted: false,
      refusal: "domain",
    });
    expect(admissionOf({ ...ada, email: "ada@example.com.evil.io" }, policy)).toEqual({
      admitted: false,
      refusal: "domain",
    });
    expect(admissionOf({ ...ada, email: null }, policy)).toEqual({ admitted: false, refusal: "email-unverified" });
  });

  it("restricts by group: one of the allowed groups; both restrictions apply together", () => {
    const policy = { ...OPEN, allowedGroups: ["perf-team", "sre"] };
    expect(admissionOf(ada, policy).admitted).toBe(true);
    expect(admissionOf({ ...ada, groups: ["marketing"] }, policy)).toEqual({ admitted: false, refusal: "group" });
    expect(admissionOf({ ...ada, email: "ada@other.org" }, { ...policy, allowedDomains: ["example.com"] })).toEqual({
      admitted: false,
      refusal: "domain",
    });
  });

  it("makes admins by group or verified email, never past a restriction", () => {
    expect(admissionOf({ ...ada, groups: ["bench-admins"] }, { ...OPEN, adminGroups: ["bench-admins"] })).toEqual({
      admitted: true,
      serverAdmin: true,
    });
    expect(admissionOf(ada, { ...OPEN, adminEmails: ["ada@example.com"] })).toEqual({
      admitted: true,
      serverAdmin: true,
    });
    expect(admissionOf({ ...ada, email: null }, { ...OPEN, adminEmails: ["ada@example.com"] })).toEqual({
      admitted: true,
      serverAdmin: false,
    });
    expect(
      admissionOf(
        { ...ada, groups: ["bench-admins"] },
        { ...OPEN, adminGroups: ["bench-admins"], allowedGroups: ["perf-team"] },
      ),
    ).toEqual({ admitted: false, refusal: "group" });
  });

  it("lets sign-in decide serverAdmin only when the server names admins", () => {
    expect(signInDecidesServerAdmin(OPEN)).toBe(false);
    expect(signInDecidesServerAdmin({ ...OPEN, adminGroups: ["a"] })).toBe(true);
    expect(signInDecidesServerAdmin({ ...OPEN, adminEmails: ["a@b.c"] })).toBe(true);
  });
});

describe("refusals", () => {
  it("are known codes with a sentence each", () => {
    expect(isOidcRefusal("oidc-state")).toBe(true);
    expect(isOidcRefusal("toString")).toBe(false);
    expect(isOidcRefusal(null)).toBe(false);
    for (const sentence of Object.values(OIDC_REFUSALS)) expect(sentence).toMatch(/^[A-Z].*\.$/);
  });
});
