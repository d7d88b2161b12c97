import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { compareProjectRuns } from "./comparisons";

const REPO = "https://github.com/acme/listings";

interface NightlyRound {
  label: string;
  round: number;
  branch: string;
  commit: string;
  startedAt: string;
  p95Ms: number;
  toolVersion?: string;
  host?: { name: string; cpus: number; memoryGb: number };
  vus?: number;
  appVersion?: string;
}

/**
 * One round of the listings service's k6 nightly, as its CI wrapper uploads it in the Benchtrack format
 * (k6's own summary carries no host, version or app metadata): 4,500 requests of GET /api/listings/:id.
 */
function nightly(round: NightlyRound): string {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "k6",
    toolVersion: round.toolVersion ?? "0.52.0",
    label: round.label,
    round: round.round,
    startedAt: round.startedAt,
    durationSeconds: 30,
    environment: {
      git: { branch: round.branch, commit: round.commit },
      host: round.host ?? { name: "perf-1", cpus: 16, memoryGb: 32 },
      appVersion: round.appVersion ?? "1.4.2",
      config: { vus: round.vus ?? 50, duration: "30s", protocol: "http" },
      attributes: { db: "postgres15" },
    },
    endpoints: [
      {
        name: "GET /api/listings/:id",
        protocol: "http",
        method: "GET",
        requests: 4500,
        failures: 0,
        throughput: 150,
        latency: { unit: "ms", p50: +(round.p95Ms * 0.4).toFixed(2), p95: round.p95Ms },
      },
    ],
  });
}

// Noisy rounds: base mean 30 ms (CV 7.9%), head +4% (Welch, one-sided p ≈ 0.2): no verdict either way.
const BASE_P95 = [30.0, 33.0, 28.5, 31.5, 27.0];
const HEAD_P95 = [31.2, 28.8, 33.6, 29.7, 32.7];

