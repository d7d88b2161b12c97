import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { parseUploadQuery } from "../../schemas/runs";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import type { Principal } from "../access/auth";
import { updateIncidents } from "../incidents/incidents";
import { getProjectOverview } from "./project-overview";
import { listProjectCards } from "./projects";
import { uploadOfFiles } from "../ingest/received-upload";
import { detectRegressionsAfterRun } from "../incidents/regression-detection";
import { authorizeUpload, uploadRun } from "../ingest/upload-run";

// What the pages say of the CI gate on the default branch (domain/series/gate-status.ts), through the
// upload use case with real go test -bench runs (scripts/seed/go-bench: 9 of the package as it is, then
// JoinInts made slower): the overview's rows and banner and the home card, before change-point detection
// confirms the step, once it has, and once main passes again.

const ADMIN: Principal = { kind: "admin" };
const GO_RUNS = path.resolve(import.meta.dirname, "../../../scripts/seed/go-bench/runs");
const SERIES = "go · nightly · main · linux/amd64 · AMD EPYC";
const JOIN_INTS = "example.com/microbench > BenchmarkJoinInts";
/** A change that fails the gate: regressed, or an exact count that changed. */
const FAILED = expect.stringMatching(/^(regressed|exact)$/);

describe.each(testDatabaseTargets())("the gate's status of the default branch's series on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("gate-pages");
  const ids: Record<string, string> = {};
  let day = 0;

  async function upload(file: string, query: Record<string, string> = {}) {
    const db = database.prisma;
    const index = day++;
    const params = new URLSearchParams({
      label: "nightly",
      branch: "main",
      commit: `${(0xc0ffee00 + index).toString(16)}aa`,
      started_at: new Date(Date.UTC(2026, 10, 1 + index, 3)).toISOString(),
      ...query,
    });
    const answer = await uploadRun(db, {
      target: await authorizeUpload(db, ADMIN, slug),
      upload: uploadOfFiles([{ name: file, contentType: null, bytes: readFileSync(path.join(GO_RUNS, file)) }]),
      query: parseUploadQuery(params, new Headers()),
      baseUrl: "http://bench.test",
    });
    ids[file] = answer.runId;
    return answer.runId;
  }

  const overview = async () => (await getProjectOverview(database.prisma, slug))!;
  const card = async () => (await listProjectCards(database.prisma)).find((project) => project.slug === slug)!;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    for (let round = 1; round <= 9; round++) await upload(`baseline-${round}.txt`);
    for (let round = 1; round <= 5; round++) await upload(`slow-joinints-${round}.txt`);
  }, 240_000);

  afterAll(async () => {
    await database.close();
  });

  it("five slower runs that each failed the gate: the series fails since the first of them, before any incident", async () => {
    const runs = await database.prisma.run.findMany({ where: { project: { slug } }, orderBy: { startedAt: "asc" }, select: { outcome: true } });
    expect(runs.slice(-5).map((run) => run.outcome)).toEqual(["fail", "fail", "fail", "fail", "fail"]);
    expect(runs.at(-6)?.outcome).not.toBe("fail");

    const page = await overview();
    expect(page.activeIncidents).toBe(0);
    expect(page.gates).toHaveLength(1);
    const [gate] = page.gates;
    expect(gate).toMatchObject({
      key: SERIES,
      latest: { runId: ids["slow-joinints-5.txt"], outcome: "fail", commit: "c0ffee0daa" },
      failing: { since: { runId: ids["slow-joinints-1.txt"], commit: "c0ffee09aa", startedAt: new Date(Date.UTC(2026, 10, 10, 3)) }, runs: 5 },
      incidents: [],
    });
    // Largest first: the slower JoinInts allocates 2,002 times an op instead of 2 (an exact count), and takes longer.
    expect(gate?.latest.changes[0]).toMatchObject({ endpoint: JOIN_INTS, protocol: "benchmark", status: FAILED });
    expect(gate?.latest.changes[0]?.deltaPct).toBeGreaterThan(100);
    expect(gate?.latest.changes).toContainEqual(expect.objectContaining({ endpoint: JOIN_INTS, metric: "mean", status: "regressed" }));
    expect(gate?.latest.reasons[0]).toMatch(/JoinInts/);
  });

  it("each row says what the latest run answered for it, and no flat trend reads as settled while the runs fail", async () => {
    const page = await overview();
    const joinInts = page.endpoints.find((endpoint) => endpoint.name === JOIN_INTS)!;
    expect(joinInts.gate).toMatchObject({ series: SERIES, runId: ids["slow-joinints-5.txt"], outcome: "fail", change: { status: FAILED }, isOwnSeries: true });
    // Compared with the level before the failed runs (as the gate's baseline), the step reads as one.
    expect(joinInts.trend).toMatchObject({ kind: "change", direction: "up", unsettled: { kind: "failing", runs: 5, since: new Date(Date.UTC(2026, 10, 10, 3)) } });
    for (const endpoint of page.endpoints) {
      expect(endpoint.gate?.outcome).toBe("fail");
      if (endpoint.trend.kind === "change" && endpoint.trend.direction === "flat") expect(endpoint.trend.unsettled).toMatchObject({ kind: "failing" });
      if (endpoint.gate?.change === null) expect(endpoint.gate.othersFailing).toBeGreaterThan(0);
    }
  });

  it("the home card says main fails the gate, since when, with the largest change", async () => {
    const project = await card();
    expect(project.defaultBranch).toBe("main");
    expect(project.gate.failing).toEqual([
      expect.objectContaining({ key: SERIES, name: "go · nightly", latestRunId: ids["slow-joinints-5.txt"], failing: expect.objectContaining({ runs: 5 }) }),
    ]);
    expect(project.gate.failing[0]?.named[0]).toMatchObject({ endpoint: JOIN_INTS, status: FAILED });
    expect(project.gate.passing).toEqual([]);
  });

  it("a branch's run is not the default branch's series; its rows say what main's latest run answered", async () => {
    await upload("baseline-1.txt", { branch: "feature/x", commit: "feedbeef01" });
    const page = await overview();
    expect(page.gates.map((gate) => gate.key)).toEqual([SERIES]);
    const joinInts = page.endpoints.find((endpoint) => endpoint.name === JOIN_INTS)!;
    expect(joinInts.latest.series).toBe("go · nightly · feature/x · linux/amd64 · AMD EPYC");
    expect(joinInts.gate).toMatchObject({ outcome: "fail", isOwnSeries: false, change: { status: FAILED } });
  });

  it("once detection confirms the step, the banner's series links its incident, then says it was accepted; once main passes, the streak is gone", async () => {
    await upload("slow-joinints-6.txt");
    const latest = await upload("slow-joinints-7.txt");
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    await detectRegressionsAfterRun(database.prisma, project, await database.prisma.run.findUniqueOrThrow({ where: { id: latest } }));
    const withIncident = await overview();
    expect(withIncident.activeIncidents).toBe(1);
    expect(withIncident.gates[0]).toMatchObject({
      failing: { since: { runId: ids["slow-joinints-1.txt"] }, runs: 7 },
      incidents: [{ number: 1, state: "open" }],
      triagedSince: [],
    });

    // Accepted after the latest run was judged: its stored failure stands, and the banner says the next run follows the new level.
    await updateIncidents(database.prisma, ADMIN, slug, [1], { state: "accepted" }, { viaSession: false, name: "sam" }, { baseUrl: "http://bench.test" });
    expect((await overview()).gates[0]).toMatchObject({
      failing: { runs: 7 },
      incidents: [],
      triagedSince: [{ incident: { number: 1, state: "accepted" }, marker: null }],
    });

    // The package as it was again: judged against the accepted level, main does not fail.
    await upload("baseline-8.txt");
    const fixed = await overview();
    expect(fixed.gates[0]).toMatchObject({ failing: null });
    expect(fixed.gates[0]?.latest.outcome).not.toBe("fail");
    expect((await card()).gate.failing).toEqual([]);
  });
});

