import { describe, expect, it } from "vitest";
import { parseUpload } from "../parsers";
import { AGGREGATE_NAME, emptyEndpoint } from "../run";
import { benchmarkResult, benchmarkRun } from "../parsers/benchmark";
import { readFixture } from "../parsers/fixtures/read-fixture";
import { gradeRun } from "../sla/grade";
import { slaPolicySchema } from "../sla/policy";
import { safeHttpUrl } from "../urls";
import { statusToneOf, toTimelines } from "./report-sections";
import { runTitle, toCompareLinks, toRunReport } from "./run-report";

const GHZ_METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];
const ghzFiles = () =>
  GHZ_METHODS.map((method) => ({ name: `${method}.json`, text: readFixture(`ghz/baseline/round1/${method}.json`) }));

describe("small helpers", () => {
  it("statusToneOf reads HTTP and gRPC codes", () => {
    expect(statusToneOf("OK")).toBe("good");
    expect(statusToneOf("200")).toBe("good");
    expect(statusToneOf("503")).toBe("bad");
    expect(statusToneOf("Unavailable")).toBe("bad");
    expect(statusToneOf("0")).toBe("neutral");
  });

  it("safeHttpUrl links only http(s)", () => {
    expect(safeHttpUrl("https://ci.example/build/1")).toBe("https://ci.example/build/1");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });

  it("runTitle", () => {
    expect(runTitle({ label: "baseline", round: 1, tool: "ghz" })).toBe("baseline #1");
    expect(runTitle({ label: "baseline", round: null, tool: "ghz" })).toBe("baseline");
    expect(runTitle({ label: null, round: null, tool: "k6" })).toBe("k6 run");
  });
});

describe("toRunReport on the ghz baseline round 1", () => {
  const { run } = parseUpload({ files: ghzFiles() });
  run.label = "baseline";
  run.round = 1;
  run.environment.git = { commit: "9f1c2e7abcdef", branch: "main", pullRequest: 42, repoUrl: null };
  run.environment.ci.buildUrl = "javascript:alert(1)";
  const report = toRunReport(
    { slug: "list ings", name: "Listings", repoUrl: "https://github.com/acme/listings/" },
    { id: "run1", uploadedAt: new Date("2026-11-22T10:00:00Z") },
    run,
  );

  it("has one row per method with the report's own numbers, and the aggregate apart", () => {
    expect(report.endpoints.map((row) => row.name)).toEqual(GHZ_METHODS);
    const getListing = JSON.parse(readFixture("ghz/baseline/round1/GetListing.json")) as {
      count: number;
      rps: number;
      latencyDistribution: { percentage: number; latency: number }[];
    };
    const row = report.endpoints[0]!;
    expect(row).toMatchObject({
      displayName: "GetListing",
      fullName: "listings.v1.ListingService.GetListing",
      // A run's trend link draws its own branch.
      href: "/projects/list%20ings/endpoints/GetListing?protocol=grpc&branch=main",
      requests: getListing.count,
      requestsPerSecond: getListing.rps,
      isAggregate: false,
    });
    expect(row.p95Ms).toBe(getListing.latencyDistribution.find((d) => d.percentage === 95)!.latency / 1e6);
    expect(row.p90Ms).not.toBeNull();
    expect(report.aggregate).toMatchObject({ isAggregate: true, displayName: "All endpoints", href: null });
    expect(report.aggregate?.requests).toBe(report.endpoints.reduce((sum, r) => sum + (r.requests ?? 0), 0));
  });

  it("builds links, and only from http(s) URLs", () => {
    expect(report.run.title).toBe("baseline #1");
    expect(report.run.git).toMatchObject({
      commitShort: "9f1c2e7",
      commitUrl: "https://github.com/acme/listings/commit/9f1c2e7abcdef",
      pullRequestUrl: "https://github.com/acme/listings/pull/42",
    });
    expect(report.run.buildUrl).toBeNull();
    expect(report.links).toEqual({
      raw: "/api/v1/projects/list%20ings/runs/run1/raw",
      json: "/api/v1/projects/list%20ings/runs/run1",
    });
    expect(report.run.protocol).toBe("grpc");
    expect(report.run.config.find((entry) => entry.key === "protocol")).toBeUndefined();
  });

  it("has a histogram per method, status codes, errors and the shutdown notes", () => {
    // Each method's, and the aggregate's: complete details pool exactly into an HDR histogram.
    expect(report.histograms.map((h) => h.endpoint)).toEqual([...GHZ_METHODS, AGGREGATE_NAME]);
    for (const histogram of report.histograms) {
      expect(histogram.total).toBe(histogram.bars.reduce((sum, bar) => sum + bar.count, 0));
    }
    expect(report.statusCodes.find((s) => s.endpoint === "GetListing")?.codes[0]).toMatchObject({ code: "OK", tone: "good" });
    expect(report.errors.every((error) => error.count > 0)).toBe(true);
    expect(report.run.notes.length).toBeGreaterThan(0);
    expect(report.thresholds).toEqual([]);
  });
});