describe.each(testDatabaseTargets())("compare: what changed and how many rounds, on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("compare-env");

  const upload = async (round: NightlyRound) => {
    await ingestTestRun(database.prisma, slug, nightly(round));
  };

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    for (const [index, p95Ms] of BASE_P95.entries()) {
      await upload({
        label: "nightly",
        round: index + 1,
        branch: "main",
        commit: "9f1c2e7aa41b",
        startedAt: `2026-11-10T0${index}:00:00Z`,
        p95Ms,
      });
    }
    // The PR's rounds ran on a smaller CI host at twice the VUs, with a newer k6 and app.
    for (const [index, p95Ms] of HEAD_P95.entries()) {
      await upload({
        label: "pr-311",
        round: index + 1,
        branch: "feature/listing-cache",
        commit: "4b1d2aa0c9d3",
        startedAt: `2026-11-11T0${index}:00:00Z`,
        p95Ms,
        toolVersion: "0.54.0",
        host: { name: "ci-small-3", cpus: 4, memoryGb: 8 },
        vus: 100,
        appVersion: "1.5.0",
      });
    }
    // Three more rounds of the PR on the perf host, from two commits.
    for (const [index, commit] of ["4b1d2aa0c9d3", "5c2e3bb1d0e4", "5c2e3bb1d0e4"].entries()) {
      await upload({
        label: "pr-311-perf",
        round: index + 1,
        branch: "feature/listing-cache",
        commit,
        startedAt: `2026-11-12T0${index}:00:00Z`,
        p95Ms: HEAD_P95[index]!,
      });
    }
    await database.prisma.project.update({ where: { slug }, data: { repoUrl: REPO } });
  });

  afterAll(async () => {
    await database.close();
  });

  const compare = (head: string) =>
    compareProjectRuns(
      database.prisma,
      slug,
      { base: "label:nightly", head, last: null, test: "welch", tool: null },
      "http://bench.test",
    );

  it("warns beside the verdict that another host size and load profile make it unfair, and lists only what changed", async () => {
    const result = await compare("label:pr-311");
    const { environment, warnings } = result.comparison;
    expect(environment.unfair).toEqual([
      "Different load profiles (base → head): vus 50 → 100; latency depends on the load, so the change may come from the load rather than the code.",
      "Different host sizes (base → head): 16 CPUs, 32 GB → 4 CPUs, 8 GB; a bigger or smaller machine changes the numbers by itself.",
    ]);
    expect(warnings.slice(0, 2)).toEqual(environment.unfair);
    expect(
      environment.differences.map((difference) => [
        difference.name,
        difference.base,
        difference.head,
        difference.isUnfair,
      ]),
    ).toEqual([
      ["vus", ["50"], ["100"], true],
      ["host size", ["16 CPUs, 32 GB"], ["4 CPUs, 8 GB"], true],
      ["tool version", ["0.52.0"], ["0.54.0"], false],
      ["host", ["perf-1"], ["ci-small-3"], false],
      ["app version", ["1.4.2"], ["1.5.0"], false],
    ]);
    expect(environment.same).toEqual(["tool k6", "protocol http", "load duration 30s"]);
    expect(environment.commits).toEqual({
      base: [{ sha: "9f1c2e7aa41b", url: `${REPO}/commit/9f1c2e7aa41b` }],
      head: [{ sha: "4b1d2aa0c9d3", url: `${REPO}/commit/4b1d2aa0c9d3` }],
      diffUrl: `${REPO}/compare/9f1c2e7aa41b...4b1d2aa0c9d3`,
      mixed: [],
    });

    const lines = result.markdown.split("\n");
    expect(lines[0]).toBe("### ⚪ **Unchanged**: no change beyond the noise");
    expect(lines[2]).toBe(`> ⚠️ **Unfair comparison:** ${environment.unfair[0]}`);
    expect(lines[3]).toBe(`> ⚠️ **Unfair comparison:** ${environment.unfair[1]}`);
    expect(result.markdown).toContain(
      "**What changed** (base → head): vus 50 → 100 ⚠️ · host size 16 CPUs, 32 GB → 4 CPUs, 8 GB ⚠️ · tool version 0.52.0 → 0.54.0 · host perf-1 → ci-small-3 · app version 1.4.2 → 1.5.0 · " +
        `[commits 9f1c2e7 → 4b1d2aa](${REPO}/compare/9f1c2e7aa41b...4b1d2aa0c9d3)`,
    );
    expect(result.markdown).toContain("<sub>Same tool k6, protocol http, load duration 30s.</sub>");
    // Said once, by the verdict: not again among the other warnings.
    expect(result.markdown.match(/Different host sizes/g)).toHaveLength(1);
  });

  // The project's α is the gate's default, 0.01 one-sided (it was 0.05 two-sided: 35 and 10 rounds then).
  it("says how many rounds per side would detect the project's minimum effect at this noise, beside the verdict", async () => {
    const result = await compare("label:pr-311");
    const { rounds } = result.comparison;
    expect(result.comparison.kind).toBe("groups");
    expect(rounds?.headline).toMatchObject({
      endpoint: "(all)",
      metric: "p95",
      have: { base: 5, head: 5 },
      estimate: { status: "ok", roundsPerSide: 45 },
    });
    expect(rounds?.sentence).toMatch(
      /^About 45 rounds per side would detect a 5% change in p95 \(All endpoints\) at this noise \(round-to-round noise 7\.9% base, 6\.4% head; Welch's t-test, α = 0\.01, 80% power\); this comparison has 5 vs 5\.$/,
    );
    expect(result.markdown.split("\n")[5]).toBe(`**How many rounds?** ${rounds!.sentence}`);

    // The project's own settings: a 10% minimum effect needs fewer rounds.
    await database.prisma.project.update({ where: { slug }, data: { minEffectPct: 10 } });
    try {
      const coarser = await compare("label:pr-311");
      expect(coarser.comparison.rounds?.headline.estimate).toEqual({ status: "ok", roundsPerSide: 13 });
    } finally {
      await database.prisma.project.update({ where: { slug }, data: { minEffectPct: 5 } });
    }
  });

  it("on a like-for-like comparison: no unfair warning, the shared setup in one line, and a side that mixes commits said so", async () => {
    const result = await compare("label:pr-311-perf");
    const { environment } = result.comparison;
    expect(environment.unfair).toEqual([]);
    expect(environment.differences).toEqual([]);
    expect(environment.same).toEqual([
      "tool k6 0.52.0",
      "protocol http",
      "load vus 50, duration 30s",
      "host perf-1 (16 CPUs, 32 GB)",
      "app version 1.4.2",
    ]);
    expect(environment.commits).toMatchObject({ mixed: ["head"], diffUrl: null });
    expect(environment.commits?.head.map((commit) => commit.sha).sort()).toEqual(["4b1d2aa0c9d3", "5c2e3bb1d0e4"]);
    expect(result.markdown).not.toContain("Unfair comparison");
    expect(result.markdown).toMatch(
      /\*\*What changed\*\* \(base → head\): commits 9f1c2e7 → 2 commits \(head mixes (4b1d2aa, 5c2e3bb|5c2e3bb, 4b1d2aa)\)\n<sub>Same tool k6 0\.52\.0, protocol http, load vus 50, duration 30s, host perf-1 \(16 CPUs, 32 GB\), app version 1\.4\.2\.<\/sub>/,
    );
  });
});

