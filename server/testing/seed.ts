import { expect } from "vitest";
import { randomUUID } from "node:crypto";
import { POST as createToken } from "@/app/api/v1/projects/[project]/tokens/route";
import { POST as createProject } from "@/app/api/v1/projects/route";
import type { RunMetadata } from "../domain/parsers";
import type { PrismaClient } from "../generated/prisma/client";
import { ingestRun } from "../services/ingest/ingest-run";
import type { IngestOutcome } from "../services/ingest/ingest-run";
import { uploadOfFiles } from "../services/ingest/received-upload";
import type { ReceivedUpload } from "../services/ingest/received-upload";
import { call } from "./rest-client";
import type { TokenScope } from "../domain/access/roles";
import { getDb } from "../db";
import { newTokenSecret } from "../services/access/tokens";

/**
 * How tests put data in place: runs through the ingest use case (service and router tests), projects
 * and tokens through the REST API (route tests). Each test still names its own slug (`uniqueSlug`).
 */

/** The public URL the tests' uploads and comparisons link to. */
const TEST_BASE_URL = "http://bench.test";

interface SeedOptions {
  /** `?format=`: null (the default) detects it from the content. */
  format?: string | null;
  /** The upload's metadata (`?label=`, `?branch=`…), over what the file says. */
  metadata?: RunMetadata;
}

function isReceivedUpload(body: object): body is ReceivedUpload {
  return "kind" in body && (body.kind === "files" || body.kind === "ndjson");
}

/** A JSON document as the one-file upload body ingestRun receives. */
function jsonUpload(text: string): ReceivedUpload {
  return uploadOfFiles([{ name: "run.json", contentType: "application/json", bytes: Buffer.from(text) }]);
}

/**
 * Stores one run in project `slug` (created when missing, as an admin's upload does) through the
 * ingest use case: a Benchtrack document (an object or its text), or the files of one upload
 * (`uploadOfFiles`). No idempotency key.
 */
export async function ingestTestRun(
  db: PrismaClient,
  slug: string,
  body: object | string | ReceivedUpload,
  options: SeedOptions = {},
): Promise<IngestOutcome<null>> {
  const upload = typeof body === "string" ? jsonUpload(body) : isReceivedUpload(body) ? body : jsonUpload(JSON.stringify(body));
  return ingestRun(db, {
    projectSlug: slug,
    createProjectIfMissing: true,
    upload,
    format: options.format ?? null,
    metadata: options.metadata ?? {},
    idempotencyKey: null,
    baseUrl: TEST_BASE_URL,
  });
}

/** POST /api/v1/projects with the admin token: a new project of that slug, or the test fails. */
export async function createProjectThroughApi(slug: string): Promise<void> {
  const created = await call(createProject, "/api/v1/projects", {}, { method: "POST", body: JSON.stringify({ slug }) });
  expect(created.status).toBe(201);
}

/**
 * POST /api/v1/projects/:slug/tokens with the admin token: a new token's secret, upload-only unless
 * `scopes` say more. Without a name, one no other live token of the project has.
 */
export async function mintProjectToken(slug: string, name?: string, scopes?: string[]): Promise<string> {
  const created = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, {
    method: "POST",
    body: JSON.stringify({ name: name ?? `ci-${randomUUID().slice(0, 8)}`, ...(scopes && { scopes }) }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { token: string }).token;
}

/** A token of the project with these scopes (docs/access.md), stored as Settings makes one; its secret. */
export async function mintScopedToken(slug: string, scopes: TokenScope[], name = scopes.join("+")): Promise<string> {
  const db = await getDb();
  const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  const { token, prefix, tokenHash } = newTokenSecret();
  await db.apiToken.create({ data: { projectId: project.id, name, prefix, tokenHash, scopes } });
  return token;
}