describe("toRunReport on a k6 summary", () => {
  it("carries thresholds and checks with pass rates", () => {
    const { run } = parseUpload({ files: [{ name: "summary.json", text: readFixture("k6/baseline/round1/summary.json") }] });
    const report = toRunReport({ slug: "p", name: "p", repoUrl: null }, { id: "r", uploadedAt: new Date() }, run);
    expect(report.thresholds.length).toBeGreaterThan(0);
    for (const check of report.checks) {
      const total = check.passes + check.fails;
      expect(check.passRate).toBe(total > 0 ? check.passes / total : null);
    }
    expect(report.run.git.commitUrl).toBeNull();
  });
});


describe("toCompareLinks", () => {
  const run = { id: "run9", tool: "locust", label: "baseline", branch: "main" };
  const earlier = (ids: string[]) => ids.map((id, i) => ({ id, label: "baseline", round: ids.length - i, tool: "locust" }));

  it("offers the previous run, this label's earlier runs and other labels' newest runs, all of the run's tool", () => {
    const links = toCompareLinks("list ings", run, {
      earlier: earlier(["run8", "run7", "run6"]),
      labels: [
        { label: "load test", runs: 12 },
        { label: "smoke", runs: 1 },
      ],
    });
    expect(links).toEqual({
      tool: "locust",
      previous: { href: "/projects/list%20ings/compare?base=run8&head=run9&tool=locust", title: "baseline #3" },
      groups: [
        {
          label: "baseline",
          href: "/projects/list%20ings/compare?base=run8,run7,run6&head=run9&tool=locust",
          text: "the 3 earlier locust runs labelled baseline on main",
        },
        {
          label: "load test",
          href: "/projects/list%20ings/compare?base=label%3Aload%20test&head=run9&last=5&tool=locust",
          text: "the last 5 locust runs labelled load test",
        },
        { label: "smoke", href: "/projects/list%20ings/compare?base=label%3Asmoke&head=run9&last=5&tool=locust", text: "the locust run labelled smoke" },
      ],
      none: null,
    });
  });

  it("offers one earlier run as the previous run only, and never the run itself", () => {
    const links = toCompareLinks("p", run, { earlier: earlier(["run8"]), labels: [] });
    expect(links.previous?.href).toBe("/projects/p/compare?base=run8&head=run9&tool=locust");
    expect(links.groups).toEqual([]);
    expect(JSON.stringify(links)).not.toContain("base=label%3Abaseline");
  });

  it("says plainly that there is nothing comparable, rather than offering an empty menu", () => {
    expect(toCompareLinks("p", run, { earlier: [], labels: [] })).toEqual({
      tool: "locust",
      previous: null,
      groups: [],
      none: "No comparable run yet: no earlier locust run of this label and load, and no other label with locust runs. Runs of other tools are other series.",
    });
  });
});