describe.each(testDatabaseTargets())("compare 1 vs 1: the noise band since the series' last change, on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("compare-band");
  const ENDPOINT = "GET /api/listings/:id";
  // main's nightly p95: 8 runs near 20 ms, then 4 near 30 ms (a step), then the head.
  const MAIN_P95 = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3, 30.2, 29.8, 30.4, 30.1];
  const runIds: string[] = [];
  let headId = "";

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    for (const [index, p95Ms] of [...MAIN_P95, 30.3].entries()) {
      const outcome = await ingestTestRun(
        database.prisma,
        slug,
        nightly({ label: "nightly", round: 1, branch: "main", commit: `c0ffee${index}0000`, startedAt: `2026-11-${String(index + 1).padStart(2, "0")}T02:00:00Z`, p95Ms }),
      );
      runIds.push(outcome.run.id);
    }
    headId = runIds.pop()!;
  });

  afterAll(async () => {
    await database.close();
  });

  /** The p95 row of the endpoint, base = main's last run before the head. */
  const p95Of = async () => {
    const result = await compareProjectRuns(database.prisma, slug, { base: runIds.at(-1)!, head: headId, last: null, test: "welch", tool: null }, "http://bench.test");
    return result.comparison.endpoints.find((endpoint) => endpoint.name === ENDPOINT)!.metrics.find((metric) => metric.metric === "p95")!;
  };

  it("learns from the runs since a recorded change only; a dismissed one, or none, does not cut the history", async () => {
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    const endpoint = await database.prisma.endpoint.findFirstOrThrow({ where: { projectId: project.id, name: ENDPOINT }, select: { id: true } });
    // Without a recorded change the 11 runs before the base are too few for detection (12): all are learnt from.
    expect((await p95Of()).noiseBandPct).not.toBeNull();

    const regression = await database.prisma.change.create({
      data: { projectId: project.id, endpointId: endpoint.id, metric: "p95", kind: "regression", firstRunId: runIds[8]!, beforeValue: 20, afterValue: 30, deltaPct: 50 },
      select: { id: true },
    });
    // Runs 9–11 of the new level precede the base: 3 of the 5 a band needs.
    const cut = await p95Of();
    expect(cut.verdict).toBe("inconclusive");
    expect(cut.noiseBandPct).toBeNull();
    expect(cut.reason).toMatch(/need 5 history points on the base branch to learn the noise band, have 3$/);

    await database.prisma.change.update({ where: { id: regression.id }, data: { status: "dismissed" } });
    expect((await p95Of()).noiseBandPct).not.toBeNull();
  });

  it("starts again at a change marker, for every endpoint and metric", async () => {
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    await database.prisma.annotation.create({
      data: { projectId: project.id, kind: "change", text: "new load balancer", at: new Date("2026-11-09T12:00:00Z") },
    });
    // The runs of Nov 10 and 11 follow it and precede the base (Nov 12): 2 values.
    expect((await p95Of()).reason).toMatch(/have 2$/);
  });
});
