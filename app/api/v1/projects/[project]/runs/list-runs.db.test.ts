import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as listRuns } from "./route";
import { fixture, upload, type Json } from "./uploads.fixture";

// GET /api/v1/projects/:project/runs: newest first, filtered by label, branch and tool, paged with a
// cursor. On the embedded database and, with DATABASE_URL, PostgreSQL.

setUpRouteTestDatabase();

describe("GET /api/v1/projects/:project/runs", () => {
  it("lists newest first, filters by label/branch/tool, and pages with a cursor", async () => {
    const slug = uniqueSlug("list");
    for (let round = 1; round <= 5; round++) {
      await upload(slug, fixture("k6/baseline/round1/summary.json"), {
        query: { label: round % 2 ? "baseline" : "ManagedAsync", round: String(round), branch: "main", started_at: `2026-11-0${round}T10:00:00Z` },
      });
    }
    const list = async (query: Record<string, string>) => {
      const response = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug }, { query, token: null });
      expect(response.status).toBe(200);
      return (await response.json()) as Json;
    };
    const all = await list({});
    expect((all.runs as Json[]).map((run) => run.round)).toEqual([5, 4, 3, 2, 1]);
    expect(all.runs[0].aggregate.requests).toBeGreaterThan(0);
    expect(((await list({ label: "baseline" })).runs as Json[]).map((run) => run.round)).toEqual([5, 3, 1]);
    expect((await list({ tool: "locust" })).runs).toEqual([]);

    const first = await list({ limit: "2" });
    const second = await list({ limit: "2", cursor: first.nextCursor as string });
    const third = await list({ limit: "2", cursor: second.nextCursor as string });
    expect([...first.runs, ...second.runs, ...third.runs].map((run: Json) => run.round)).toEqual([5, 4, 3, 2, 1]);
    expect(third.nextCursor).toBeNull();
  });
});