describe("toRunReport extras", () => {
  it("marks each endpoint row with its SLA compliance, and the report with the extras given", () => {
    const { run } = parseUpload({ files: ghzFiles() });
    // GetListing is held to a target it meets, ListListings to one no run meets; the others to none.
    const grade = gradeRun(
      slaPolicySchema.parse({
        targets: [
          { metric: "p95", op: "<=", threshold: 1e9, scope: { match: "GetListing" } },
          { metric: "p95", op: "<=", threshold: 0, scope: { match: "ListListings" } },
        ],
      }),
      run,
    );
    const compare = toCompareLinks("p", { id: "r", tool: "ghz", label: null, branch: null }, { earlier: [], labels: [{ label: "baseline", runs: 3 }] });
    const annotations = [{ id: "a1", kind: "note" as const, text: "deployed v2.3", createdAt: "2026-11-22T10:00:00.000Z" }];
    const report = toRunReport({ slug: "p", name: "p", repoUrl: "javascript:alert(1)" }, { id: "r", uploadedAt: new Date() }, run, {
      grade,
      compare,
      annotations,
      isPinnedBaseline: true,
    });
    expect(report.endpoints.map((row) => row.slaCompliant)).toEqual([true, false, null, null, null]);
    expect(report.aggregate?.slaCompliant).toBeNull();
    expect(report).toMatchObject({ grade, compare, annotations, isPinnedBaseline: true });
    expect(report.project.repoUrl).toBeNull();
  });
});

describe("toTimelines: a timeline spans the run, from its start", () => {
  interface ArtilleryWindow {
    period: number | string;
  }
  interface ArtilleryReport {
    aggregate: { firstMetricAt: number; lastMetricAt: number };
    intermediate: ArtilleryWindow[];
  }

  it.each(["baseline", "managedasync"])("artillery %s: the points at their windows' ends, the last at the run's duration", (variant) => {
    const text = readFixture(`artillery/${variant}/round1/report.json`);
    const report = JSON.parse(text) as ArtilleryReport;
    const { firstMetricAt, lastMetricAt } = report.aggregate;
    const { run } = parseUpload({ files: [{ name: "report.json", text }] });
    // The file's own span: the first metric to the last (the 12 s phase at 10 arrivals/s).
    expect(run.durationSeconds).toBe((lastMetricAt - firstMetricAt) / 1000);
    expect(run.durationSeconds).toBeGreaterThan(11.9);
    const [aggregate, ...endpoints] = toTimelines(run);
    // Each 10 s window (wall-clock aligned) ends at period + 10 s, the last one cut at the run's end.
    const ends = report.intermediate
      .map((window) => Math.min(Number(window.period) + 10_000, lastMetricAt))
      .sort((a, b) => a - b);
    expect(aggregate?.rows.map((row) => row.seconds)).toEqual(ends.map((end) => (end - firstMetricAt) / 1000));
    expect(aggregate?.rows.at(-1)?.seconds).toBe(run.durationSeconds);
    // Not from the first point: artillery's first window ends seconds into the run (4.4 s in managedasync).
    expect(aggregate?.rows[0]?.seconds).toBeGreaterThan(1);
    for (const endpoint of endpoints) expect(endpoint.rows.at(-1)?.seconds).toBe(run.durationSeconds);
  });

  it("Locust's HTML history: from the report's start_time, to its end_time", () => {
    const { run } = parseUpload({ files: [{ name: "report.html", text: readFixture("locust/baseline/round1/report.html") }] });
    const [aggregate] = toTimelines(run);
    const startMs = Date.parse(run.startedAt ?? "");
    expect(aggregate?.rows.map((row) => row.seconds)).toEqual(run.aggregate.timeline?.map((point) => (point.atMs - startMs) / 1000));
    expect(aggregate?.rows.at(-1)?.seconds).toBe(run.durationSeconds);
  });

  it("is not moved by a started_at given on another clock, and starts at the first point without a duration", () => {
    const text = readFixture("artillery/managedasync/round1/report.json");
    const { run } = parseUpload({ files: [{ name: "report.json", text }] });
    const seconds = toTimelines(run)[0]?.rows.map((row) => row.seconds);
    expect(toTimelines({ ...run, startedAt: "2026-01-01T00:00:00.000Z" })[0]?.rows.map((row) => row.seconds)).toEqual(seconds);
    const first = run.aggregate.timeline?.[0]?.atMs ?? 0;
    expect(toTimelines({ ...run, durationSeconds: null })[0]?.rows.map((row) => row.seconds)).toEqual(
      run.aggregate.timeline?.map((point) => (point.atMs - first) / 1000),
    );
    // A duration shorter than the timeline cannot place its start: the first point is the origin.
    expect(toTimelines({ ...run, durationSeconds: 1 })[0]?.rows[0]?.seconds).toBe(0);
  });
});

