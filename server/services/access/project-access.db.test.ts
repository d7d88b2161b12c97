import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import type { Principal } from "./auth";
import { allowedActions, requireProjectAccess, requireProjectRead } from "./project-access";

// Who may do what in a project (docs/access.md), read from a real database on both engines: the grants of
// a private and a public project, a person's role by email and by group, a token's scopes, the read token.
describe.each(testDatabaseTargets())("project access on $name", ({ target }) => {
  let database: Database;
  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });
  afterAll(async () => {
    await database?.close();
  });

  const person = (id: string, email: string | null, groups: string[] = [], serverAdmin = false): Principal => ({
    kind: "user",
    user: { id, email, name: null, groups, serverAdmin },
  });

  async function project(visibility: "public" | "private") {
    const slug = uniqueSlug(`access-${visibility}`);
    const row = await database.prisma.project.create({ data: { slug, name: slug, visibility }, select: { id: true, slug: true, visibility: true } });
    await database.prisma.projectMember.createMany({
      data: [
        { projectId: row.id, kind: "email", subject: "ada@example.com", role: "triager", grantedBy: "admin token" },
        { projectId: row.id, kind: "group", subject: "perf-leads", role: "maintainer", grantedBy: "admin token" },
      ],
    });
    return row;
  }

  it("gives a person the highest role their email or groups were granted; a private project nothing more", async () => {
    const secret = await project("private");
    const db = database.prisma;
    expect(await allowedActions(db, person("u1", "ada@example.com"), secret)).toEqual(["read", "mark", "triage"]);
    expect(await allowedActions(db, person("u2", "bob@example.com", ["perf-leads"]), secret)).toEqual(["read", "upload", "mark", "triage", "share", "manage"]);
    expect(await allowedActions(db, person("u3", "eve@example.com", ["eng"]), secret)).toEqual([]);
    expect(await allowedActions(db, person("u4", "root@example.com", [], true), secret)).toHaveLength(6);
    await expect(requireProjectAccess(db, person("u1", "ada@example.com"), secret, "manage")).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("is triager"),
    });
    await expect(requireProjectAccess(db, person("u3", "eve@example.com"), secret, "read")).rejects.toMatchObject({ code: "forbidden" });
    await expect(requireProjectRead(db, { kind: "anonymous" }, { kind: "project", project: secret.slug })).rejects.toMatchObject({ code: "unauthorized" });
    await expect(requireProjectRead(db, { kind: "reader" }, { kind: "project", project: secret.slug })).resolves.toBeUndefined();
    await expect(requireProjectAccess(db, { kind: "reader" }, secret, "triage")).rejects.toMatchObject({ code: "forbidden" });
  });

  it("opens a public project's reads to anyone and gives signed-in people the default role there", async () => {
    const open = await project("public");
    const db = database.prisma;
    expect(await allowedActions(db, { kind: "anonymous" }, open)).toEqual(["read"]);
    // BENCHTRACK_DEFAULT_ROLE unset: viewer.
    expect(await allowedActions(db, person("u3", "eve@example.com"), open)).toEqual(["read"]);
    await expect(requireProjectRead(db, { kind: "anonymous" }, { kind: "project", project: open.slug })).resolves.toBeUndefined();
    await expect(requireProjectAccess(db, { kind: "anonymous" }, open, "triage")).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("lets a token do what its scopes open on its own project, and nothing on another private one", async () => {
    const mine = await project("private");
    const theirs = await project("private");
    const db = database.prisma;
    const uploader: Principal = { kind: "project-token", tokenId: "t1", projectId: mine.id, name: "ci", scopes: ["upload"] };
    const triager: Principal = { kind: "project-token", tokenId: "t2", projectId: mine.id, name: "bot", scopes: ["triage"] };
    expect(await allowedActions(db, uploader, mine)).toEqual(["upload", "mark"]);
    expect(await allowedActions(db, triager, mine)).toEqual(["read", "mark", "triage"]);
    await expect(requireProjectAccess(db, uploader, mine, "read")).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining('"read"') });
    await expect(requireProjectAccess(db, uploader, mine, "manage")).rejects.toMatchObject({ code: "forbidden" });
    await expect(requireProjectAccess(db, triager, theirs, "read")).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining("another project") });
  });

  it("holds a share link to what it opens", async () => {
    const secret = await project("private");
    const db = database.prisma;
    const share: Principal = { kind: "share", token: "x", scope: { kind: "run", project: secret.slug, runId: "r1" } };
    await expect(requireProjectRead(db, share, { kind: "run", project: secret.slug, runId: "r1" })).resolves.toBeUndefined();
    await expect(requireProjectRead(db, share, { kind: "run", project: secret.slug, runId: "r2" })).rejects.toMatchObject({ code: "forbidden" });
  });
});
