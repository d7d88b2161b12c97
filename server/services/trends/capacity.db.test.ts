import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root";
import type { Database } from "../../db";
import { readFixture } from "../../domain/parsers/fixtures/read-fixture";
import { parseUploadQuery } from "../../schemas/runs";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import type { Principal } from "../access/auth";
import { getCapacity } from "./capacity";
import { uploadOfFiles } from "../ingest/received-upload";
import { putSlaPolicy } from "../projects/sla-policy";
import { authorizeUpload, uploadRun } from "../ingest/upload-run";

// The done-when of the capacity view (issue 14): series uploaded from the real fixtures' tools at three
// load levels, the level set by the upload's config.<key> metadata, through the upload use case with the
// query parsed as the REST route parses it. The files were all run at one load, so the "levels" are made:
// baseline rounds at the low levels, a ManagedAsync round (p95 about 1.8×) at the highest.

const ADMIN: Principal = { kind: "admin" };
const GHZ_METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];

type Variant = "baseline" | "managedasync";
type Files = { name: string; path: string }[];

const ghzRound = (variant: Variant, round: number): Files =>
  GHZ_METHODS.map((method) => ({ name: `${method}.json`, path: `ghz/${variant}/round${round}/${method}.json` }));
const k6Round = (variant: Variant, round: number): Files => [
  { name: "summary.json", path: `k6/${variant}/round${round}/summary.json` },
];
const locustRound = (variant: Variant, round: number): Files =>
  ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv"].map((name) => ({
    name,
    path: `locust/${variant}/round${round}/${name}`,
  }));

/** A ghz report's p95 of one method, in ms, read from the file (ns) independently of the parser. */
function ghzP95(variant: Variant, round: number, method = "GetListing"): number {
  const report = JSON.parse(readFixture(`ghz/${variant}/round${round}/${method}.json`)) as {
    latencyDistribution: { percentage: number; latency: number }[];
  };
  return report.latencyDistribution.find((entry) => entry.percentage === 95)!.latency / 1e6;
}

/** k6's http_req_duration p(95) over all requests, in ms, as the file states it. */
function k6P95(variant: Variant, round: number): number {
  const summary = JSON.parse(readFixture(`k6/${variant}/round${round}/summary.json`)) as {
    metrics: Record<string, Record<string, number>>;
  };
  return summary.metrics.http_req_duration!["p(95)"]!;
}

