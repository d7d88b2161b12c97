import { describe, expect, it } from "vitest";
import { authenticateToken } from "../../services/access/auth";
import { testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { adminCaller, expectAdminOnly, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";

describe.each(testDatabaseTargets())("token router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  it("creates a token whose secret is shown once, lists tokens without secrets, revokes one", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "tokens");
    const admin = adminCaller(database().prisma);
    const created = await admin.token.create({ project: slug, name: "github-actions" });
    expect(created).toMatchObject({ name: "github-actions", token: expect.stringMatching(/^bt_/) });
    expect(created.createdAt).toBeInstanceOf(Date);
    await expect(authenticateToken(database().prisma, created.token)).resolves.toMatchObject({ kind: "project-token", projectId });

    const listed = await admin.token.list({ project: slug });
    expect(listed.map((token) => token.name)).toEqual(["github-actions", "ci"]);
    expect(JSON.stringify(listed)).not.toContain(created.token);

    await admin.token.revoke({ project: slug, id: created.id });
    expect((await admin.token.list({ project: slug }))[0]?.revokedAt).toBeInstanceOf(Date);
    await expect(authenticateToken(database().prisma, created.token)).rejects.toMatchObject({ code: "unauthorized" });
    // Revoking again is harmless; an unknown token, or one of another project, is not found.
    await admin.token.revoke({ project: slug, id: created.id });
    await expect(admin.token.revoke({ project: slug, id: "no-such-token" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const other = await seedProjectWithToken(database().prisma, "tokens-other");
    await expect(admin.token.revoke({ project: other.slug, id: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin.token.list({ project: uniqueSlug("nope") })).rejects.toMatchObject({ code: "NOT_FOUND" });
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
