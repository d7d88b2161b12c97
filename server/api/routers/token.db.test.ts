import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authenticateToken } from "../../services/access/auth";
import { sealSession } from "../../services/access/sessions";
import { testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { adminCaller, expectAdminOnly, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";
import { createCaller } from "../root";

const DAY_MS = 86_400_000;

describe.each(testDatabaseTargets())("token router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  it("creates a token whose secret is shown once, lists tokens without secrets, revokes one", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "tokens");
    const admin = adminCaller(database().prisma);
    const created = await admin.token.create({ project: slug, name: "github-actions" });
    expect(created).toMatchObject({ name: "github-actions", token: expect.stringMatching(/^bt_/), scopes: ["upload"], expiresAt: null, createdBy: "admin token" });
    expect(created.createdAt).toBeInstanceOf(Date);
    await expect(authenticateToken(database().prisma, created.token)).resolves.toMatchObject({ kind: "project-token", projectId, scopes: ["upload"] });

    const listed = await admin.token.list({ project: slug });
    expect(listed.map((token) => token.name)).toEqual(["github-actions", "ci"]);
    expect(JSON.stringify(listed)).not.toContain(created.token);

    await admin.token.revoke({ project: slug, id: created.id });
    expect((await admin.token.list({ project: slug }))[0]).toMatchObject({ revokedAt: expect.any(Date), status: "revoked" });
    await expect(authenticateToken(database().prisma, created.token)).rejects.toMatchObject({ code: "unauthorized", message: expect.stringMatching(/unknown or revoked/) });
    // Revoking again is harmless; an unknown token, or one of another project, is not found.
    await admin.token.revoke({ project: slug, id: created.id });
    await expect(admin.token.revoke({ project: slug, id: "no-such-token" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const other = await seedProjectWithToken(database().prisma, "tokens-other");
    await expect(admin.token.revoke({ project: other.slug, id: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin.token.list({ project: uniqueSlug("nope") })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("creates a token with the scopes and expiry asked for, each scope once in a fixed order; the list shows them all", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "tokens-scoped");
    const admin = adminCaller(database().prisma);
    const before = Date.now();
    const created = await admin.token.create({ project: slug, name: "  nightly  ", scopes: ["triage", "upload", "triage"], expiresInDays: 90 });
    expect(created).toMatchObject({ name: "nightly", scopes: ["upload", "triage"], createdBy: "admin token" });
    expect(created.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 90 * DAY_MS);
    expect(created.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);

    const at = new Date(Date.now() + 10 * DAY_MS);
    const reader = await admin.token.create({ project: slug, name: "dashboards", scopes: ["read"], expiresAt: at.toISOString() });
    expect(reader).toMatchObject({ scopes: ["read"], expiresAt: at });
    // A date alone: 00:00 UTC that day.
    const day = new Date(Date.now() + 400 * DAY_MS).toISOString().slice(0, 10);
    const byDate = await admin.token.create({ project: slug, name: "by-date", expiresAt: day });
    expect(byDate.expiresAt).toEqual(new Date(`${day}T00:00:00Z`));

    const listed = await admin.token.list({ project: slug });
    const nightly = listed.find((token) => token.id === created.id);
    expect(nightly).toEqual({
      id: created.id,
      name: "nightly",
      prefix: created.prefix,
      scopes: ["upload", "triage"],
      createdAt: created.createdAt,
      createdBy: "admin token",
      expiresAt: created.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      status: "active",
    });
    // Tokens made before scopes existed (the seeded one here) keep what the database holds.
    expect(listed.find((token) => token.name === "ci")).toMatchObject({ createdBy: null, expiresAt: null, status: "active" });
  });

  it("says who made a token: the admin session, or a signed-in server admin by name and email", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "tokens-by");
    const viaSession = createCaller({ db: database().prisma, authorization: null, session: await sealSession("admin"), share: null });
    await expect(viaSession.token.create({ project: slug, name: "from-session" })).resolves.toMatchObject({ createdBy: "admin session" });

    const user = await database().prisma.user.create({
      data: { issuer: "https://idp.test", subject: randomUUID(), email: "ada@example.com", name: "Ada Lovelace", serverAdmin: true },
    });
    const person = createCaller({ db: database().prisma, authorization: null, session: await sealSession({ role: "user", userId: user.id }), share: null });
    await expect(person.token.create({ project: slug, name: "from-ada" })).resolves.toMatchObject({ createdBy: "Ada Lovelace <ada@example.com>" });
    const listed = await adminCaller(database().prisma).token.list({ project: slug });
    expect(listed.map((token) => token.createdBy)).toEqual(["Ada Lovelace <ada@example.com>", "admin session", null]);
  });

  it("a name is unique among the project's live tokens: 409 naming it; a revoked or expired token's name is free again", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "tokens-unique");
    const admin = adminCaller(database().prisma);
    await expect(admin.token.create({ project: slug, name: "ci" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `Project "${slug}" already has a live token named "ci"`,
    });
    // Two at once with the same new name: one is made, the other refused.
    const raced = await Promise.allSettled([admin.token.create({ project: slug, name: "twin" }), admin.token.create({ project: slug, name: "twin" })]);
    expect(raced.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    // Another project may use the name.
    const other = await seedProjectWithToken(database().prisma, "tokens-unique-other");
    await expect(admin.token.create({ project: other.slug, name: "twin" })).resolves.toMatchObject({ name: "twin" });

    const [ci] = await database().prisma.apiToken.findMany({ where: { projectId, name: "ci" } });
    await database().prisma.apiToken.update({ where: { id: ci!.id }, data: { expiresAt: new Date(Date.now() - DAY_MS) } });
    await expect(admin.token.create({ project: slug, name: "ci" })).resolves.toMatchObject({ name: "ci" });
    const twin = await database().prisma.apiToken.findFirstOrThrow({ where: { projectId, name: "twin" } });
    await admin.token.revoke({ project: slug, id: twin.id });
    await expect(admin.token.create({ project: slug, name: "twin" })).resolves.toMatchObject({ name: "twin" });
    expect(await database().prisma.apiToken.count({ where: { projectId } })).toBe(4);
  });

  it("refuses hostile input naming the field, and stores nothing", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "tokens-hostile");
    const admin = adminCaller(database().prisma);
    const refusal = async (input: Record<string, unknown>, path: string) => {
      const error = await admin.token.create({ project: slug, ...input } as never).then(
        () => null,
        (thrown: { code: string; cause?: { details?: { path: string }[] }; message: string }) => thrown,
      );
      expect(error, JSON.stringify(input).slice(0, 80)).toMatchObject({ code: "BAD_REQUEST" });
      expect(error!.cause?.details?.map((detail) => detail.path), JSON.stringify(input).slice(0, 80)).toContainEqual(expect.stringMatching(new RegExp(`^${path}`)));
    };
    await refusal({}, "name");
    await refusal({ name: "" }, "name");
    await refusal({ name: "   " }, "name");
    await refusal({ name: "x".repeat(10_000) }, "name");
    await refusal({ name: "a", scopes: ["admin"] }, "scopes");
    await refusal({ name: "a", scopes: ["manage"] }, "scopes");
    await refusal({ name: "a", scopes: [] }, "scopes");
    await refusal({ name: "a", scopes: "upload" }, "scopes");
    await refusal({ name: "a", expiresInDays: 0 }, "expiresInDays");
    await refusal({ name: "a", expiresInDays: 3651 }, "expiresInDays");
    await refusal({ name: "a", expiresInDays: 1.5 }, "expiresInDays");
    await refusal({ name: "a", expiresAt: "yesterday" }, "expiresAt");
    await refusal({ name: "a", expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt");
    await refusal({ name: "a", expiresAt: new Date(Date.now() + 3651 * DAY_MS).toISOString() }, "expiresAt");
    await refusal({ name: "a", expiresAt: "2030-01-01", expiresInDays: 3 }, "expiresAt");
    expect(await database().prisma.apiToken.count({ where: { projectId } })).toBe(1);
  });

  it("refuses every token action without the admin token; a project token cannot mint or revoke tokens", async () => {
    const { slug, projectId, uploadToken } = await seedProjectWithToken(database().prisma, "tokens-refused");
    const [own] = await adminCaller(database().prisma).token.list({ project: slug });
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.token.list({ project: slug }));
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.token.create({ project: slug, name: "sneaky" }));
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.token.revoke({ project: slug, id: own!.id }));
    expect(await database().prisma.apiToken.count({ where: { projectId } })).toBe(1);
    expect(await database().prisma.apiToken.count({ where: { projectId, revokedAt: null } })).toBe(1);
  });
});
