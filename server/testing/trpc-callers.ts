import { afterAll, beforeAll, expect } from "vitest";
import { createCaller } from "../api/root";
import type { TokenScope } from "../domain/access/roles";
import type { PrismaClient } from "../generated/prisma/client";
import { newTokenSecret } from "../services/access/tokens";
import type { Database, DatabaseTarget } from "../db";
import { openMigratedDatabase, uniqueSlug } from "./databases";
import { TEST_ADMIN_TOKEN } from "./rest-client";

/**
 * tRPC procedures called in-process the way the dashboard calls them over HTTP: the context carries
 * the Authorization header, and each procedure turns it into a principal by the REST API's rules.
 * Call `configureAdminToken()` before the first call (the environment is read once per test file).
 */
export type Caller = ReturnType<typeof createCaller>;

function configureAdminToken(): void {
  process.env.BENCHTRACK_ADMIN_TOKEN = TEST_ADMIN_TOKEN;
}

export function callerWith(db: PrismaClient, token: string | null): Caller {
  return createCaller({ db, authorization: token === null ? null : `Bearer ${token}` });
}

export function adminCaller(db: PrismaClient): Caller {
  return callerWith(db, TEST_ADMIN_TOKEN);
}

/**
 * A new project (unique slug) with one live token of its own: upload only, as a new token is, unless
 * `scopes` says otherwise (["upload", "read", "triage"] for one that reads and triages too).
 */
export async function seedProjectWithToken(db: PrismaClient, prefix: string, scopes?: TokenScope[]) {
  const slug = uniqueSlug(prefix);
  const project = await db.project.create({ data: { slug, name: slug }, select: { id: true } });
  const { token, prefix: tokenPrefix, tokenHash } = newTokenSecret();
  await db.apiToken.create({ data: { projectId: project.id, name: "ci", prefix: tokenPrefix, tokenHash, ...(scopes && { scopes }) } });
  return { slug, projectId: project.id, uploadToken: token };
}

/** `count` k6 runs labelled nightly on main, a day apart from 2026-11-01 (round 1, 2… with `rounds`); their ids in order. */
export async function createNightlyRuns(db: PrismaClient, projectId: string, count: number, { rounds = false } = {}): Promise<string[]> {
  const runIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const run = await db.run.create({
      data: {
        projectId,
        tool: "k6",
        format: "k6-summary",
        label: "nightly",
        ...(rounds && { round: index + 1 }),
        gitBranch: "main",
        startedAt: new Date(Date.UTC(2026, 10, 1 + index)),
      },
      select: { id: true },
    });
    runIds.push(run.id);
  }
  return runIds;
}

/**
 * A procedure's refusals: without a token (UNAUTHORIZED), with a token nobody knows (UNAUTHORIZED), and with
 * `token`, one of the project's whose scopes do not open the call (FORBIDDEN). The full table of who may
 * do what is server/access-matrix.db.test.ts.
 */
export async function expectAdminOnly(db: PrismaClient, uploadToken: string, call: (caller: Caller) => Promise<unknown>) {
  await expect(call(callerWith(db, null))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  await expect(call(callerWith(db, "not-a-token"))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  await expect(call(callerWith(db, uploadToken))).rejects.toMatchObject({ code: "FORBIDDEN" });
}

/**
 * A router test's database: opened (migrated) before the file's tests on `target`, with the admin
 * token configured, and closed after them. Call inside `describe.each(testDatabaseTargets())`.
 */
export function useRouterDatabase(target: DatabaseTarget): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    configureAdminToken();
    database = await openMigratedDatabase(target);
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (!database) throw new Error("The database opens in beforeAll: use it inside a test");
    return database;
  };
}