describe.each(testDatabaseTargets())("a streak longer than the runs read, on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("gate-streak");

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    // 45 runs with outcomes set as if judged: 5 passes, then 40 failures (more than the 30 read).
    for (let index = 0; index < 45; index++) {
      const { run } = await ingestTestRun(database.prisma, slug, {
        schema: "benchtrack/v1",
        tool: "loadgen",
        label: "nightly",
        startedAt: new Date(Date.UTC(2026, 10, 1, index)).toISOString(),
        environment: { git: { branch: "main", commit: `abc${String(index).padStart(4, "0")}` } },
        endpoints: [{ name: "GetListing", requests: 100, failures: 0, latency: { unit: "ms", p50: 5, p95: 10, p99: 20 } }],
      });
      await database.prisma.run.update({ where: { id: run.id }, data: { outcome: index < 5 ? "pass" : "fail" } });
    }
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  it("finds its first run and counts it whole", async () => {
    const page = (await getProjectOverview(database.prisma, slug))!;
    expect(page.gates[0]?.failing).toMatchObject({ since: { commit: "abc0005", startedAt: new Date(Date.UTC(2026, 10, 1, 5)) }, runs: 40 });
    const project = (await listProjectCards(database.prisma)).find((card) => card.slug === slug)!;
    expect(project.gate.failing[0]?.failing?.runs).toBe(40);
  });
});
