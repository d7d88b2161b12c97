import { describe, expect, it } from "vitest";
import { sealSession } from "../../services/access";
import { testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { adminCaller, callerWith, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";
import { createCaller } from "../root";

// The member and user routers as the dashboard calls them: the admin's session, a signed-in person's
// session (their role read from the grants), a project token; bad input refused naming its field.
describe.each(testDatabaseTargets())("member and user routers on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  async function signedIn(name: string, email: string, groups: string[] = [], serverAdmin = false) {
    const user = await database().prisma.user.create({
      data: { issuer: "https://idp.test", subject: uniqueSlug(name), name, email, groups, serverAdmin, lastSignInAt: new Date() },
      select: { id: true },
    });
    return { id: user.id, caller: createCaller({ db: database().prisma, session: await sealSession({ role: "user", userId: user.id }) }) };
  }

  it("lets a maintainer (by group) list, grant, change and remove, and set visibility; the audit names them", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "member-router");
    const group = uniqueSlug("leads");
    const email = `${uniqueSlug("lin")}@example.com`;
    const lin = await signedIn("Lin", email, [group]);
    const viewer = await signedIn("Vic", `${uniqueSlug("vic")}@example.com`);
    const admin = adminCaller(database().prisma);

    await expect(lin.caller.member.list({ project: slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await admin.member.grant({ project: slug, grant: { kind: "group", subject: group, role: "maintainer" } });
    const listed = await lin.caller.member.list({ project: slug });
    expect(listed.members).toMatchObject([{ kind: "group", subject: group, role: "maintainer", matchCount: 1, matches: [{ id: lin.id, name: "Lin" }] }]);

    const { member } = await lin.caller.member.grant({ project: slug, grant: { kind: "email", subject: "Ops@Example.com", role: "triager" } });
    expect(member).toMatchObject({ subject: "ops@example.com", role: "triager", grantedBy: `Lin <${email}>` });
    expect(await lin.caller.member.update({ project: slug, id: member.id, role: "viewer" })).toMatchObject({ role: "viewer" });
    await lin.caller.member.remove({ project: slug, id: member.id });
    await expect(lin.caller.member.remove({ project: slug, id: member.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await lin.caller.member.setVisibility({ project: slug, visibility: "private" })).toMatchObject({ effective: "private" });
    expect(await admin.settings.get({ project: slug })).toMatchObject({ settings: { visibility: "private", effectiveVisibility: "private" } });

    // Someone with no role (the project is private now) may do none of it.
    await expect(viewer.caller.member.grant({ project: slug, grant: { kind: "email", subject: "x@example.com", role: "maintainer" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(viewer.caller.member.setVisibility({ project: slug, visibility: "public" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerWith(database().prisma, null).member.list({ project: slug })).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    const actions = await database().prisma.auditEntry.findMany({ where: { projectSlug: slug }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { actor: true, action: true } });
    expect(actions).toEqual([
      { actor: "admin token", action: "member.grant" },
      { actor: `Lin <${email}>`, action: "member.grant" },
      { actor: `Lin <${email}>`, action: "member.update" },
      { actor: `Lin <${email}>`, action: "member.remove" },
      { actor: `Lin <${email}>`, action: "project.visibility" },
    ]);
  });

  it("refuses bad input naming its field, and a project token", async () => {
    const { slug, uploadToken } = await seedProjectWithToken(database().prisma, "member-router-bad");
    const admin = adminCaller(database().prisma);
    const refusal = async (promise: Promise<unknown>) => {
      const error = (await promise.catch((caught: unknown) => caught)) as { code: string; cause?: { details?: { path: string }[] } };
      return { code: error.code, paths: error.cause?.details?.map((detail) => detail.path) };
    };
    expect(await refusal(admin.member.grant({ project: slug, grant: { kind: "email", subject: "nobody", role: "viewer" } }))).toEqual({ code: "BAD_REQUEST", paths: ["grant.subject"] });
    expect(await refusal(admin.member.grant({ project: slug, grant: { kind: "group", subject: "g".repeat(10_000), role: "viewer" } }))).toEqual({ code: "BAD_REQUEST", paths: ["grant.subject"] });
    expect(await refusal(admin.member.grant({ project: slug, grant: { kind: "group", subject: "g", role: "owner" as "viewer" } }))).toEqual({ code: "BAD_REQUEST", paths: ["grant.role"] });
    expect(await refusal(admin.member.update({ project: slug, id: "nope", role: "viewer" }))).toEqual({ code: "NOT_FOUND", paths: ["id"] });
    expect(await refusal(admin.member.setVisibility({ project: slug, visibility: "secret" as "private" }))).toEqual({ code: "BAD_REQUEST", paths: ["visibility"] });
    expect((await refusal(callerWith(database().prisma, uploadToken).member.list({ project: slug }))).code).toBe("FORBIDDEN");
  });

  it("shows the server's people to server admins only, and changes them", async () => {
    const root = await signedIn("Root", `${uniqueSlug("root")}@example.com`, [], true);
    const kim = await signedIn("Kim", `${uniqueSlug("kim")}@example.com`);
    await expect(kim.caller.user.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerWith(database().prisma, null).user.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await root.caller.user.list()).users.map((user) => user.id)).toEqual(expect.arrayContaining([root.id, kim.id]));
    expect(await root.caller.user.update({ id: kim.id, changes: { serverAdmin: true } })).toMatchObject({ serverAdmin: true });
    // Kim is a server admin from her next call on: the session reads her row each time.
    expect((await kim.caller.user.list()).users.length).toBeGreaterThanOrEqual(2);
    await root.caller.user.update({ id: kim.id, changes: { disabled: true } });
    await expect(kim.caller.user.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(root.caller.user.update({ id: root.id, changes: { disabled: true } })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(adminCaller(database().prisma).user.update({ id: kim.id, changes: {} })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
