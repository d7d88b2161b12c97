import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeDb, targetFromEnv } from "../db";
import { migrateDatabase } from "../migrate/apply";
import { checkAgainstOpenApi } from "./openapi-responses";

/**
 * Calls the REST route handlers in-process, as Next.js would, against the database the environment
 * names: PostgreSQL when DATABASE_URL is set (CI runs the `db` project both ways), else a fresh embedded
 * database in a temporary folder. Real handlers, real parsing, real database: only the HTTP socket
 * is skipped (the Playwright suite covers that).
 */
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789";

export async function configureTestEnvironment(): Promise<void> {
  process.env.BENCHTRACK_ADMIN_TOKEN = TEST_ADMIN_TOKEN;
  process.env.BENCHTRACK_PUBLIC_URL = "http://bench.test";
  // Test files share one PostgreSQL database and run at once: each drains a job queue of its own.
  process.env.BENCHTRACK_JOB_SCHEMA = `pgboss_test_${randomUUID().slice(0, 8).replaceAll("-", "")}`;
  if (!process.env.DATABASE_URL?.trim()) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "benchtrack-api-"));
    process.env.BENCHTRACK_DATA_DIR = dataDir;
    // The new folder starts from the migrated template (server/migrate/template.ts), in under a second.
    await migrateDatabase({ kind: "embedded", dataDir });
  }
}

/**
 * A route test file's database: before its tests, the test environment (with `env` on top, set before
 * the environment is first read) and the database it names, migrated; closed after them. Call once, at
 * the top of the file.
 */
export function setUpRouteTestDatabase(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    await configureTestEnvironment();
    Object.assign(process.env, env);
    // The embedded folder is migrated already (configureTestEnvironment); opening it again to find so costs a second.
    const target = targetFromEnv();
    if (target.kind !== "embedded") await migrateDatabase(target);
  });
  afterAll(async () => {
    await closeDb();
  });
}

type Handler<Params> = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  token?: string | null;
}

export async function call<Params>(
  handler: Handler<Params>,
  pathname: string,
  params: Params,
  options: CallOptions = {},
): Promise<Response> {
  const url = new URL(pathname, "http://localhost");
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers(options.headers);
  const token = options.token === undefined ? TEST_ADMIN_TOKEN : options.token;
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  const method = options.method ?? "GET";
  // A stream body (a test's endless one) needs half duplex; Node's RequestInit types lack the field.
  const request = new Request(url, { method, headers, body: options.body ?? null, duplex: "half" } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  // Every answer a test sees is also checked against the published OpenAPI document.
  const mismatch = await checkAgainstOpenApi(method, url.pathname, response);
  if (mismatch) throw new Error(`The answer does not match the OpenAPI document: ${mismatch}`);
  return response;
}
