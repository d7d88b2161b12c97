import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { rereadEnv } from "../../env";
import { sealSession } from "../../services/access/sessions";
import { openMigratedDatabase } from "../../testing/databases";
import { createCaller } from "../root";

// The layout shows admin controls by session.get; the admin procedures check the same cookie.
describe("session.get", () => {
  let database: Database;
  const caller = (session: string | null) => createCaller({ db: database.prisma, authorization: null, session, share: null });

  beforeAll(async () => {
    process.env.BENCHTRACK_ADMIN_TOKEN = "session-test-admin-token-0123";
    database = await openMigratedDatabase({ kind: "memory" });
  });

  afterAll(async () => {
    await database.close();
    delete process.env.BENCHTRACK_ADMIN_TOKEN;
  });

  it("says what the session cookie grants, and nothing for none or a forged one", async () => {
    const admin = await sealSession("admin");
    await expect(caller(admin).session.get()).resolves.toEqual({ role: "admin", user: null, private: false, share: null, oidc: null });
    await expect(caller(await sealSession("read")).session.get()).resolves.toMatchObject({ role: "read" });
    await expect(caller(null).session.get()).resolves.toMatchObject({ role: null });
    await expect(caller(`${admin.slice(0, -4)}AAAA`).session.get()).resolves.toMatchObject({ role: null });
  });

  it("names the person a person's session signs in, and nothing once an admin disabled them", async () => {
    const user = await database.prisma.user.create({
      data: { issuer: "https://idp.example.com", subject: `session-${Date.now()}`, email: "ada@example.com", name: "Ada Lovelace", serverAdmin: true },
    });
    const session = await sealSession({ role: "user", userId: user.id });
    await expect(caller(session).session.get()).resolves.toMatchObject({
      role: "user",
      user: { name: "Ada Lovelace", email: "ada@example.com", serverAdmin: true },
    });
    await database.prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    await expect(caller(session).session.get()).resolves.toMatchObject({ role: null, user: null });
  });

  it("offers the identity provider by name when one is configured", async () => {
    Object.assign(process.env, { BENCHTRACK_OIDC_ISSUER: "https://idp.example.com", BENCHTRACK_OIDC_CLIENT_ID: "benchtrack", BENCHTRACK_OIDC_NAME: "Okta" });
    rereadEnv();
    try {
      await expect(caller(null).session.get()).resolves.toMatchObject({ role: null, oidc: { name: "Okta" } });
    } finally {
      for (const name of ["BENCHTRACK_OIDC_ISSUER", "BENCHTRACK_OIDC_CLIENT_ID", "BENCHTRACK_OIDC_NAME"]) delete process.env[name];
      rereadEnv();
    }
  });

  it("unlocks admin procedures with an admin session, as the token does", async () => {
    await database.prisma.project.create({ data: { slug: "session-tokens", name: "session-tokens" } });
    const projects = caller(await sealSession("admin"));
    await expect(projects.token.list({ project: "session-tokens" })).resolves.toEqual([]);
    await expect(projects.token.list({ project: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(await sealSession("read")).token.list({ project: "session-tokens" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
