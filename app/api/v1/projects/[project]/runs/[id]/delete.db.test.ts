import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDatabase, getDb } from "@/server/db";
import { jobQueueOf } from "@/server/services/platform/job-queue";
import { AGGREGATE_URL_NAME } from "@/server/domain/run";
import { SHARE_PARAM } from "@/server/domain/share";
import { getEndpointTrends } from "@/server/services/trends/endpoint-trends";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { mintProjectToken } from "@/server/testing/seed";
import { GET as getAudit } from "../../audit/route";
import { GET as getBadge } from "../../badge.svg/route";
import { GET as getPins, PUT as pinBaseline } from "../../baseline/route";
import { GET as compareRoute } from "../../compare/route";
import { POST as mintShare } from "../../share-links/route";
import { GET as listRuns, POST as uploadRun } from "../route";
import { DELETE as deleteRunRoute, GET as getRun } from "./route";

// DELETE /api/v1/projects/:project/runs/:id (issue 39, item 5) through its route, on the embedded
// database and, with DATABASE_URL, PostgreSQL: each effect the docs list (docs/operations.md, "Deleting
// and retention"), the refusals, and the audit entry.
setUpRouteTestDatabase();

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../../server/domain/parsers/fixtures");
const summary = (round: number) => readFileSync(path.join(FIXTURES, "k6", "baseline", `round${(round % 3) + 1}`, "summary.json"));

