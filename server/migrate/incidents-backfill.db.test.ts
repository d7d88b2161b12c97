import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { applyPendingMigrations } from "./migrations";
import { SCRATCHES, addMigration, migrationsBefore } from "./scratch-database.fixture";

const INCIDENTS_MIGRATION = "20261126161727_incidents";

/**
 * The incidents migration on regressions recorded before it: one incident per (project, first run),
 * numbered per project by when they were opened, its state from what was decided (every regression
 * dismissed → invalid, any acknowledged → accepted, else open); improvements stay out of incidents.
 */
describe.each(SCRATCHES)(`migration ${INCIDENTS_MIGRATION} on $name`, ({ open }) => {
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it("makes the regressions of each step one incident", async () => {
    const { folder, earlier } = await migrationsBefore(INCIDENTS_MIGRATION);
    folders.push(folder);
    const db = await open();
    try {
      expect(await applyPendingMigrations(db.adapter(), folder)).toEqual(earlier);
      await db.exec(`
        INSERT INTO projects (id, slug, name, updated_at) VALUES ('p', 'p', 'P', now()), ('q', 'q', 'Q', now());
        INSERT INTO runs (id, project_id, tool, format, started_at) VALUES
          ('r1', 'p', 'k6', 'k6-summary', '2026-01-01'), ('r2', 'p', 'k6', 'k6-summary', '2026-01-02'),
          ('r3', 'p', 'k6', 'k6-summary', '2026-01-03'), ('s1', 'q', 'k6', 'k6-summary', '2026-01-01');
        INSERT INTO regressions (id, project_id, metric, kind, first_run_id, before_value, after_value, delta_pct, status, status_changed_at, status_changed_by, created_at) VALUES
          ('a1', 'p', 'p95', 'regression', 'r1', 1, 2, 100, 'open', NULL, NULL, '2026-01-05'),
          ('a2', 'p', 'p99', 'regression', 'r1', 1, 2, 100, 'acknowledged', '2026-01-06', 'sam', '2026-01-05'),
          ('b1', 'p', 'p95', 'regression', 'r2', 1, 2, 100, 'dismissed', '2026-01-07', 'kim', '2026-01-06'),
          ('b2', 'p', 'p50', 'regression', 'r2', 1, 2, 100, 'dismissed', '2026-01-08', 'lee', '2026-01-06'),
          ('c1', 'p', 'p95', 'regression', 'r3', 1, 2, 100, 'open', NULL, NULL, '2026-01-04'),
          ('i1', 'p', 'p95', 'improvement', 'r3', 2, 1, -50, 'open', NULL, NULL, '2026-01-04'),
          ('d1', 'q', 'p95', 'regression', 's1', 1, 2, 100, 'open', NULL, NULL, '2026-01-09');
      `);
      await addMigration(folder, INCIDENTS_MIGRATION);
      expect(await applyPendingMigrations(db.adapter(), folder)).toEqual([INCIDENTS_MIGRATION]);

      const incidents = await db.rows<{ project_id: string; number: number; first_run_id: string; state: string; state_changed_by: string | null; closed: boolean }>(
        "SELECT project_id, number, first_run_id, state::text AS state, state_changed_by, closed_at IS NOT NULL AS closed FROM incidents ORDER BY project_id, number",
      );
      expect(incidents).toEqual([
        { project_id: "p", number: 1, first_run_id: "r3", state: "open", state_changed_by: null, closed: false },
        { project_id: "p", number: 2, first_run_id: "r1", state: "accepted", state_changed_by: "sam", closed: true },
        { project_id: "p", number: 3, first_run_id: "r2", state: "invalid", state_changed_by: "lee", closed: true },
        { project_id: "q", number: 1, first_run_id: "s1", state: "open", state_changed_by: null, closed: false },
      ]);
      const members = await db.rows<{ id: string; number: number | null }>(
        "SELECT r.id, i.number FROM regressions r LEFT JOIN incidents i ON i.id = r.incident_id ORDER BY r.id",
      );
      expect(members).toEqual([
        { id: "a1", number: 2 },
        { id: "a2", number: 2 },
        { id: "b1", number: 3 },
        { id: "b2", number: 3 },
        { id: "c1", number: 1 },
        { id: "d1", number: 1 },
        { id: "i1", number: null },
      ]);
      // Each regression reads as its incident decided (what the gate reads), and each history starts opened.
      const statuses = await db.rows<{ id: string; status: string }>("SELECT id, status::text AS status FROM regressions ORDER BY id");
      expect(statuses).toEqual([
        { id: "a1", status: "acknowledged" },
        { id: "a2", status: "acknowledged" },
        { id: "b1", status: "dismissed" },
        { id: "b2", status: "dismissed" },
        { id: "c1", status: "open" },
        { id: "d1", status: "open" },
        { id: "i1", status: "open" },
      ]);
      expect(await db.rows("SELECT count(*)::int AS n FROM incident_events WHERE by = 'detector' AND to_state = 'open'")).toEqual([{ n: 4 }]);
    } finally {
      await db.close();
    }
  });
});
