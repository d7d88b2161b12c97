import { describe, expect, it } from "vitest";
import { DELETE as deleteRun } from "@/app/api/v1/projects/[project]/runs/[id]/route";
import { fixture, upload as uploadThroughRoute } from "@/app/api/v1/projects/[project]/runs/uploads.fixture";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";

// Uploads and run deletions of one project at once (docs/architecture.md, "the upload's path"): an
// upload locks the project's row, then the job rows; a deletion locks its runs, then the project's row
// (the history triggers), then the job rows. Both take the project before the jobs, so neither waits
// on the other in a circle: every request answers (no deadlock, no 500), the runs left are exactly the
// uploaded ones, and the jobs both queued bring the rollups and detection to the same state as if they
// had run one after the other. On the embedded database (one connection: requests take turns) and,
// with DATABASE_URL, PostgreSQL, where their statements interleave.
setUpRouteTestDatabase();

const summaries = ["round1", "round2", "round3"].map((round) => fixture(`k6/baseline/${round}/summary.json`));

async function upload(slug: string, round: number): Promise<{ status: number; id: string | null }> {
  const { status, json } = await uploadThroughRoute(slug, summaries[round % summaries.length]!, { query: { branch: "main", label: "nightly", round: String(round) } });
  return { status, id: (json.id as string | undefined) ?? null };
}

async function remove(slug: string, id: string): Promise<number> {
  const response = await call(deleteRun, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id }, { method: "DELETE" });
  return response.status;
}

describe("uploads racing run deletions", () => {
  it("every upload and every deletion of one project answers, and what is left is consistent", async () => {
    const slug = uniqueSlug("race-delete");
    const seeded: string[] = [];
    for (let round = 1; round <= 8; round++) {
      const { status, id } = await upload(slug, round);
      expect(status).toBe(201);
      seeded.push(id!);
    }
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });

    // Three waves, each 8 uploads and the deletion of 3 earlier runs, all sent at once.
    const uploaded: string[] = [];
    const deleted: string[] = [];
    for (let wave = 0; wave < 3; wave++) {
      const doomed = seeded.slice(wave * 3, wave * 3 + 3).filter((id) => id !== undefined);
      const [uploads, deletions] = await Promise.all([
        Promise.all(Array.from({ length: 8 }, (_, index) => upload(slug, 100 + wave * 8 + index))),
        Promise.all(doomed.map((id) => remove(slug, id))),
      ]);
      expect(uploads.map((answer) => answer.status)).toEqual(Array(8).fill(201));
      expect(deletions).toEqual(Array(doomed.length).fill(200));
      uploaded.push(...uploads.map((answer) => answer.id!));
      deleted.push(...doomed);
    }

    const left = (await db.run.findMany({ where: { projectId: project.id }, select: { id: true } })).map((run) => run.id).sort();
    expect(left).toEqual([...seeded.filter((id) => !deleted.includes(id)), ...uploaded].sort());
    expect(await db.result.count({ where: { run: { projectId: project.id }, runId: { in: deleted } } })).toBe(0);

    // The jobs both sides queued (coalesced per project and series) run, and leave nothing pending.
    await runQueuedJobsNow();
    expect(await db.trendRollupPending.count({ where: { projectId: project.id } })).toBe(0);
    // The weekly buckets of the run aggregate count exactly the runs left.
    const [buckets] = await db.$queryRaw<{ runs: number }[]>`
      SELECT COALESCE(sum(runs), 0)::int AS runs FROM trend_rollups
      WHERE project_id = ${project.id} AND grain = 'week' AND endpoint_id IS NULL`;
    expect(buckets?.runs).toBe(left.length);
  }, 120_000);
});
