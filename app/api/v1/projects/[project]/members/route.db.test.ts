import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { requireProjectRead } from "@/server/services/access";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as createProject } from "../../route";
import { PATCH as patchProject } from "../route";
import { POST as createToken } from "../tokens/route";
import { PATCH as patchUser } from "../../../users/[id]/route";
import { GET as listUsers } from "../../../users/route";
import { DELETE as removeMember, PATCH as updateMember } from "./[id]/route";
import { GET as listMembers, POST as grantMember } from "./route";

setUpRouteTestDatabase();

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("members, visibility and the server's people over REST", () => {
  const slug = uniqueSlug("members-rest");
  const path = `/api/v1/projects/${slug}/members`;
  let uploadToken: string;

  beforeAll(async () => {
    expect((await call(createProject, "/api/v1/projects", {}, { method: "POST", ...json({ slug }) })).status).toBe(201);
    uploadToken = (await (await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST", ...json({ name: "ci" }) })).json()).token;
  });

  it("grants by email and by group, changes a role, removes a grant, each in the audit log", async () => {
    const grant = (body: unknown) => call(grantMember, path, { project: slug }, { method: "POST", ...json(body) });
    // Addresses and groups of this test alone: the database is shared with other test files, which sign people in.
    const email = `${uniqueSlug("ada")}@example.com`;
    const group = uniqueSlug("perf-leads");
    const created = await grant({ kind: "email", subject: email.toUpperCase(), role: "triager" });
    expect(created.status).toBe(201);
    const ada = await created.json();
    expect(ada).toMatchObject({ kind: "email", subject: email, role: "triager", grantedBy: "admin token", matchCount: 0, matches: [] });
    expect((await grant({ kind: "group", subject: group, role: "maintainer" })).status).toBe(201);
    // Granting the same email again changes its role: 200.
    const again = await grant({ kind: "email", subject: email, role: "viewer" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: ada.id, role: "viewer" });

    const patched = await call(updateMember, `${path}/${ada.id}`, { project: slug, id: ada.id }, { method: "PATCH", ...json({ role: "maintainer" }) });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: ada.id, role: "maintainer" });
    const listed = await call(listMembers, path, { project: slug });
    expect(listed.status).toBe(200);
    const body = await listed.json();
    expect(body.members.map((member: { subject: string; role: string }) => `${member.subject}:${member.role}`)).toEqual([`${email}:maintainer`, `${group}:maintainer`]);
    expect(body.visibility).toEqual({ setting: null, effective: "public", serverDefault: "public" });

    expect((await call(removeMember, `${path}/${ada.id}`, { project: slug, id: ada.id }, { method: "DELETE" })).status).toBe(204);
    const gone = await call(removeMember, `${path}/${ada.id}`, { project: slug, id: ada.id }, { method: "DELETE" });
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.details).toEqual([{ path: "id", message: "no such grant in this project" }]);

    const db = await getDb();
    const entries = await db.auditEntry.findMany({ where: { projectSlug: slug, action: { startsWith: "member." } }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { action: true, detail: true } });
    expect(entries.map((entry) => [entry.action, (entry.detail as { role: unknown }).role])).toEqual([
      ["member.grant", { from: null, to: "triager" }],
      ["member.grant", { from: null, to: "maintainer" }],
      ["member.update", { from: "triager", to: "viewer" }],
      ["member.update", { from: "viewer", to: "maintainer" }],
      ["member.remove", { from: "maintainer", to: null }],
    ]);
  });

  it("refuses hostile input with a 400 naming the field, and callers who may not manage", async () => {
    const refusal = async (response: Response) => ({ status: response.status, paths: ((await response.json()).error.details as { path: string }[]).map((detail) => detail.path) });
    const grant = (body: unknown, token?: string | null) => call(grantMember, path, { project: slug }, { method: "POST", ...json(body), token });
    expect(await refusal(await grant({ kind: "email", subject: "not-an-email", role: "viewer" }))).toEqual({ status: 400, paths: ["subject"] });
    expect(await refusal(await grant({ kind: "email", subject: "bob@example.com", role: "owner" }))).toEqual({ status: 400, paths: ["role"] });
    expect(await refusal(await grant({ kind: "group", subject: "g".repeat(10_000), role: "viewer" }))).toEqual({ status: 400, paths: ["subject"] });
    expect(await refusal(await grant({ kind: "email", subject: "bob@example.com", role: "viewer", extra: 1 }))).toEqual({ status: 400, paths: [""] });
    expect((await call(grantMember, path, { project: slug }, { method: "POST", body: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    const unknown = await call(updateMember, `${path}/nope`, { project: slug, id: "nope" }, { method: "PATCH", ...json({ role: "viewer" }) });
    expect(await refusal(unknown)).toEqual({ status: 404, paths: ["id"] });
    const other = uniqueSlug("nope");
    expect((await call(listMembers, `/api/v1/projects/${other}/members`, { project: other })).status).toBe(404);

    expect((await grant({ kind: "email", subject: "bob@example.com", role: "maintainer" }, null)).status).toBe(401);
    const byToken = await grant({ kind: "email", subject: "bob@example.com", role: "maintainer" }, uploadToken);
    expect(byToken.status).toBe(403);
    expect((await call(listMembers, path, { project: slug }, { token: uploadToken })).status).toBe(403);
    expect(await (await getDb()).projectMember.count({ where: { subject: "bob@example.com", project: { slug } } })).toBe(0);
  });

  it("sets visibility through the project's PATCH: private refuses an anonymous read, audited from → to", async () => {
    const patch = (body: unknown, token?: string | null) => call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, { method: "PATCH", ...json(body), token });
    const db = await getDb();
    const read = () => requireProjectRead(db, { kind: "anonymous" }, { kind: "project", project: slug });
    const bad = await patch({ visibility: "secret" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].path).toBe("visibility");
    expect((await patch({ visibility: "private" }, uploadToken)).status).toBe(403);

    const changed = await patch({ visibility: "private" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ visibility: "private", effectiveVisibility: "private" });
    await expect(read()).rejects.toMatchObject({ code: "unauthorized" });
    expect(await (await patch({ visibility: null })).json()).toMatchObject({ visibility: null, effectiveVisibility: "public" });
    await expect(read()).resolves.toBeUndefined();
    // A PATCH without visibility leaves it, and the log, alone.
    await patch({ minEffectPct: 4 });
    const entries = await db.auditEntry.findMany({ where: { projectSlug: slug, action: "project.visibility" }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { actor: true, detail: true } });
    expect(entries).toEqual([
      { actor: "admin token", detail: { from: null, to: "private", effective: { from: "public", to: "private" } } },
      { actor: "admin token", detail: { from: "private", to: null, effective: { from: "private", to: "public" } } },
    ]);
  });

  it("lists and changes the server's people (admin only), naming bad fields and unknown people", async () => {
    const db = await getDb();
    const user = await db.user.create({ data: { issuer: "https://idp.test", subject: uniqueSlug("sub"), email: `${uniqueSlug("pat")}@example.com`, name: "Pat", groups: ["qa"] }, select: { id: true } });
    const listed = await call(listUsers, "/api/v1/users", {});
    expect(listed.status).toBe(200);
    expect((await listed.json()).users).toEqual(expect.arrayContaining([expect.objectContaining({ id: user.id, name: "Pat", groups: ["qa"], serverAdmin: false, disabled: false, lastSignInAt: null })]));
    expect((await call(listUsers, "/api/v1/users", {}, { token: null })).status).toBe(401);
    expect((await call(listUsers, "/api/v1/users", {}, { token: uploadToken })).status).toBe(403);

    const patch = (id: string, body: unknown, token?: string | null) => call(patchUser, `/api/v1/users/${id}`, { id }, { method: "PATCH", ...json(body), token });
    const disabled = await patch(user.id, { disabled: true, serverAdmin: true });
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ id: user.id, disabled: true, serverAdmin: true });
    const bad = await patch(user.id, { disabled: "yes" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].path).toBe("disabled");
    expect((await patch(user.id, {})).status).toBe(400);
    const unknown = await patch("nobody", { disabled: true });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.details).toEqual([{ path: "id", message: "no such person" }]);
    expect((await patch(user.id, { disabled: false }, uploadToken)).status).toBe(403);
    const entry = await db.auditEntry.findFirst({ where: { action: "user.update", targetId: user.id }, select: { actor: true, projectSlug: true, detail: true } });
    expect(entry).toEqual({ actor: "admin token", projectSlug: null, detail: { user: expect.stringContaining("Pat <pat-"), serverAdmin: { from: false, to: true }, disabled: { from: false, to: true } } });
  });
});
