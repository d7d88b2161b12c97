import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// Large and hostile benchmark suites through the upload route (issue 36): a million benchmark lines are
// refused at the cap's line (413) with nothing stored, and a suite at the cap (10,000 benchmarks) is
// stored whole. Parsing runs in the parse threads (services/platform/cpu-pool.ts). On the embedded database
// and, with DATABASE_URL, PostgreSQL.
setUpRouteTestDatabase();

type Answer = { id?: string; endpoints?: string[]; error?: { code: string; details: { path: string }[] } };

function goSuite(count: number): string {
  const lines = ["goos: linux", "goarch: amd64", "pkg: example.com/large", "cpu: test"];
  for (let index = 0; index < count; index++) lines.push(`BenchmarkI${index}-2 1 ${100 + (index % 7)} ns/op`);
  return `${lines.join("\n")}\nPASS\n`;
}

async function upload(slug: string, body: BodyInit, headers: Record<string, string> = {}) {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, headers, query: { branch: "main" } });
  return { status: response.status, json: (await response.json()) as Answer };
}

describe("benchmark suites at and past the cap", () => {
  it("a gzip file of 1,000,000 benchmark lines is refused at line 10,005 (413), and nothing is stored", async () => {
    const slug = uniqueSlug("large");
    const body = gzipSync(goSuite(1_000_000));
    const answer = await upload(slug, body, { "content-encoding": "gzip" });
    expect(answer.status).toBe(413);
    expect(answer.json.error!.details[0]!.path).toBe("body: line 10005");
    expect(await (await getDb()).project.findUnique({ where: { slug } })).toBeNull();
  });

  it("a suite of 10,000 benchmarks is stored whole", async () => {
    const slug = uniqueSlug("large");
    const answer = await upload(slug, goSuite(10_000));
    expect(answer.status, JSON.stringify(answer.json.error)).toBe(201);
    expect(answer.json.endpoints).toHaveLength(10_000);
    const db = await getDb();
    expect(await db.result.count({ where: { runId: answer.json.id!, endpointId: { not: null } } })).toBe(10_000);
  }, 180_000);
});