describe.each(testDatabaseTargets())("capacity on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("capacity");
  let day = 0;

  /** One upload as curl sends it: the files, and the metadata as query parameters. */
  async function upload(files: Files, query: Record<string, string>) {
    const db = database.prisma;
    const params = new URLSearchParams({
      ...query,
      started_at: new Date(Date.UTC(2026, 10, 1 + day++, 9)).toISOString(),
    });
    const answer = await uploadRun(db, {
      target: await authorizeUpload(db, ADMIN, slug),
      upload: uploadOfFiles(
        files.map(({ name, path }) => ({ name, contentType: null, bytes: Buffer.from(readFixture(path)) })),
      ),
      query: parseUploadQuery(params, new Headers()),
      baseUrl: "http://bench.test",
    });
    return answer.runId;
  }

  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    // ghz on main at concurrency 10 (two rounds: one point, their median), 20 and 40.
    ids.main10a = await upload(ghzRound("baseline", 1), {
      label: "capacity",
      branch: "main",
      "config.concurrency": "10",
    });
    ids.main10b = await upload(ghzRound("baseline", 2), {
      label: "capacity",
      branch: "main",
      "config.concurrency": "10",
    });
    ids.main20 = await upload(ghzRound("baseline", 3), {
      label: "capacity",
      branch: "main",
      "config.concurrency": "20",
    });
    ids.main40 = await upload(ghzRound("managedasync", 1), {
      label: "capacity",
      branch: "main",
      "config.concurrency": "40",
    });
    // The same sweep of a slower build on a feature branch.
    for (const [round, concurrency] of [
      [2, "10"],
      [3, "20"],
      [1, "40"],
    ] as const) {
      ids[`head${concurrency}`] = await upload(ghzRound("managedasync", round), {
        label: "capacity",
        branch: "feature/async",
        "config.concurrency": concurrency,
      });
    }
    // k6 (aggregate only: the summary has no per-request sub-metrics) at 10, 20 and 40 VUs.
    await upload(k6Round("baseline", 1), { label: "capacity", branch: "main", "config.vus": "10" });
    await upload(k6Round("baseline", 2), { label: "capacity", branch: "main", "config.vus": "20" });
    await upload(k6Round("managedasync", 1), { label: "capacity", branch: "main", "config.vus": "40" });
    // Locust at 15, 30 and 60 users (--csv files, multipart).
    await upload(locustRound("baseline", 1), { label: "capacity", branch: "main", "config.users": "15" });
    await upload(locustRound("baseline", 2), { label: "capacity", branch: "main", "config.users": "30" });
    await upload(locustRound("managedasync", 1), { label: "capacity", branch: "main", "config.users": "60" });
    // A nightly ghz run at the file's own load: a series of one level.
    await upload(ghzRound("baseline", 1), { label: "nightly", branch: "main" });

    await putSlaPolicy(database.prisma, ADMIN, slug, {
      targets: [
        { metric: "p95", op: "<=", threshold: 15, scope: { match: "Get*" } },
        { metric: "p95", op: "<=", threshold: 30, scope: "aggregate" },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  it("draws ghz GetListing on main at three concurrency levels, with its knee and SLA limit", async () => {
    const capacity = await getCapacity(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      protocol: "grpc",
      base: "branch:main",
    });
    expect(capacity.series).toEqual({ tool: "ghz", label: "capacity" });
    expect(capacity.loadKey).toBe("concurrency");
    expect(capacity.isComparison).toBe(false);
    const [curve] = capacity.curves;
    expect(curve).toMatchObject({
      side: "all",
      selector: "branch:main",
      runCount: 4,
      withoutLevel: 0,
      branches: ["main"],
    });
    const levels = curve!.curve!.levels;
    expect(levels.map((level) => [level.load, level.runIds])).toEqual([
      [10, [ids.main10b, ids.main10a]],
      [20, [ids.main20]],
      [40, [ids.main40]],
    ]);
    // The level of two rounds is their median (the mean of the two): 9.93 and 9.66 ms.
    expect(levels[0]!.p95Ms).toBeCloseTo((ghzP95("baseline", 1) + ghzP95("baseline", 2)) / 2, 9);
    expect(levels[1]!.p95Ms).toBeCloseTo(ghzP95("baseline", 3), 9);
    expect(levels[2]!.p95Ms).toBeCloseTo(ghzP95("managedasync", 1), 9);
    expect(levels.every((level) => level.throughput !== null && Math.abs(level.throughput - 99.9) < 0.1)).toBe(true);

    expect(curve!.curve!.knee).toMatchObject({ status: "knee", load: 20 });
    expect(curve!.curve!.slaLimit).toEqual({ status: "limit", load: 20, nextLoad: 40, failedBelow: [] });
    expect(curve!.caption).toEqual({
      levels: "3 load levels, 4 runs",
      knee: "p95 bends at concurrency 20 (99.89 req/s): 9.8 ms there, 18.2 ms at concurrency 40.",
      sla: "Highest load that met the SLA: concurrency 20 (99.89 req/s); concurrency 40 missed it (p95 18.2 ms, target <= 15 ms).",
    });
    expect(capacity.slaLines).toEqual([{ metric: "p95", thresholdMs: 15 }]);
  });

  it("compares two curves, base against head, on one load key", async () => {
    const caller = createCaller({ db: database.prisma });
    const capacity = await caller.capacity.get({
      project: slug,
      endpoint: "GetListing",
      protocol: "grpc",
      base: "branch:main",
      head: "branch:feature/async",
    });
    expect(capacity.isComparison).toBe(true);
    expect(capacity.curves.map((curve) => [curve.side, curve.selector, curve.runCount])).toEqual([
      ["base", "branch:main", 4],
      ["head", "branch:feature/async", 3],
    ]);
    const head = capacity.curves[1]!;
    expect(head.curve!.levels.map((level) => level.runIds)).toEqual([[ids.head10], [ids.head20], [ids.head40]]);
    // The slower build is as slow at every level (the three rounds of one load): no bend, no level within the SLA.
    expect(head.curve!.knee.status).toBe("no-knee");
    [ghzP95("managedasync", 2), ghzP95("managedasync", 3), ghzP95("managedasync", 1)].forEach((p95, index) =>
      expect(head.curve!.levels[index]!.p95Ms).toBeCloseTo(p95, 9),
    );
    expect(head.caption!.knee).toBe(
      "No knee in the measured range: p95 does not rise from the lowest load to the highest.",
    );
    expect(head.curve!.slaLimit).toEqual({ status: "none-met", lowestLoad: 10 });
    expect(head.caption!.sla).toMatch(
      /^No measured load level met the SLA: even concurrency 10 \(99\.\d\d req\/s\) missed it \(p95 /,
    );
  });

  it("mixes branches without a selector, and says so through the curve's branches", async () => {
    const capacity = await getCapacity(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      protocol: "grpc",
    });
    expect(capacity.curves[0]).toMatchObject({
      side: "all",
      selector: null,
      runCount: 7,
      branches: ["feature/async", "main"],
    });
    // The newest series with three or more levels is drawn; the nightly one is offered beside it.
    expect(capacity.series).toEqual({ tool: "ghz", label: "capacity" });
    expect(capacity.seriesOptions).toEqual([
      { tool: "ghz", label: "nightly", runs: 1, levels: 1 },
      { tool: "ghz", label: "capacity", runs: 7, levels: 3 },
    ]);
  });

  it("draws k6's run aggregate against VUs, with its knee and the aggregate's SLA limit", async () => {
    const capacity = await getCapacity(database.prisma, { projectSlug: slug, endpoint: "_all", tool: "k6" });
    expect(capacity.series).toEqual({ tool: "k6", label: "capacity" });
    // k6 states vus and vus_max (10 in every file): the key that varies is vus.
    expect(capacity.loadKey).toBe("vus");
    expect(capacity.loadKeys).toEqual([
      { key: "vus", levels: 3 },
      { key: "vus_max", levels: 1 },
    ]);
    const curve = capacity.curves[0]!.curve!;
    expect(curve.levels.map((level) => level.load)).toEqual([10, 20, 40]);
    expect(curve.levels.map((level) => level.p95Ms)).toEqual([
      k6P95("baseline", 1),
      k6P95("baseline", 2),
      k6P95("managedasync", 1),
    ]);
    expect(curve.knee).toMatchObject({ status: "knee", load: 20 });
    expect(curve.slaLimit).toEqual({ status: "limit", load: 20, nextLoad: 40, failedBelow: [] });
    expect(capacity.curves[0]!.caption!.sla).toMatch(
      /^Highest load that met the SLA: 20 VUs \(\d+\.\d\d req\/s\); 40 VUs missed it \(p95 38\.1 ms, target <= 30 ms\)\.$/,
    );
    expect(capacity.slaLines).toEqual([{ metric: "p95", thresholdMs: 30 }]);
  });

  it("says there is no knee in Locust's curve, and names a failing level below the SLA limit", async () => {
    const capacity = await getCapacity(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      protocol: "http",
    });
    expect(capacity.series).toEqual({ tool: "locust", label: "capacity" });
    expect(capacity.loadKey).toBe("users");
    const curve = capacity.curves[0]!;
    // p95 16, 13 and 19 ms (Locust rounds to whole ms): within noise of each other.
    expect(curve.curve!.levels.map((level) => [level.load, level.p95Ms])).toEqual([
      [15, 16],
      [30, 13],
      [60, 19],
    ]);
    expect(curve.caption!.knee).toBe(
      "No knee in the measured range: p95 rises only 19% from the lowest load to the highest.",
    );
    expect(curve.curve!.slaLimit).toEqual({ status: "limit", load: 30, nextLoad: 60, failedBelow: [15] });
    expect(curve.caption!.sla).toMatch(/ It also missed at 15 users\.$/);
  });

  it("has too few load levels for a series run at one load", async () => {
    const capacity = await getCapacity(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      protocol: "grpc",
      label: "nightly",
    });
    expect(capacity.series).toEqual({ tool: "ghz", label: "nightly" });
    // ghz states its own concurrency (10), connections (1) and rps (100): one level.
    const curve = capacity.curves[0]!;
    expect(curve.curve!.levels).toHaveLength(1);
    expect(curve.caption!.knee).toBe("Too few load levels: need 3, have 1.");
  });

  it("answers NOT_FOUND for an unknown endpoint and BAD_REQUEST for a selector that does not parse", async () => {
    const caller = createCaller({ db: database.prisma });
    await expect(caller.capacity.get({ project: slug, endpoint: "NoSuchMethod" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.capacity.get({ project: slug, endpoint: "GetListing", base: "branch:", head: "x" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
