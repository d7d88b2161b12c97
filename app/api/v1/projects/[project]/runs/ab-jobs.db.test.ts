import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// Same-job A/B runs through the upload API (docs/ci.md, "A/B jobs"), on the embedded database and (with
// DATABASE_URL) PostgreSQL: the runs of one job, base and head interleaved ABBA, are judged head against
// the job's own base runs, never against the series' history, and each answer says whether to run
// another pair. Real go test -bench runs (scripts/seed/go-bench/runs): the package as it is, and with
// JoinInts rewritten slower.

const RUNS = path.resolve(import.meta.dirname, "../../../../../../scripts/seed/go-bench/runs");
const run = (file: string) => readFileSync(path.join(RUNS, file), "utf8");

setUpRouteTestDatabase();

interface Answer {
  id: string;
  outcome: "pass" | "fail" | "inconclusive";
  reasons: string[];
  inconclusive: { kind: string; reason: string } | null;
  comparison: { baseline: { basis: string; how: string; runs: { id: string }[] }; headRuns: string[]; changes: { endpoint: string | null; status: string }[] };
  ab: { job: string; side: string; pair: number; pairs: number; runs: { base: number; head: number }; decided: boolean; next: string; reason: string } | null;
}

async function upload(slug: string, file: string, query: Record<string, string>): Promise<Answer> {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: run(file), query });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Answer;
}

describe("A/B jobs through the upload API", () => {
  it("judges a job's head runs against its own base runs, and says after each pair whether to run another", async () => {
    const slug = uniqueSlug("ab-go");
    // The series' history on main: runs the A/B job must not be judged against.
    for (const [index, file] of ["baseline-1.txt", "baseline-2.txt"].entries()) await upload(slug, file, { branch: "main", commit: `c0ffee0${index}` });
    const job = { ab_job: "gh-1-1-bench", branch: "perf/joinints", commit: "bead0001" };
    const pair1Base = await upload(slug, "baseline-3.txt", { ...job, ab_side: "base", ab_pair: "1", commit: "ba5e0001" });
    expect(pair1Base.ab).toMatchObject({ job: "gh-1-1-bench", side: "base", pair: 1, pairs: 0, decided: false, next: "more-pairs" });
    expect(pair1Base.outcome).toBe("inconclusive");
    const pair1Head = await upload(slug, "slow-joinints-1.txt", { ...job, ab_side: "head", ab_pair: "1" });
    expect(pair1Head.ab).toMatchObject({ side: "head", pair: 1, pairs: 1, runs: { base: 1, head: 1 } });
    expect(pair1Head.comparison.baseline.basis).toBe("ab-job");
    expect(pair1Head.comparison.baseline.runs.map((baseRun) => baseRun.id)).toEqual([pair1Base.id]);
    const pair2Head = await upload(slug, "slow-joinints-2.txt", { ...job, ab_side: "head", ab_pair: "2" });
    expect(pair2Head.ab).toMatchObject({ pair: 2, pairs: 1, decided: false, next: "more-pairs" });
    const pair2Base = await upload(slug, "baseline-4.txt", { ...job, ab_side: "base", ab_pair: "2", commit: "ba5e0001" });
    expect(pair2Base.ab).toMatchObject({ side: "base", pair: 2, pairs: 2, runs: { base: 2, head: 2 } });
    // The base run's answer is the job as it stands: its head runs against its base runs, this one among them.
    expect(new Set(pair2Base.comparison.baseline.runs.map((baseRun) => baseRun.id))).toEqual(new Set([pair1Base.id, pair2Base.id]));
    expect(new Set(pair2Base.comparison.headRuns)).toEqual(new Set([pair1Head.id, pair2Head.id]));
    expect(pair2Base.ab!.next).toBe(pair2Base.ab!.decided ? "stop" : "more-pairs");
  });

  it("refuses an A/B run that does not name its job, side and pair together, naming what is missing", async () => {
    const slug = uniqueSlug("ab-bad");
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: run("baseline-1.txt"), query: { ab_job: "x", ab_side: "head" } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("ab_pair");
    const side = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: run("baseline-1.txt"), query: { ab_job: "x", ab_side: "middle", ab_pair: "1" } });
    expect(side.status).toBe(400);
    expect(await side.text()).toContain("ab_side");
  });
});
