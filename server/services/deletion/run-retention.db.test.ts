import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PATCH as patchProject } from "@/app/api/v1/projects/[project]/route";
import { PUT as pinBaseline } from "@/app/api/v1/projects/[project]/baseline/route";
import { POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { adminCaller } from "@/server/testing/trpc-callers";
import { applyRunRetention } from "./run-retention";

// Run retention (issue 39, item 5): Settings' preview says what the nightly sweep then deletes, exactly,
// and the sweep protects a series' newest run, pinned runs and open incidents' first runs. On the
// embedded database and, with DATABASE_URL, PostgreSQL.
setUpRouteTestDatabase();

const FIXTURES = path.resolve(import.meta.dirname, "../../domain/parsers/fixtures");
const summary = readFileSync(path.join(FIXTURES, "k6", "baseline", "round1", "summary.json"));
const NOW = new Date("2026-03-31T00:00:00Z");

/** Runs of one series a day apart, ending 1 day before NOW; ids oldest first. */
async function seed(slug: string, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const startedAt = new Date(NOW.getTime() - (count - index) * 86_400_000);
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: summary,
      query: { branch: "main", label, started_at: startedAt.toISOString() },
    });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

describe("run retention", () => {
  it("deletes exactly what the preview said, keeping the newest runs, pinned runs and an open incident's evidence", async () => {
    const slug = uniqueSlug("retention");
    const nightly = await seed(slug, 6, "nightly");
    const smoke = await seed(slug, 2, "smoke");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    // Protected: nightly[0] by a pin, nightly[1] as an open incident's first run.
    expect((await call(pinBaseline, `/api/v1/projects/${slug}/baseline`, { project: slug }, { method: "PUT", body: JSON.stringify({ forLabel: "nightly", runIds: [nightly[0]] }) })).status).toBe(200);
    await db.incident.create({ data: { projectId: project.id, number: 1, firstRunId: nightly[1]!, detectorVersion: 1 } });

    const caller = adminCaller(db);
    const rule = { retentionDays: null, retentionKeepRuns: 2 };
    const preview = await caller.settings.previewRetention({ project: slug, ...rule });
    // nightly keeps its newest 2 (4, 5); 0 and 1 are protected; 2 and 3 go. smoke has 2: none go.
    expect(preview).toEqual({ wouldDelete: 2, protectedRuns: 2, totalRuns: 8 });

    const saved = await call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, { method: "PATCH", body: JSON.stringify(rule) });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ retentionDays: null, retentionKeepRuns: 2 });

    const [report] = await applyRunRetention(db, { projectId: project.id, now: NOW, baseUrl: "http://bench.test" });
    expect(report?.deleted.runs).toBe(preview.wouldDelete);
    const left = (await db.run.findMany({ where: { projectId: project.id }, select: { id: true } })).map((run) => run.id).sort();
    expect(left).toEqual([nightly[0], nightly[1], nightly[4], nightly[5], ...smoke].sort());
    const { entries } = await caller.settings.audit({ project: slug, action: "retention.delete" });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "retention.delete", actor: "retention job", detail: { runs: 2, protectedRuns: 2, rule } });

    // A second sweep finds nothing more and writes no entry.
    const [again] = await applyRunRetention(db, { projectId: project.id, now: NOW, baseUrl: "http://bench.test" });
    expect(again?.deleted.runs).toBe(0);
    expect((await caller.settings.audit({ project: slug, action: "retention.delete" })).entries).toHaveLength(1);
  });

  it("by age, never emptying a series; the preview is the admin's", async () => {
    const slug = uniqueSlug("retention-age");
    const runs = await seed(slug, 4, "nightly");
    const db = await getDb();
    const caller = adminCaller(db);
    // Every run is older than a day (the rule's least): all go but the series' newest.
    const preview = await caller.settings.previewRetention({ project: slug, retentionDays: 1, retentionKeepRuns: null });
    expect(preview).toEqual({ wouldDelete: 3, protectedRuns: 1, totalRuns: 4 });
    await db.project.update({ where: { slug }, data: { retentionDays: 1 } });
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    const [report] = await applyRunRetention(db, { projectId: project.id, baseUrl: "http://bench.test" });
    expect(report?.deleted.runs).toBe(preview.wouldDelete);
    expect((await db.run.findMany({ where: { projectId: project.id }, select: { id: true } })).map((run) => run.id)).toEqual([runs[3]]);
  });
});