describe("toRunReport on a run of benchmarks", () => {
  const samplesMs = [0.004761, 0.0047, 0.0048, 0.00475, 0.00472];
  const run = benchmarkRun("go-bench-text", "go", [
    benchmarkResult({ name: "BenchmarkSortInts/n=100", group: "example.com/sort", samplesMs }),
    benchmarkResult({ name: "BenchmarkEncode", group: "example.com/json", summary: { meanMs: 0.0000234, samples: 3 } }),
  ]);
  run.environment.testbed = "linux/amd64 · AMD EPYC";
  const report = toRunReport({ slug: "p", name: "p", repoUrl: null }, { id: "r", uploadedAt: new Date() }, run);

  it("is a run of benchmarks, each row a benchmark, with its testbed", () => {
    expect(report.run.kind).toBe("benchmark");
    expect(report.run.testbed).toBe("linux/amd64 · AMD EPYC");
    expect(report.endpoints.map((row) => [row.displayName, row.kind, row.requests])).toEqual([
      ["example.com/sort > BenchmarkSortInts/n=100", "benchmark", samplesMs.length],
      ["example.com/json > BenchmarkEncode", "benchmark", 3],
    ]);
  });

  it("shows no aggregate row: benchmarks are judged one by one", () => {
    expect(report.aggregate).toBeNull();
  });

  it("names the histogram of a benchmark by its name", () => {
    expect(report.histograms.map((histogram) => histogram.displayName)).toEqual(["example.com/sort > BenchmarkSortInts/n=100"]);
  });
});

describe("toRunReport on a run with both kinds", () => {
  it("is mixed, each row with its own kind, and keeps an aggregate that has numbers", () => {
    const run = benchmarkRun("go-bench-text", "go", [benchmarkResult({ name: "BenchmarkA", samplesMs: [0.001, 0.002] })]);
    const endpoint = emptyEndpoint("GET /");
    endpoint.protocol = "http";
    endpoint.requests = 10;
    run.endpoints.push(endpoint);
    run.aggregate = { ...emptyEndpoint(AGGREGATE_NAME), requests: 12 };
    const report = toRunReport({ slug: "p", name: "p", repoUrl: null }, { id: "r", uploadedAt: new Date() }, run);
    expect(report.run.kind).toBe("mixed");
    expect(report.endpoints.map((row) => row.kind)).toEqual(["benchmark", "endpoint"]);
    expect(report.aggregate).toMatchObject({ displayName: "All endpoints", requests: 12 });
  });
});

describe("toCompareLinks of a run of benchmarks", () => {
  it("says why nothing is offered without speaking of load", () => {
    const links = toCompareLinks("p", { id: "r", tool: "go", label: "main", branch: "main", protocol: "benchmark" }, { earlier: [], labels: [] });
    expect(links.none).toBe("No comparable run yet: no earlier go run of this label, and no other label with go runs. Runs of other tools are other series.");
  });
});
