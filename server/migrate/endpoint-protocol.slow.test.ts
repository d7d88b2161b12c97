import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { applyPendingMigrations } from "./migrations";
import { SCRATCHES, addMigration, migrationsBefore } from "./scratch-database.fixture";

const SPLIT_MIGRATION = "20261123141549_endpoint_protocol";

/**
 * The endpoint_protocol migration on data stored before it: one endpoint "GetListing" that k6 (HTTP)
 * and ghz (gRPC) runs both fed is split in two, each result, custom metric and regression following
 * the protocol of its run; a name measured with one protocol only is left as it was.
 */
describe.each(SCRATCHES)(`migration ${SPLIT_MIGRATION} on $name`, ({ open }) => {
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it("splits endpoints merged across protocols and moves their rows", async () => {
    const { folder: before, earlier } = await migrationsBefore(SPLIT_MIGRATION);
    folders.push(before);

    const db = await open();
    try {
      expect(await applyPendingMigrations(db.adapter(), before)).toEqual(earlier);
      await db.exec(`
        INSERT INTO projects (id, slug, name, updated_at) VALUES ('p', 'p', 'P', now());
        -- "GetListing" was created by a Locust run (HTTP, GET); "Search" by k6 only.
        INSERT INTO endpoints (id, project_id, name, protocol, method) VALUES (1, 'p', 'GetListing', 'http', 'GET'), (2, 'p', 'Search', 'http', 'GET');
        SELECT setval('endpoints_id_seq', 2);
        INSERT INTO runs (id, project_id, tool, format, started_at, protocol) VALUES
          ('locust1', 'p', 'locust', 'locust-json', '2026-01-01', 'http'),
          ('ghz1', 'p', 'ghz', 'ghz-json', '2026-01-02', 'grpc'),
          ('ghz0', 'p', 'ghz', 'ghz-json', '2026-01-03', NULL),
          ('k61', 'p', 'k6', 'k6-summary', '2026-01-04', NULL);
        INSERT INTO results (id, run_id, project_id, endpoint_id, started_at, p95_ms) VALUES
          (1, 'locust1', 'p', 1, '2026-01-01', 10), (2, 'ghz1', 'p', 1, '2026-01-02', 3),
          (3, 'ghz0', 'p', 1, '2026-01-03', 4), (4, 'k61', 'p', 2, '2026-01-04', 7),
          (5, 'ghz1', 'p', NULL, '2026-01-02', 3);
        INSERT INTO metrics (run_id, project_id, endpoint_id, started_at, key, value, better) VALUES
          ('ghz1', 'p', 1, '2026-01-02', 'cpu', 50, 'lower'), ('locust1', 'p', 1, '2026-01-01', 'cpu', 40, 'lower');
        INSERT INTO regressions (id, project_id, endpoint_id, metric, kind, first_run_id, before_value, after_value, delta_pct)
          VALUES ('g', 'p', 1, 'p95', 'regression', 'ghz0', 3, 4, 33);
      `);

      await addMigration(before, SPLIT_MIGRATION);
      expect(await applyPendingMigrations(db.adapter(), before)).toContain(SPLIT_MIGRATION);

      const endpoints = await db.rows<{ id: number; name: string; protocol: string; method: string | null }>(
        "SELECT id, name, protocol, method FROM endpoints ORDER BY name, protocol",
      );
      expect(endpoints.map(({ name, protocol, method }) => [name, protocol, method])).toEqual([
        ["GetListing", "grpc", null],
        ["GetListing", "http", "GET"],
        ["Search", "http", "GET"],
      ]);
      const grpcId = endpoints[0]!.id;
      const rows = (sql: string) => db.rows(sql);
      expect(await rows("SELECT id, endpoint_id FROM results ORDER BY id")).toEqual([
        { id: 1, endpoint_id: 1 },
        { id: 2, endpoint_id: grpcId },
        { id: 3, endpoint_id: grpcId },
        { id: 4, endpoint_id: 2 },
        { id: 5, endpoint_id: null },
      ]);
      expect(await rows("SELECT run_id, endpoint_id FROM metrics ORDER BY run_id")).toEqual([
        { run_id: "ghz1", endpoint_id: grpcId },
        { run_id: "locust1", endpoint_id: 1 },
      ]);
      expect(await rows("SELECT endpoint_id FROM regressions")).toEqual([{ endpoint_id: grpcId }]);
      // One endpoint per (name, protocol), a null protocol counting as one value.
      await db.exec("INSERT INTO endpoints (project_id, name, protocol) VALUES ('p', 'Other', NULL)");
      await expect(db.exec("INSERT INTO endpoints (project_id, name, protocol) VALUES ('p', 'Other', NULL)")).rejects.toThrow(
        /unique/,
      );
    } finally {
      await db.close();
    }
  });
});
