import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { AGGREGATE_URL_NAME } from "../../domain/run";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { createMarker } from "./annotations";
import type { HistoryScope } from "./endpoint-page";
import { getEndpointTrends } from "./endpoint-trends";
import type { EndpointTrendsQuery } from "./endpoint-trends";
import { cachedCandidates, cachedHistory, keptWith } from "./trend-history-cache";
import type { CachedHistory } from "./trend-history-cache";
import { CompactHistory } from "../../domain/series/trend-history";
import { readTrendCandidates } from "./trend-history-sql";

/**
 * The history cache's answer is the fresh read's, whatever was written since it was filled: runs
 * appended in order (read incrementally: the cached history is the same object, grown), out of order, a
 * new testbed, a deletion (read whole again). "Fresh" is the uncached SQL path of the same history: a
 * range counting back from a `now` that still includes every run.
 */
const T0 = Date.UTC(2026, 2, 1, 9);
const MINUTE = 60_000;
const NOW = new Date(T0 + 100 * 86_400_000);
const MAX_POINTS = 20;
const INITIAL_RUNS = 150;

/** A deterministic spread of values, with ties, nulls and one of each PostgreSQL float oddity. */
function valuesOf(index: number) {
  return {
    p95Ms: index === 37 ? Number.NaN : index % 11 === 0 ? null : 10 + ((index * 7) % 13),
    p99Ms: index % 5 === 0 ? null : 20 + ((index * 3) % 17),
    maxMs: index === 88 ? Number.POSITIVE_INFINITY : 40 + ((index * 5) % 19),
    errorRate: index % 3 === 0 ? 0 : ((index * 13) % 7) / 100,
    throughput: index % 7 === 0 ? null : 100 + ((index * 11) % 23),
  };
}

const branchOf = (index: number) => (index % 4 === 0 ? "feature" : "main");
const labelOf = (index: number) => (index % 3 === 0 ? "pr" : "nightly");
const testbedOf = (index: number) => (["a", "b", null] as const)[index % 3]!;

