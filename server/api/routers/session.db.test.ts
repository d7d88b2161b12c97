import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
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
    await expect(caller(admin).session.get()).resolves.toEqual({ role: "admin", private: false, share: null });
    await expect(caller(await sealSession("read")).session.get()).resolves.toMatchObject({ role: "read" });
    await expect(caller(null).session.get()).resolves.toMatchObject({ role: null });
    await expect(caller(`${admin.slice(0, -4)}AAAA`).session.get()).resolves.toMatchObject({ role: null });
  });

  it("unlocks admin procedures with an admin session, as the token does", async () => {
    await database.prisma.project.create({ data: { slug: "session-tokens", name: "session-tokens" } });
    const projects = caller(await sealSession("admin"));
    await expect(projects.token.list({ project: "session-tokens" })).resolves.toEqual([]);
    await expect(projects.token.list({ project: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(await sealSession("read")).token.list({ project: "session-tokens" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
