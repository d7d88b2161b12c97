import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root";
import type { Database } from "../../db";
import { readFixture } from "../../domain/parsers/fixtures/read-fixture";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { compareProjectRuns } from "../compare/comparisons";
import { updateIncidents } from "../incidents/incidents";
import { detectRegressionsAfterRun } from "../incidents/regression-detection";
import { uploadOfFiles } from "../ingest/received-upload";

const GHZ_METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];
const ghzFiles = () =>
  GHZ_METHODS.map((method) => ({ name: `${method}.json`, text: readFixture(`ghz/baseline/round1/${method}.json`) }));

describe.each(testDatabaseTargets())("run.get on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("returns the stored run's report, and NOT_FOUND for an unknown run or project", async () => {
    const slug = uniqueSlug("report");
    const upload = uploadOfFiles(
      ghzFiles().map(({ name, text }) => ({ name, contentType: "application/json", bytes: Buffer.from(text) })),
    );
    const outcome = await ingestTestRun(database.prisma, slug, upload, { metadata: { label: "baseline", round: 1 } });
    const caller = createCaller({ db: database.prisma });

    const report = await caller.run.get({ project: slug, id: outcome.run.id });
    expect(report?.run).toMatchObject({ id: outcome.run.id, title: "baseline #1", tool: "ghz", format: "ghz" });
    expect(report?.endpoints.map((row) => row.name)).toEqual(GHZ_METHODS);
    expect(report?.histograms).toHaveLength(6); // one per method, and the aggregate's (HDR, pooled from every call)

    // Copy link and Copy Markdown: the page's absolute address, and the PR comment's Markdown linking back to it.
    const page = `https://bench.example.com/projects/${slug}/runs/${outcome.run.id}`;
    const linked = await caller.run.get({ project: slug, id: outcome.run.id, baseUrl: "https://bench.example.com" });
    expect(linked.share.pageUrl).toBe(page);
    expect(linked.share.markdown).toContain(`[open the run](${page})`);
    expect(linked.share.markdown).toMatch(/INCONCLUSIVE|inconclusive/);

    // Services throw the one not-found (server/services/platform/errors.ts); the page answers it with a 404.
    await expect(caller.run.get({ project: slug, id: "no-such-run" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'Run "no-such-run" not found',
    });
    const missing = uniqueSlug("missing");
    await expect(caller.run.get({ project: missing, id: outcome.run.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `Project "${missing}" not found`,
    });
  });

  it("offers only comparable runs to compare with: a Locust run never gets k6 runs, and says so when it has none", async () => {
    const slug = uniqueSlug("compare-with");
    const caller = createCaller({ db: database.prisma });
    const day = (n: number) => `2026-11-${String(n).padStart(2, "0")}T10:00:00Z`;
    const k6 = (label: string, n: number) =>
      ingestTestRun(database.prisma, slug, readFixture("k6/baseline/round1/summary.json"), {
        metadata: { label, branch: "main", started_at: day(n) },
      });
    const locust = (round: number, n: number, config?: Record<string, number>) => {
      const files = ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv"].map((name) => ({
        name,
        contentType: "text/csv",
        bytes: Buffer.from(readFixture(`locust/baseline/round${round}/${name}`)),
      }));
      return ingestTestRun(database.prisma, slug, uploadOfFiles(files), {
        metadata: { label: "baseline", branch: "main", started_at: day(n), ...(config && { config }) },
      });
    };
    // k6 runs labelled baseline (the same label) and nightly before any Locust run.
    const k6Ids = [(await k6("baseline", 1)).run.id, (await k6("baseline", 2)).run.id, (await k6("nightly", 3)).run.id];
    const first = await locust(1, 4);
    const firstReport = await caller.run.get({ project: slug, id: first.run.id });
    expect(firstReport.run.tool).toBe("locust");
    expect(firstReport.compare).toEqual({
      tool: "locust",
      previous: null,
      groups: [],
      none: "No comparable run yet: no earlier locust run of this label and load, and no other label with locust runs. Runs of other tools are other series.",
    });

    const second = await locust(2, 5);
    // Driven with another load: not a run to compare with.
    await locust(3, 6, { users: 200 });
    const third = await locust(3, 7);
    const { compare } = await caller.run.get({ project: slug, id: third.run.id });
    expect(compare.none).toBeNull();
    expect(compare.previous?.href).toBe(`/projects/${slug}/compare?base=${second.run.id}&head=${third.run.id}&tool=locust`);
    expect(compare.groups).toEqual([
      {
        label: "baseline",
        href: `/projects/${slug}/compare?base=${second.run.id},${first.run.id}&head=${third.run.id}&tool=locust`,
        text: "the 2 earlier locust runs labelled baseline on main",
      },
    ]);
    const hrefs = JSON.stringify(compare);
    for (const id of k6Ids) expect(hrefs).not.toContain(id);
    expect(hrefs).not.toContain("nightly");

    // Each link compares without a "not comparable" answer.
    for (const href of [compare.previous!.href, ...compare.groups.map((group) => group.href)]) {
      const query = new URLSearchParams(href.split("?")[1]);
      const request = { base: query.get("base")!, head: query.get("head")!, last: query.has("last") ? Number(query.get("last")) : null, test: "welch" as const, tool: query.get("tool") };
      const result = await compareProjectRuns(database.prisma, slug, request, "http://bench.test");
      expect(result.comparison.notComparable).toBeNull();
    }
  });

  it("offers the tool's other labels in order, at most 12, each with its last runs up to 5, and every label to a run without one", async () => {
    const slug = uniqueSlug("compare-labels");
    const caller = createCaller({ db: database.prisma });
    let hour = 0;
    const upload = async (tool: string, label: string | null) => {
      const document = {
        schema: "benchtrack/v1",
        tool,
        ...(label === null ? {} : { label }),
        startedAt: new Date(Date.UTC(2026, 10, 1, hour++)).toISOString(),
        endpoints: [{ name: "GET /x", requests: 100, failures: 0, latency: { unit: "ms", p50: 5, p95: 10, p99: 15 } }],
      };
      return (await ingestTestRun(database.prisma, slug, document, { metadata: { branch: "main" } })).run.id;
    };
    for (let index = 0; index < 7; index++) await upload("loadgen", "nightly");
    for (let index = 0; index < 2; index++) await upload("loadgen", "beta");
    await upload("loadgen", "alpha");
    // Another tool's label is another series: never offered.
    await upload("othergen", "aardvark");
    const unlabelled = await upload("loadgen", null);
    const nightly = await upload("loadgen", "nightly");
    const texts = async (id: string) => (await caller.run.get({ project: slug, id })).compare.groups.map((group) => [group.label, group.text]);

    expect((await texts(nightly)).filter(([label]) => label !== "nightly")).toEqual([
      ["alpha", "the loadgen run labelled alpha"],
      ["beta", "the last 2 loadgen runs labelled beta"],
    ]);
    expect(await texts(unlabelled)).toEqual([
      ["alpha", "the loadgen run labelled alpha"],
      ["beta", "the last 2 loadgen runs labelled beta"],
      ["nightly", "the last 5 loadgen runs labelled nightly"],
    ]);

    // Twelve labels offered at most: the first twelve in order (l01 … l12), the run's own never among them.
    for (let index = 1; index <= 12; index++) await upload("loadgen", `l${String(index).padStart(2, "0")}`);
    const offered = (await texts(nightly)).map(([label]) => label).filter((label) => label !== "nightly");
    expect(offered).toEqual(["alpha", "beta", ...Array.from({ length: 10 }, (_, index) => `l${String(index + 1).padStart(2, "0")}`)]);
  });

  it("says when a run is where an incident started, and names the open incident its gate judges it before", async () => {
    const slug = uniqueSlug("report-incident");
    const caller = createCaller({ db: database.prisma });
    const noise = [0.1, -0.1, 0.2, -0.2, 0, 0.15, -0.15, 0.05, -0.05, 0.1];
    const runIds: string[] = [];
    // 20 nightly runs at p95 10 ms, then 10 at 13 ms (+30%), on main.
    for (let index = 0; index < 30; index++) {
      const p95 = (index < 20 ? 10 : 13) + noise[index % noise.length]!;
      const document = {
        schema: "benchtrack/v1",
        tool: "loadgen",
        label: "nightly",
        startedAt: new Date(Date.UTC(2026, 10, 1, index)).toISOString(),
        endpoints: [{ name: "GET /x", requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95, p99: p95 * 1.5 } }],
      };
      runIds.push((await ingestTestRun(database.prisma, slug, document, { metadata: { branch: "main" } })).run.id);
    }
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    await detectRegressionsAfterRun(database.prisma, project, await database.prisma.run.findUniqueOrThrow({ where: { id: runIds.at(-1)! } }));
    const incident = await database.prisma.incident.findFirstOrThrow({ where: { projectId: project.id }, include: { regressions: true } });
    expect(incident).toMatchObject({ number: 1, state: "open", firstRunId: runIds[20] });

    const start = await caller.run.get({ project: slug, id: runIds[20]! });
    expect(start.incidentsStarted).toEqual([
      {
        number: 1,
        state: "open",
        largest: expect.objectContaining({ endpoint: "GET /x", protocol: null }),
        changes: incident.regressions.length,
        endpoints: 1,
      },
    ]);
    const largest = [...incident.regressions].sort((a, b) => Math.abs(b.deltaPct) - Math.abs(a.deltaPct))[0]!;
    expect(start.incidentsStarted[0]?.largest).toMatchObject({ metric: largest.metric, deltaPct: largest.deltaPct, before: largest.beforeValue, after: largest.afterValue });

    // A later run: no incident started there; its gate stops before the step, and names the incident.
    const later = await caller.run.get({ project: slug, id: runIds[28]! });
    expect(later.incidentsStarted).toEqual([]);
    expect(later.gate.comparison.baseline.openIncident).toEqual({ number: 1, state: "open" });
    expect(later.gate.comparison.baseline.how).toMatch(/before the open regression GET \/x p\d+ \+\d+\.\d% from the run of 2026-11-01 \(\w+\), incident #1/);
    expect(later.gate.notes.at(-1)).toMatch(/^open regression on this series: .*, incident #1; runs are judged against the level before it/);
    // A run before the step knows nothing of it.
    expect((await caller.run.get({ project: slug, id: runIds[10]! })).gate.comparison.baseline.openIncident).toBeNull();

    // Accepted: the new level is the baseline, no open incident; the run where it started still says so.
    await updateIncidents(database.prisma, { kind: "admin" }, slug, [1], { state: "accepted" }, { viaSession: false }, { baseUrl: "http://localhost:3000" });
    expect((await caller.run.get({ project: slug, id: runIds[28]! })).gate.comparison.baseline.openIncident).toBeNull();
    expect((await caller.run.get({ project: slug, id: runIds[20]! })).incidentsStarted).toEqual([expect.objectContaining({ number: 1, state: "accepted" })]);
  }, 120_000);
});