/** Uploads `count` runs on main, a day apart from 2026-01-05 (a Monday); their ids, oldest first. */
async function seedRuns(slug: string, count: number, query: Record<string, string> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: summary(index),
      query: { branch: "main", label: "nightly", started_at: new Date(Date.UTC(2026, 0, 5 + index, 9)).toISOString(), ...query },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

const remove = (slug: string, id: string, token?: string | null) =>
  call(deleteRunRoute, `/api/v1/projects/${slug}/runs/${encodeURIComponent(id)}`, { project: slug, id }, { method: "DELETE", token });
const runIdsOf = async (slug: string) =>
  (((await (await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug })).json()) as { runs: { id: string }[] }).runs.map((run) => run.id));
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string; details: { path: string }[] } }).error;
const projectIdOf = async (slug: string) => (await (await getDb()).project.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;

interface Deleted {
  runId: string;
  deleted: { runs: number; results: number; rawUploads: number; annotations: number; changes: number; incidents: number[]; baselinePins: number; shareLinksRevoked: number };
  auditId: string;
}

describe("DELETE /api/v1/projects/:project/runs/:id", () => {
  it("removes the run from the list, its page, compare and the badge, and answers what went", async () => {
    const slug = uniqueSlug("del-run");
    const [first, second] = await seedRuns(slug, 2);
    const badgeText = async () => (await (await call(getBadge, `/api/v1/projects/${slug}/badge.svg`, { project: slug }, { query: { kind: "gate" }, token: null })).text());
    expect(await badgeText()).not.toContain("no runs");
    const compare = () => call(compareRoute, `/api/v1/projects/${slug}/compare`, { project: slug }, { query: { base: first!, head: second! } });
    expect((await compare()).status).toBe(200);

    const response = await remove(slug, second!);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Deleted;
    expect(body.runId).toBe(second);
    expect(body.deleted).toMatchObject({ runs: 1, rawUploads: 1, changes: 0, incidents: [], baselinePins: 0, shareLinksRevoked: 0 });
    expect(body.deleted.results).toBeGreaterThan(0);

    expect(await runIdsOf(slug)).toEqual([first]);
    expect((await call(getRun, `/api/v1/projects/${slug}/runs/${second}`, { project: slug, id: second! })).status).toBe(404);
    expect((await compare()).status).toBe(404);
    const db = await getDb();
    expect(await db.result.count({ where: { runId: second! } })).toBe(0);
    expect(await db.rawUpload.count({ where: { runId: second! } })).toBe(0);
    // Deleted twice: the second is a 404.
    expect((await remove(slug, second!)).status).toBe(404);
    await remove(slug, first!);
    expect(await badgeText()).toContain("no runs");
  });

  it("refuses: 401 without a token, 403 for another project's token, 404 for an unknown run or project, 400 for a bad id; nothing deleted", async () => {
    const slug = uniqueSlug("del-refuse");
    const other = uniqueSlug("del-other");
    const [id] = await seedRuns(slug, 1);
    await seedRuns(other, 1);
    const otherToken = await mintProjectToken(other, "other-ci");
    expect((await remove(slug, id!, null)).status).toBe(401);
    const forbidden = await remove(slug, id!, otherToken);
    expect(forbidden.status).toBe(403);
    expect((await errorOf(forbidden)).code).toBe("forbidden");
    expect((await remove(slug, "cnotarunatall0000000000000")).status).toBe(404);
    expect((await remove(uniqueSlug("nope"), id!)).status).toBe(404);
    const bad = await remove(slug, "not a run id!");
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details[0]?.path).toBe("path.id");
    expect((await remove(slug, "x".repeat(65))).status).toBe(400);
    expect(await runIdsOf(slug)).toEqual([id]);
  });

  it("a token of the project may not delete (a maintainer's act: docs/access.md); the audit entry names who did", async () => {
    const slug = uniqueSlug("del-token");
    const [id] = await seedRuns(slug, 1);
    const token = await mintProjectToken(slug, "ci-bot");
    expect((await remove(slug, id!, token)).status).toBe(403);
    expect(await runIdsOf(slug)).toEqual([id]);
    const response = await remove(slug, id!);
    expect(response.status).toBe(200);
    const { auditId } = (await response.json()) as Deleted;
    const audit = await call(getAudit, `/api/v1/projects/${slug}/audit?action=run.delete`, { project: slug });
    expect(audit.status).toBe(200);
    const { entries } = (await audit.json()) as { entries: { id: string; actor: string; action: string; targetId: string; detail: { runs: number } }[] };
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: auditId, action: "run.delete", targetId: id, detail: { runs: 1 } });
    expect(entries[0]!.actor).toMatch(/admin/);
    // The audit log is its maintainers': a project token may not read it.
    expect((await call(getAudit, `/api/v1/projects/${slug}/audit`, { project: slug }, { token })).status).toBe(403);
  });

  it("a pinned baseline falls back: the run leaves the pin, and a pin left empty is removed", async () => {
    const slug = uniqueSlug("del-pin");
    const [a, b, c] = await seedRuns(slug, 3);
    const pin = (forLabel: string | null, runIds: string[]) =>
      call(pinBaseline, `/api/v1/projects/${slug}/baseline`, { project: slug }, { method: "PUT", body: JSON.stringify({ forLabel, runIds }) });
    expect((await pin("nightly", [a!, b!])).status).toBe(200);
    expect((await pin(null, [a!])).status).toBe(200);
    const deleted = (await (await remove(slug, a!)).json()) as Deleted;
    expect(deleted.deleted.baselinePins).toBe(2);
    const db = await getDb();
    const pins = await db.baselinePin.findMany({ where: { projectId: await projectIdOf(slug) }, select: { forLabel: true, runIds: true } });
    expect(pins).toEqual([{ forLabel: "nightly", runIds: [b] }]);
    expect((await remove(slug, b!)).status).toBe(200);
    expect(await db.baselinePin.count({ where: { projectId: await projectIdOf(slug) } })).toBe(0);
    expect((await call(getPins, `/api/v1/projects/${slug}/baseline`, { project: slug })).status).toBe(200);
    expect(await runIdsOf(slug)).toEqual([c]);
  });

  it("removes the changes first seen at the run and the incident they opened; other incidents stay", async () => {
    const slug = uniqueSlug("del-incident");
    const [a, b] = await seedRuns(slug, 2);
    const db = await getDb();
    const projectId = await projectIdOf(slug);
    const open = async (firstRunId: string, number: number) => {
      const incident = await db.incident.create({ data: { projectId, number, firstRunId, detectorVersion: 1 } });
      await db.change.create({
        data: { projectId, metric: "p95", kind: "regression", firstRunId, beforeValue: 1, afterValue: 2, deltaPct: 100, incidentId: incident.id },
      });
      return incident.id;
    };
    await open(a!, 1);
    const kept = await open(b!, 2);
    const body = (await (await remove(slug, a!)).json()) as Deleted;
    expect(body.deleted).toMatchObject({ changes: 1, incidents: [1] });
    expect(await db.incident.findMany({ where: { projectId }, select: { id: true } })).toEqual([{ id: kept }]);
    expect(await db.change.count({ where: { projectId } })).toBe(1);
  });

  it("revokes share links that include the run, and takes its annotations", async () => {
    const slug = uniqueSlug("del-share");
    const [a, b] = await seedRuns(slug, 2);
    const mint = async (body: unknown) => {
      const response = await call(mintShare, `/api/v1/projects/${slug}/share-links`, { project: slug }, { method: "POST", body: JSON.stringify(body) });
      expect(response.status).toBe(201);
      const { url } = (await response.json()) as { url: string };
      return new URL(url).pathname.split("/").pop()!;
    };
    const ofRun = await mint({ run: a });
    const ofCompare = await mint({ compare: { base: a, head: b } });
    const ofOther = await mint({ run: b });
    const db = await getDb();
    await db.annotation.create({ data: { projectId: await projectIdOf(slug), runId: a!, at: new Date(), text: "deployed" } });
    const body = (await (await remove(slug, a!)).json()) as Deleted;
    expect(body.deleted).toMatchObject({ shareLinksRevoked: 2, annotations: 1 });
    const revoked = await db.shareLink.findMany({ where: { id: { in: [ofRun, ofCompare, ofOther] } }, select: { id: true, revokedAt: true } });
    expect(revoked.filter((link) => link.revokedAt !== null).map((link) => link.id).sort()).toEqual([ofRun, ofCompare].sort());
    // The run's link opens nothing now; the other run's link still opens its run.
    const read = (id: string, share: string) => call(getRun, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id }, { token: null, query: { [SHARE_PARAM]: share } });
    expect((await read(a!, ofRun)).status).toBe(404);
    expect((await read(b!, ofOther)).status).toBe(200);
  });

  it("the trend page stops counting the run at once (its cached history is read again), and rollups after the job", async () => {
    const slug = uniqueSlug("del-rollup");
    const ids = await seedRuns(slug, 3);
    await runQueuedJobsNow();
    const db = await getDb();
    const projectId = await projectIdOf(slug);
    const weeklyRuns = async () =>
      (await db.trendRollup.findMany({ where: { projectId, grain: "week", endpointId: null }, select: { runs: true } })).reduce((sum, row) => sum + row.runs, 0);
    expect(await weeklyRuns()).toBe(3);
    // The trend page's whole history, cached in this process at the current history version.
    const trend = async () => {
      const answer = await getEndpointTrends(db, { projectSlug: slug, endpoint: AGGREGATE_URL_NAME, branches: ["main"], label: null, range: "all" });
      return { total: answer.totalRuns, runIds: answer.points.map((point) => point.runId) };
    };
    expect(await trend()).toEqual({ total: 3, runIds: ids });
    const versionBefore = (await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { historyVersion: true } })).historyVersion;
    expect((await remove(slug, ids[1]!)).status).toBe(200);
    // Committed with the deletion: the pending week (the trend page reads it from the raw rows) and a moved history version.
    expect(await db.trendRollupPending.count({ where: { projectId } })).toBeGreaterThan(0);
    expect((await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { historyVersion: true } })).historyVersion).toBeGreaterThan(versionBefore);
    expect(await trend()).toEqual({ total: 2, runIds: [ids[0], ids[2]] });
    // Change-point detection is queued again for the series, from the run after the deleted one.
    const database = await getDatabase();
    const schema = (await jobQueueOf(database)).schema;
    const detections = await database.prisma.$queryRawUnsafe<{ runId: string }[]>(
      `SELECT data->>'runId' AS "runId" FROM ${schema}.job WHERE name = 'detect-regressions' AND data->>'projectId' = $1 AND state = 'created'`,
      projectId,
    );
    expect(detections.map((job) => job.runId)).toEqual([ids[2]]);
    await runQueuedJobsNow();
    expect(await weeklyRuns()).toBe(2);
    expect(await db.trendRollupPending.count({ where: { projectId } })).toBe(0);
  });
});
