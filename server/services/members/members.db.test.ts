import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import type { Principal } from "../access";
import { requireProjectRead, resolvePrincipalLimited, sealSession } from "../access";
import { grantMember, listMembers, listUsers, removeMember, setProjectVisibility, updateMember, updateUser } from ".";

// A project's members, its visibility and the server's people, on a real database of both engines: what
// each change does to who may do what, who may make it, and the audit entry each leaves (from → to).
describe.each(testDatabaseTargets())("members on $name", ({ target }) => {
  let database: Database;
  beforeAll(async () => {
    process.env.BENCHTRACK_SESSION_SECRET = "members-test-session-secret-0123456789abcdef";
    database = await openMigratedDatabase(target);
  });
  afterAll(async () => {
    await database?.close();
  });

  const admin: Principal = { kind: "admin" };
  const opts = { viaSession: false };

  /** A users row, as sign-in would leave it (the identity provider's subject unique per test). */
  async function person(name: string, email: string | null, groups: string[] = [], extra: { serverAdmin?: boolean; disabledAt?: Date } = {}) {
    const row = await database.prisma.user.create({
      data: { issuer: "https://idp.test", subject: uniqueSlug(name), name, email, groups, lastSignInAt: new Date(), ...extra },
      select: { id: true, email: true, name: true, groups: true, serverAdmin: true },
    });
    return { row, principal: { kind: "user", user: row } as Principal };
  }

  async function project(visibility: "public" | "private" | null = null) {
    const slug = uniqueSlug("members");
    await database.prisma.project.create({ data: { slug, name: slug, visibility } });
    return slug;
  }

  const auditOf = (slug: string | null, action: string) =>
    database.prisma.auditEntry.findMany({ where: { projectSlug: slug, action }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { actor: true, targetId: true, detail: true } });

  it("grants by email (lower-cased) and by group, shows whom each matches, changes and removes, each audited", async () => {
    const db = database.prisma;
    const slug = await project("private");
    const group = uniqueSlug("perf-team");
    const ada = await person("Ada Lovelace", `${uniqueSlug("ada")}@example.com`, [group]);
    await person("Grace Hopper", `${uniqueSlug("grace")}@example.com`, [group]);
    await person("Gone Person", `${uniqueSlug("gone")}@example.com`, [group], { disabledAt: new Date() });

    const byEmail = await grantMember(db, admin, slug, { kind: "email", subject: `  ${ada.row.email!.toUpperCase()} `, role: "triager" }, opts);
    expect(byEmail.created).toBe(true);
    expect(byEmail.member).toMatchObject({ kind: "email", subject: ada.row.email, role: "triager", grantedBy: "admin token", matchCount: 1 });
    expect(byEmail.member.matches).toEqual([{ id: ada.row.id, name: "Ada Lovelace", email: ada.row.email }]);
    const byGroup = await grantMember(db, admin, slug, { kind: "group", subject: ` ${group} `, role: "viewer" }, opts);
    expect(byGroup.member).toMatchObject({ kind: "group", subject: group, role: "viewer", matchCount: 2 });
    expect(byGroup.member.matches.map((match) => match.name)).toEqual(["Ada Lovelace", "Grace Hopper"]);

    // Ada's role is the higher of her two grants: triager may triage, not manage.
    await expect(listMembers(db, ada.principal, slug)).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining("is triager") });

    // Granting the group again changes its role; the same role again changes nothing and records nothing.
    const regrant = await grantMember(db, admin, slug, { kind: "group", subject: group, role: "maintainer" }, opts);
    expect(regrant).toMatchObject({ created: false, member: { id: byGroup.member.id, role: "maintainer" } });
    await grantMember(db, admin, slug, { kind: "group", subject: group, role: "maintainer" }, opts);
    // Now Ada (in the group) is a maintainer: she may list and change members, as herself in the audit log.
    const listed = await listMembers(db, ada.principal, slug);
    expect(listed.members.map((member) => [member.kind, member.subject, member.role])).toEqual([
      ["email", ada.row.email, "triager"],
      ["group", group, "maintainer"],
    ]);
    expect(listed.visibility).toEqual({ setting: "private", effective: "private", serverDefault: "public" });
    const lowered = await updateMember(db, ada.principal, slug, byEmail.member.id, { role: "viewer" }, opts);
    expect(lowered).toMatchObject({ role: "viewer", grantedBy: `Ada Lovelace <${ada.row.email}>` });
    await removeMember(db, ada.principal, slug, byEmail.member.id, opts);
    expect((await listMembers(db, admin, slug)).members.map((member) => member.subject)).toEqual([group]);

    expect(await auditOf(slug, "member.grant")).toEqual([
      { actor: "admin token", targetId: byEmail.member.id, detail: { kind: "email", subject: ada.row.email, role: { from: null, to: "triager" } } },
      { actor: "admin token", targetId: byGroup.member.id, detail: { kind: "group", subject: group, role: { from: null, to: "viewer" } } },
    ]);
    expect(await auditOf(slug, "member.update")).toEqual([
      { actor: "admin token", targetId: byGroup.member.id, detail: { kind: "group", subject: group, role: { from: "viewer", to: "maintainer" } } },
      { actor: `Ada Lovelace <${ada.row.email}>`, targetId: byEmail.member.id, detail: { kind: "email", subject: ada.row.email, role: { from: "triager", to: "viewer" } } },
    ]);
    expect(await auditOf(slug, "member.remove")).toEqual([
      { actor: `Ada Lovelace <${ada.row.email}>`, targetId: byEmail.member.id, detail: { kind: "email", subject: ada.row.email, role: { from: "viewer", to: null } } },
    ]);
  });

  it("refuses those who may not manage, names bad input's field, and finds no other project's grant", async () => {
    const db = database.prisma;
    const slug = await project("public");
    const other = await project("public");
    const outsider = await person("Eve", `${uniqueSlug("eve")}@example.com`);
    const token: Principal = { kind: "project-token", tokenId: "t1", projectId: "p1", name: "ci", scopes: ["upload", "read", "triage"] };
    const grant = { kind: "email", subject: "bob@example.com", role: "viewer" };
    await expect(grantMember(db, outsider.principal, slug, grant, opts)).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining("is viewer") });
    await expect(grantMember(db, { kind: "anonymous" }, slug, grant, opts)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(grantMember(db, { kind: "reader" }, slug, grant, opts)).rejects.toMatchObject({ code: "forbidden" });
    await expect(grantMember(db, token, slug, grant, opts)).rejects.toMatchObject({ code: "forbidden" });
    await expect(setProjectVisibility(db, outsider.principal, slug, "private", opts)).rejects.toMatchObject({ code: "forbidden" });
    await expect(grantMember(db, admin, uniqueSlug("nope"), grant, opts)).rejects.toMatchObject({ code: "not_found" });

    const pathOf = async (input: unknown) => {
      const error = (await grantMember(db, admin, slug, input, opts).catch((caught: unknown) => caught)) as { issues?: { path: unknown[] }[] };
      return error.issues?.map((issue) => issue.path.join("."));
    };
    expect(await pathOf({ kind: "email", subject: "not an email", role: "viewer" })).toEqual(["subject"]);
    expect(await pathOf({ kind: "email", subject: "bob@example.com", role: "owner" })).toEqual(["role"]);
    expect(await pathOf({ kind: "group", subject: "g".repeat(10_000), role: "viewer" })).toEqual(["subject"]);
    expect(await pathOf({ kind: "group", subject: "   ", role: "viewer" })).toEqual(["subject"]);
    expect(await pathOf({ kind: "team", subject: "x", role: "viewer" })).toEqual(["kind"]);
    expect(await db.projectMember.count({ where: { project: { slug } } })).toBe(0);

    const { member } = await grantMember(db, admin, other, grant, opts);
    await expect(updateMember(db, admin, slug, member.id, { role: "maintainer" }, opts)).rejects.toMatchObject({ code: "not_found", details: [{ path: "id" }] });
    await expect(removeMember(db, admin, slug, member.id, opts)).rejects.toMatchObject({ code: "not_found" });
    await expect(updateMember(db, admin, other, member.id, { role: "owner" }, opts)).rejects.toMatchObject({ issues: [{ path: ["role"] }] });
    expect((await listMembers(db, admin, other)).members).toMatchObject([{ id: member.id, role: "viewer" }]);
  });

  it("sets visibility: a private project refuses an anonymous read, public and the server default open it", async () => {
    const db = database.prisma;
    const slug = await project();
    const maintainer = await person("Maya", `${uniqueSlug("maya")}@example.com`);
    await grantMember(db, admin, slug, { kind: "email", subject: maintainer.row.email, role: "maintainer" }, opts);
    const anonymousRead = () => requireProjectRead(db, { kind: "anonymous" }, { kind: "project", project: slug });

    await expect(anonymousRead()).resolves.toBeUndefined();
    expect(await setProjectVisibility(db, maintainer.principal, slug, "private", opts)).toEqual({ setting: "private", effective: "private", serverDefault: "public" });
    await expect(anonymousRead()).rejects.toMatchObject({ code: "unauthorized", message: expect.stringContaining("is private") });
    await expect(requireProjectRead(db, maintainer.principal, { kind: "project", project: slug })).resolves.toBeUndefined();
    await setProjectVisibility(db, maintainer.principal, slug, "private", opts);
    await setProjectVisibility(db, admin, slug, "public", { viaSession: true });
    await expect(anonymousRead()).resolves.toBeUndefined();
    await setProjectVisibility(db, admin, slug, null, opts);
    await expect(anonymousRead()).resolves.toBeUndefined();

    expect((await auditOf(slug, "project.visibility")).map(({ actor, detail }) => [actor, detail])).toEqual([
      [`Maya <${maintainer.row.email}>`, { from: null, to: "private", effective: { from: "public", to: "private" } }],
      ["admin session", { from: "private", to: "public", effective: { from: "private", to: "public" } }],
      ["admin token", { from: "public", to: null, effective: { from: "public", to: "public" } }],
    ]);
  });

  it("lists the server's people for admins, makes admins, disables (sessions stop at once) and enables again", async () => {
    const db = database.prisma;
    const root = await person("Root", `${uniqueSlug("root")}@example.com`, [], { serverAdmin: true });
    const bob = await person("Bob", `${uniqueSlug("bob")}@example.com`, ["eng"]);
    const session = await sealSession({ role: "user", userId: bob.row.id });

    await expect(listUsers(db, bob.principal)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listUsers(db, { kind: "anonymous" })).rejects.toMatchObject({ code: "unauthorized" });
    await expect(updateUser(db, bob.principal, bob.row.id, { serverAdmin: true }, opts)).rejects.toMatchObject({ code: "forbidden" });
    const { users } = await listUsers(db, root.principal);
    expect(users.find((user) => user.id === bob.row.id)).toMatchObject({ name: "Bob", groups: ["eng"], serverAdmin: false, disabled: false, lastSignInAt: expect.stringMatching(/Z$/) });

    expect(await updateUser(db, root.principal, bob.row.id, { serverAdmin: true }, opts)).toMatchObject({ serverAdmin: true });
    expect(await resolvePrincipalLimited(db, { session }, null)).toMatchObject({ kind: "user", user: { id: bob.row.id, serverAdmin: true } });
    const disabled = await updateUser(db, root.principal, bob.row.id, { disabled: true, serverAdmin: false }, opts);
    expect(disabled).toMatchObject({ disabled: true, serverAdmin: false, disabledAt: expect.stringMatching(/Z$/) });
    expect(await resolvePrincipalLimited(db, { session }, null)).toEqual({ kind: "anonymous", refusedSession: "removed" });
    await updateUser(db, root.principal, bob.row.id, { disabled: false }, opts);
    expect(await resolvePrincipalLimited(db, { session }, null)).toMatchObject({ kind: "user", user: { id: bob.row.id } });

    await expect(updateUser(db, root.principal, root.row.id, { disabled: true }, opts)).rejects.toMatchObject({ code: "conflict", details: [{ path: "disabled" }] });
    await expect(updateUser(db, admin, "no-such-user", { disabled: true }, opts)).rejects.toMatchObject({ code: "not_found", details: [{ path: "id" }] });
    await expect(updateUser(db, admin, bob.row.id, {}, opts)).rejects.toMatchObject({ issues: [{ message: expect.stringContaining("serverAdmin or disabled") }] });
    await expect(updateUser(db, admin, bob.row.id, { disabled: "yes" }, opts)).rejects.toMatchObject({ issues: [{ path: ["disabled"] }] });

    const entries = await db.auditEntry.findMany({ where: { action: "user.update", targetId: bob.row.id }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { actor: true, projectSlug: true, detail: true } });
    expect(entries).toEqual([
      { actor: `Root <${root.row.email}>`, projectSlug: null, detail: { user: `Bob <${bob.row.email}>`, serverAdmin: { from: false, to: true } } },
      { actor: `Root <${root.row.email}>`, projectSlug: null, detail: { user: `Bob <${bob.row.email}>`, serverAdmin: { from: true, to: false }, disabled: { from: false, to: true } } },
      { actor: `Root <${root.row.email}>`, projectSlug: null, detail: { user: `Bob <${bob.row.email}>`, disabled: { from: true, to: false } } },
    ]);
  });
});
