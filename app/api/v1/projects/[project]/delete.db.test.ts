import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDatabase, getDb } from "@/server/db";
import { jobQueueOf } from "@/server/services/platform/job-queue";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { adminCaller } from "@/server/testing/trpc-callers";
import { mintProjectToken } from "@/server/testing/seed";
import { GET as getAudit } from "./audit/route";
import { POST as uploadRun } from "./runs/route";
import { DELETE as deleteProjectRoute, GET as getProject } from "./route";

// DELETE /api/v1/projects/:project (issue 39, item 5): the project and everything of it, admin only; its
// audit entries outlive it. On the embedded database and, with DATABASE_URL, PostgreSQL.
setUpRouteTestDatabase();

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../server/domain/parsers/fixtures");
const summary = readFileSync(path.join(FIXTURES, "k6", "baseline", "round1", "summary.json"));

async function seedProject(slug: string) {
  for (const day of [1, 2]) {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: summary,
      query: { branch: "main", started_at: new Date(Date.UTC(2026, 1, day)).toISOString() },
    });
    expect(response.status).toBe(201);
  }
  const token = await mintProjectToken(slug, "ci");
  const db = await getDb();
  const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true, tokens: { select: { id: true } } } });
  // A rate-limit row naming its token, as an upload from an address leaves.
  await db.rateLimit.create({ data: { key: `upload:token:${project.tokens[0]!.id}`, windowStart: new Date(), count: 3 } });
  return { token, projectId: project.id, tokenId: project.tokens[0]!.id };
}

const remove = (slug: string, token?: string | null) => call(deleteProjectRoute, `/api/v1/projects/${slug}`, { project: slug }, { method: "DELETE", token });

describe("DELETE /api/v1/projects/:project", () => {
  it("is the admin's only: 401 without a token, 403 for the project's own token, 404 for an unknown project", async () => {
    const slug = uniqueSlug("delproj-refuse");
    const { token } = await seedProject(slug);
    expect((await remove(slug, null)).status).toBe(401);
    expect((await remove(slug, token)).status).toBe(403);
    expect((await remove(uniqueSlug("nope"))).status).toBe(404);
    expect((await call(getProject, `/api/v1/projects/${slug}`, { project: slug })).status).toBe(200);
  });

  it("deletes the project, its runs, tokens, rate-limit rows and queued jobs; its audit entries stay", async () => {
    const slug = uniqueSlug("delproj");
    const other = uniqueSlug("delproj-other");
    const { projectId, tokenId } = await seedProject(slug);
    await seedProject(other);
    const database = await getDatabase();
    const schema = (await jobQueueOf(database)).schema;
    const queued = async (id: string) =>
      (await database.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${schema}.job WHERE data->>'projectId' = $1 AND state IN ('created', 'retry')`, id))[0]!.n;
    expect(await queued(projectId)).toBeGreaterThan(0);

    const response = await remove(slug);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { project: string; deleted: { runs: number; tokens: number; queuedJobs: number }; auditId: string };
    expect(body.project).toBe(slug);
    expect(body.deleted).toMatchObject({ runs: 2, tokens: 1 });
    expect(body.deleted.queuedJobs).toBeGreaterThan(0);

    const db = await getDb();
    expect((await call(getProject, `/api/v1/projects/${slug}`, { project: slug })).status).toBe(404);
    expect(await db.run.count({ where: { projectId } })).toBe(0);
    expect(await db.apiToken.count({ where: { projectId } })).toBe(0);
    expect(await db.rateLimit.count({ where: { key: `upload:token:${tokenId}` } })).toBe(0);
    expect(await queued(projectId)).toBe(0);
    // The other project is untouched.
    expect(await db.run.count({ where: { project: { slug: other } } })).toBe(2);

    const audit = await call(getAudit, `/api/v1/projects/${slug}/audit`, { project: slug });
    expect(audit.status).toBe(200);
    const { entries } = (await audit.json()) as { entries: { id: string; action: string; actor: string; project: string; detail: { runs: number } }[] };
    expect(entries[0]).toMatchObject({ id: body.auditId, action: "project.delete", actor: "admin token", project: slug, detail: { runs: 2 } });
  });

  it("from the dashboard: the typed confirmation must be the slug", async () => {
    const slug = uniqueSlug("delproj-ui");
    await seedProject(slug);
    const db = await getDb();
    // A session's principal is the admin too; viaSession comes from the missing Authorization header.
    const caller = adminCaller(db);
    await expect(caller.settings.deleteProject({ project: slug, confirm: "wrong" })).rejects.toThrow(/Type the project's slug/);
    expect(await db.project.count({ where: { slug } })).toBe(1);
    const deleted = await caller.settings.deleteProject({ project: slug, confirm: slug });
    expect(deleted.deleted.runs).toBe(2);
    expect(await db.project.count({ where: { slug } })).toBe(0);
  });
});
