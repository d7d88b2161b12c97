import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseTarget } from "../../db";
import { openMigratedDatabase, testDatabaseTargets } from "../../testing/databases";
import { ServiceError } from "../platform";
import { backupServer, restoreServer } from "./transfer";

// A server backup carries who may do what: a private project with its grants (by email and by group), a
// token's scopes, expiry and maker, and the server's users with their ids, admin rights and who was
// disabled. Backed up, restored into an empty database and backed up again, the two files are the same
// line for line; a token line from before scopes existed restores with all three. On the embedded
// database (two in-memory ones) and, with DATABASE_URL, on two fresh PostgreSQL databases of that server.

type Line = Record<string, unknown> & { kind: string };

/** An empty migrated database of the target's kind, and how to be rid of it. */
async function freshDatabase(target: DatabaseTarget): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (target.kind !== "postgres") {
    const database = await openMigratedDatabase({ kind: "memory" });
    return { database, drop: () => database.close() };
  }
  const name = `bt_restore_${randomUUID().slice(0, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(target.url);
  url.pathname = `/${name}`;
  const database = await openMigratedDatabase({ kind: "postgres", url: url.toString() });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function backupOf(database: Database): Promise<Line[]> {
  const lines: Line[] = [];
  await backupServer(database.prisma, async (line) => {
    // Through JSON, as the file is written.
    lines.push(JSON.parse(JSON.stringify(line)) as Line);
  });
  return lines;
}

async function* textOf(lines: readonly Line[]): AsyncGenerator<string[]> {
  for (const line of lines) yield [JSON.stringify(line)];
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDatabaseTargets())("backup and restore of access state ($name)", ({ target }) => {
  const opened: { drop: () => Promise<void> }[] = [];
  const fresh = async () => {
    const made = await freshDatabase(target);
    opened.push(made);
    return made.database;
  };
  let source: Database;
  let backup: Line[];
  const expiresAt = new Date(Date.now() + 30 * DAY_MS);

  beforeAll(async () => {
    source = await fresh();
    const db = source.prisma;
    const project = await db.project.create({ data: { slug: "private-one", name: "Private one", visibility: "private" } });
    await db.project.create({ data: { slug: "default-one", name: "Default one" } });
    await db.projectMember.create({ data: { projectId: project.id, kind: "email", subject: "ada@example.com", role: "maintainer", grantedBy: "admin token" } });
    await db.projectMember.create({ data: { projectId: project.id, kind: "group", subject: "perf-team", role: "triager", grantedBy: "Ada Lovelace <ada@example.com>" } });
    await db.apiToken.create({
      data: {
        projectId: project.id,
        name: "dashboard reader",
        prefix: "bt_read",
        tokenHash: "a".repeat(64),
        scopes: ["read"],
        expiresAt,
        createdBy: "Ada Lovelace <ada@example.com>",
      },
    });
    await db.apiToken.create({ data: { projectId: project.id, name: "ci", prefix: "bt_ci", tokenHash: "b".repeat(64) } });
    await db.user.create({
      data: {
        issuer: "https://id.example.com",
        subject: "u-grace",
        email: "grace@example.com",
        name: "Grace Hopper",
        groups: ["admins", "perf-team"],
        serverAdmin: true,
        disabledAt: new Date(Date.now() - DAY_MS),
        lastSignInAt: new Date(Date.now() - 2 * DAY_MS),
      },
    });
    await db.user.create({ data: { issuer: "https://id.example.com", subject: "u-ada", email: "ada@example.com", name: "Ada Lovelace" } });
    backup = await backupOf(source);
  }, 120_000);

  afterAll(async () => {
    for (const { drop } of opened.reverse()) await drop();
  });

  it("writes the users after the header, before the projects, and counts them in the end line", () => {
    const kinds = backup.map((line) => line.kind);
    expect(kinds.slice(0, 4)).toEqual(["header", "user", "user", "project"]);
    expect(kinds.filter((kind) => kind === "user")).toHaveLength(2);
    expect(kinds.filter((kind) => kind === "project")).toHaveLength(2);
    expect(backup.at(-1)).toEqual({ kind: "end", projects: 2, runs: 0, lines: backup.length - 1 });
    const grace = backup.find((line) => line.kind === "user" && line.subject === "u-grace");
    expect(grace).toMatchObject({ serverAdmin: true, groups: ["admins", "perf-team"], disabledAt: expect.any(String) as string });
    const project = backup.find((line) => line.kind === "project" && line.slug === "private-one");
    expect(project).toMatchObject({
      visibility: "private",
      members: [
        { kind: "email", subject: "ada@example.com", role: "maintainer", grantedBy: "admin token" },
        { kind: "group", subject: "perf-team", role: "triager" },
      ],
    });
    expect(backup.find((line) => line.kind === "project" && line.slug === "default-one")).toMatchObject({ visibility: null, members: [] });
    expect(backup.find((line) => line.kind === "token" && line.name === "dashboard reader")).toMatchObject({
      scopes: ["read"],
      expiresAt: expiresAt.toISOString(),
      createdBy: "Ada Lovelace <ada@example.com>",
    });
  });

  it("restores it exactly: the restored database's backup is the same file", async () => {
    const restored = await fresh();
    const counts = await restoreServer(restored.prisma, textOf(backup), { force: false });
    expect(counts.created).toMatchObject({ user: 2, token: 2 });
    const again = await backupOf(restored);
    const withoutTime = (lines: Line[]) => lines.map((line) => (line.kind === "header" ? { ...line, exportedAt: "(time)" } : line));
    expect(withoutTime(again)).toEqual(withoutTime(backup));

    // The rows themselves, as the access checks read them.
    const db = restored.prisma;
    const sourceUsers = await source.prisma.user.findMany({ orderBy: { id: "asc" } });
    expect(await db.user.findMany({ orderBy: { id: "asc" } })).toEqual(sourceUsers);
    expect(sourceUsers.find((user) => user.subject === "u-grace")).toMatchObject({ serverAdmin: true, disabledAt: expect.any(Date) as Date });
    const project = await db.project.findUniqueOrThrow({ where: { slug: "private-one" }, include: { members: { orderBy: { subject: "asc" } } } });
    expect(project.visibility).toBe("private");
    expect(project.members.map(({ kind, subject, role }) => ({ kind, subject, role }))).toEqual([
      { kind: "email", subject: "ada@example.com", role: "maintainer" },
      { kind: "group", subject: "perf-team", role: "triager" },
    ]);
    const reader = await db.apiToken.findFirstOrThrow({ where: { name: "dashboard reader" } });
    expect(reader).toMatchObject({ scopes: ["read"], expiresAt, createdBy: "Ada Lovelace <ada@example.com>" });
    expect((await db.apiToken.findFirstOrThrow({ where: { name: "ci" } })).scopes).toEqual(["upload"]);

    // Into a database that now holds users and projects: refused, unless --force, which replaces them.
    await expect(restoreServer(db, textOf(backup), { force: false })).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("2 project(s) and 2 user(s)") as string });
    await restoreServer(db, textOf(backup), { force: true });
    expect(await db.user.findMany({ orderBy: { id: "asc" } })).toEqual(sourceUsers);
  });

  it("refuses a database that holds users only, unless --force", async () => {
    const restored = await fresh();
    await restored.prisma.user.create({ data: { issuer: "https://id.example.com", subject: "u-new", email: "new@example.com" } });
    const refusal = await restoreServer(restored.prisma, textOf(backup), { force: false }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect((refusal as ServiceError).message).toMatch(/holds 1 user\(s\)/);
    await restoreServer(restored.prisma, textOf(backup), { force: true });
    expect(await restored.prisma.user.count({ where: { subject: "u-new" } })).toBe(0);
    expect(await restored.prisma.user.count()).toBe(2);
  });

  it("restores a token line written before scopes existed with all three, never expiring", async () => {
    const old = backup.map((line) => {
      if (line.kind !== "token") return line;
      const { scopes: _scopes, expiresAt: _expiresAt, createdBy: _createdBy, ...rest } = line;
      return rest;
    });
    // And a project line from before access state: the server's default, no grants.
    const older = old.map((line) => {
      if (line.kind !== "project") return line;
      const { visibility: _visibility, members: _members, ...rest } = line;
      return rest;
    });
    const restored = await fresh();
    await restoreServer(restored.prisma, textOf(older), { force: false });
    const tokens = await restored.prisma.apiToken.findMany({ orderBy: { name: "asc" } });
    expect(tokens.map(({ name, scopes, expiresAt: expires, createdBy }) => ({ name, scopes, expiresAt: expires, createdBy }))).toEqual([
      { name: "ci", scopes: ["upload", "read", "triage"], expiresAt: null, createdBy: null },
      { name: "dashboard reader", scopes: ["upload", "read", "triage"], expiresAt: null, createdBy: null },
    ]);
    const project = await restored.prisma.project.findUniqueOrThrow({ where: { slug: "private-one" }, include: { members: true } });
    expect(project).toMatchObject({ visibility: null, members: [] });
  });
});