describe.each(testDatabaseTargets())("trend history cache on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("answers as a fresh read after uploads in order, out of order, a new testbed and deletions", async () => {
    const slug = uniqueSlug("history-cache");
    const db = database.prisma;
    const project = await db.project.create({ data: { slug, name: slug } });
    const [listing, search] = await Promise.all(
      ["GetListing", "SearchListings"].map((name) => db.endpoint.create({ data: { projectId: project.id, name } })),
    );

    /** Runs `indexes` at their minutes (result rows for both endpoints and the aggregate, cpu on GetListing), in one statement per table. */
    const insertRuns = async (indexes: readonly number[], minuteOf = (index: number) => index, endpoints = [listing!.id, search!.id, null]) => {
      const runs = indexes.map((index) => ({
        id: `${slug}-${String(index).padStart(4, "0")}`,
        projectId: project.id,
        tool: "custom",
        format: "benchtrack",
        label: labelOf(index),
        gitBranch: branchOf(index),
        testbed: testbedOf(index),
        startedAt: new Date(T0 + minuteOf(index) * MINUTE),
      }));
      await db.run.createMany({ data: runs });
      await db.result.createMany({
        data: runs.flatMap((run, k) =>
          endpoints.map((endpointId, e) => ({ runId: run.id, projectId: project.id, endpointId, startedAt: run.startedAt, ...valuesOf(indexes[k]! + e) })),
        ),
      });
      await db.metric.createMany({
        data: runs.map((run, k) => ({ runId: run.id, projectId: project.id, endpointId: listing!.id, startedAt: run.startedAt, key: "cpu", value: (indexes[k]! * 7) % 31 })),
      });
      return runs;
    };
    const initial = await insertRuns(Array.from({ length: INITIAL_RUNS }, (_, index) => index));
    await db.annotation.create({ data: { projectId: project.id, runId: initial[60]!.id, at: initial[60]!.startedAt, text: "deployed" } });
    await createMarker(db, { kind: "admin" }, slug, { text: "v2", kind: "deploy", at: new Date(T0 + 99.5 * MINUTE).toISOString() });

    const queries: Omit<EndpointTrendsQuery, "range">[] = [
      { projectSlug: slug, endpoint: "GetListing", branches: ["all"], label: null, tool: "all", testbed: "all" },
      { projectSlug: slug, endpoint: "GetListing", branches: ["main"], label: null },
      { projectSlug: slug, endpoint: AGGREGATE_URL_NAME, branches: ["main", "none"], label: null, tool: "all", testbed: "all" },
      { projectSlug: slug, endpoint: "GetListing", branches: ["all"], label: "nightly", testbed: "none" },
      { projectSlug: slug, endpoint: AGGREGATE_URL_NAME, branches: ["all"], label: null, tool: "all", testbed: "all" },
      { projectSlug: slug, endpoint: AGGREGATE_URL_NAME, branches: ["all"], label: null },
    ];
    const expectFreshAnswers = async (step: string) => {
      for (const query of queries) {
        const cached = await getEndpointTrends(db, { ...query, range: "all", maxPoints: MAX_POINTS });
        const fresh = await getEndpointTrends(db, { ...query, range: "1y", now: NOW, maxPoints: MAX_POINTS });
        const { query: _cachedQuery, ...cachedAnswer } = cached;
        const { query: _freshQuery, ...freshAnswer } = fresh;
        expect({ step, query, answer: cachedAnswer }).toEqual({ step, query, answer: freshAnswer });
      }
    };
    // The cache's own view of the first query's scope: the same object while it only grows.
    const wholeScope: HistoryScope = { projectId: project.id, endpointId: listing!.id, since: null, branches: null, label: null, tool: null };
    const cachedNow = async () => {
      const { historyVersion } = await db.project.findUniqueOrThrow({ where: { id: project.id }, select: { historyVersion: true } });
      return cachedHistory(db, wholeScope, historyVersion);
    };
    const expectSameCandidates = async () => {
      const marked = { runIds: [initial[60]!.id], times: [new Date(T0 + 99.5 * MINUTE).toISOString()] };
      const fromCache = cachedCandidates(await cachedNow(), MAX_POINTS, marked);
      const fromSql = await readTrendCandidates(db, wholeScope, MAX_POINTS, marked);
      expect(fromCache.total).toBe(fromSql.total);
      expect(fromCache.rows).toEqual(fromSql.rows);
    };

    await expectFreshAnswers("filled");
    await expectSameCandidates();
    const filled = await cachedNow();
    expect(filled.history.size).toBe(INITIAL_RUNS);

    // Appended in order (a new entry each time, around the same compact history): one upload through the ingest path, then three runs in one statement, then a
    // run with results of the other endpoint only.
    const uploaded = await ingestTestRun(db, slug, {
      schema: "benchtrack/v1",
      tool: "custom",
      label: "nightly",
      startedAt: new Date(T0 + INITIAL_RUNS * MINUTE).toISOString(),
      environment: { git: { branch: "main", commit: "abc1234" } },
      endpoints: [{ name: "GetListing", requests: 100, failures: 7, throughput: 99, latency: { unit: "ms", p95: 500, p99: 900, max: 1200 } }],
      summary: { name: "all", requests: 100, failures: 7, throughput: 99, latency: { unit: "ms", p95: 500 } },
    }, { format: "benchtrack" });
    expect(uploaded.status).toBe("created");
    await expectFreshAnswers("one upload appended");
    expect((await cachedNow()).history).toBe(filled.history);
    expect(filled.history.size).toBe(INITIAL_RUNS + 1);

    await insertRuns([151, 152, 153]);
    await expectFreshAnswers("three runs appended");
    await expectSameCandidates();
    expect((await cachedNow()).history).toBe(filled.history);

    await insertRuns([154], undefined, [search!.id]);
    await expectFreshAnswers("another endpoint's run appended");
    expect((await cachedNow()).history).toBe(filled.history);
    expect(filled.history.size).toBe(INITIAL_RUNS + 4);

    // Out of order: a run older than the last is read whole again.
    await insertRuns([155], () => 10.5);
    await expectFreshAnswers("a run appended out of order");
    await expectSameCandidates();
    const reread = await cachedNow();
    expect(reread.history).not.toBe(filled.history);

    // A testbed the cache has not seen: its place among the testbeds is the database's to say.
    await db.run.create({ data: { id: `${slug}-new-testbed`, projectId: project.id, tool: "custom", format: "benchtrack", testbed: "c", startedAt: new Date(T0 + 200 * MINUTE) } });
    await db.result.create({ data: { runId: `${slug}-new-testbed`, projectId: project.id, endpointId: listing!.id, startedAt: new Date(T0 + 200 * MINUTE), p95Ms: 3 } });
    await expectFreshAnswers("a new testbed");

    // Deletions: a run, then one endpoint's result of another.
    await db.run.delete({ where: { id: initial[0]!.id } });
    await expectFreshAnswers("a run deleted");
    await db.result.deleteMany({ where: { runId: initial[120]!.id, endpointId: listing!.id } });
    await expectFreshAnswers("a result deleted");
    await expectSameCandidates();
    const afterDeletes = await cachedNow();
    expect(afterDeletes.history).not.toBe(reread.history);

    // And appending after all that is incremental again.
    await insertRuns([201, 202], (index) => index + 100);
    await expectFreshAnswers("appended after the deletions");
    expect((await cachedNow()).history).toBe(afterDeletes.history);
  });
});

describe("keptWith", () => {
  const entryAt = (version: number, superseded = false): CachedHistory => ({
    version,
    history: new CompactHistory(),
    testbeds: [],
    testbedRanks: new Map(),
    ofHistory: new Map(),
    kept: new Map(),
    superseded,
  });

  it("keeps a value read at the entry's version or later, and only in the entry still cached", async () => {
    const current = entryAt(11);
    expect(await keptWith(current, ["metrics"], async () => "at 11", 11)).toBe("at 11");
    expect(await keptWith(current, ["metrics"], async () => "again", 11)).toBe("at 11");

    // A view behind the entry (a lagging replica's snapshot) answers with what it read, keeping nothing.
    const ahead = entryAt(11);
    expect(await keptWith(ahead, ["metrics"], async () => "at 10", 10)).toBe("at 10");
    expect(ahead.kept.size).toBe(0);

    // An entry an append replaced while the view read: its value may belong to the older history.
    const replaced = entryAt(11, true);
    expect(await keptWith(replaced, ["metrics"], async () => "old", 12)).toBe("old");
    expect(replaced.kept.size).toBe(0);
  });
});
