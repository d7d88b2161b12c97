import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as compare } from "../compare/route";
import { POST as uploadRun } from "./route";

// Microbenchmarks through the upload API, on the embedded database and (with DATABASE_URL) PostgreSQL
// (docs/benchmarks.md): a benchmark changed in a second run of the same suite is flagged in the CI
// verdict and in a compare, and unchanged ones are not; testbeds keep series apart. The suites are built
// here from the real files in server/domain/parsers/fixtures/micro (never edited): each benchmark's
// samples are split in two halves of the same real run (base: even-numbered, head: odd-numbered), and
// the head of one benchmark is made slower by a factor chosen here.

const MICRO = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures/micro");
const readJson = (relative: string) => JSON.parse(readFileSync(path.join(MICRO, relative), "utf8")) as Record<string, any>;

setUpRouteTestDatabase();

interface Answer {
  id: string;
  outcome: "pass" | "fail" | "inconclusive";
  reasons: string[];
  format: string;
  inconclusive: { kind: string; reason: string } | null;
  comparison: {
    verdict: string;
    url: string | null;
    baseline: { runs: { id: string }[] };
    regressions: { endpoint: string | null; metric: string; deltaPct: number }[];
    changes: { endpoint: string | null; status: string }[];
  };
  comment: { series: string; markdown: string };
  run: { environment: { testbed: string | null } };
}

async function upload(slug: string, body: string, query: Record<string, string>): Promise<Answer> {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Answer;
}

const evenOrOdd = <T>(values: readonly T[], parity: 0 | 1) => values.filter((_, index) => index % 2 === parity);
const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const sdOf = (values: readonly number[]) => {
  const mean = meanOf(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
};
const medianOf = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** hyperfine --export-json with each command's timed runs halved, one command's head slowed by `factor`. */
function hyperfineHalf(parity: 0 | 1, slower: Record<string, number> = {}): string {
  const file = readJson("hyperfine/baseline/hyperfine.json");
  const results = (file.results as Record<string, any>[]).map((result) => {
    const times = evenOrOdd(result.times as number[], parity).map((time) => time * (slower[result.command] ?? 1));
    return {
      ...result,
      times,
      exit_codes: evenOrOdd(result.exit_codes as number[], parity),
      mean: meanOf(times),
      stddev: sdOf(times),
      median: medianOf(times),
      min: Math.min(...times),
      max: Math.max(...times),
    };
  });
  return JSON.stringify({ ...file, results });
}

/** pytest-benchmark --benchmark-json with each test's rounds halved, one test's head slowed by `factor`. */
function pytestHalf(parity: 0 | 1, slower: Record<string, number> = {}): string {
  const file = readJson("pytest-benchmark/baseline/pytest-benchmark.json");
  const benchmarks = (file.benchmarks as Record<string, any>[]).map((benchmark) => {
    const data = evenOrOdd(benchmark.stats.data as number[], parity).map((time) => time * (slower[benchmark.name] ?? 1));
    const mean = meanOf(data);
    return {
      ...benchmark,
      stats: { ...benchmark.stats, data, rounds: data.length, mean, stddev: sdOf(data), median: medianOf(data), min: Math.min(...data), max: Math.max(...data), ops: 1 / mean, total: mean * data.length },
    };
  });
  return JSON.stringify({ ...file, benchmarks });
}

const main = { branch: "main", label: "micro" };

describe.each([
  { tool: "hyperfine", half: hyperfineHalf, changed: "sort data.txt", unchanged: ["gzip -c -6 data.txt", "python3 wordfreq.py data.txt"] },
  { tool: "pytest-benchmark", half: pytestHalf, changed: "test_json_dumps", unchanged: ["strings > test_join", "sort > test_sort[1000]", "lookup > test_dict_lookup"] },
])("$tool: the second run of a suite against the first", ({ tool, half, changed, unchanged }) => {
  it(`names the benchmark made 30% slower alone, undecided: one run against one cannot tell it from a burst during that benchmark`, async () => {
    const slug = uniqueSlug(`micro-${tool}-small`);
    await upload(slug, half(0), { ...main, commit: "1111111", started_at: "2026-11-25T10:00:00Z" });
    const head = await upload(slug, half(1, { [changed]: 1.3 }), { ...main, commit: "2222222", started_at: "2026-11-25T11:00:00Z" });
    expect(head.outcome, head.reasons.join("\n")).toBe("inconclusive");
    expect(head.comparison.changes.filter((change) => change.status !== "improved").map((change) => [change.endpoint, change.status])).toEqual([
      [expect.stringContaining(changed), "undecided"],
    ]);
    expect(head.reasons[0]).toContain(changed);
  }, 60_000);

  it(`fails the CI gate on the benchmark made 2.5x slower, names it, and flags it alone in the compare`, async () => {
    const slug = uniqueSlug(`micro-${tool}`);
    // Each its own commit and time (pytest-benchmark's file states both: the metadata wins).
    const base = await upload(slug, half(0), { ...main, commit: "1111111", started_at: "2026-11-25T10:00:00Z" });
    expect(base.outcome).toBe("inconclusive");
    const head = await upload(slug, half(1, { [changed]: 2.5 }), { ...main, commit: "2222222", started_at: "2026-11-25T11:00:00Z" });
    expect(head.outcome, head.reasons.join("\n")).toBe("fail");
    expect(head.comparison.regressions.map((regression) => regression.endpoint)).toEqual([expect.stringContaining(changed)]);
    expect(head.comparison.regressions[0]!.metric).toBe("mean");
    expect(head.comparison.regressions[0]!.deltaPct).toBeGreaterThan(100);
    expect(head.comparison.baseline.runs.map((run) => run.id)).toEqual([base.id]);

    const response = await call(compare, `/api/v1/projects/${slug}/compare`, { project: slug }, { query: { base: base.id, head: head.id } });
    expect(response.status).toBe(200);
    const comparison = (await response.json()) as { verdict: string; endpoints: { name: string; verdict: string }[] };
    expect(comparison.verdict).toBe("regressed");
    const verdicts = Object.fromEntries(comparison.endpoints.map((endpoint) => [endpoint.name, endpoint.verdict]));
    expect(Object.entries(verdicts).filter(([, verdict]) => verdict === "regressed").map(([name]) => name)).toEqual([expect.stringContaining(changed)]);
    for (const name of unchanged) expect(verdicts[name], name).toBe("unchanged");
  }, 60_000);

  it("passes a second run with nothing changed", async () => {
    const slug = uniqueSlug(`micro-${tool}-same`);
    await upload(slug, half(0), { ...main, commit: "1111111", started_at: "2026-11-25T10:00:00Z" });
    const head = await upload(slug, half(1), { ...main, commit: "2222222", started_at: "2026-11-25T11:00:00Z" });
    expect(head.outcome, head.reasons.join("\n")).toBe("pass");
    expect(head.comparison.regressions).toEqual([]);
  }, 60_000);
});

describe("testbeds", () => {
  it("keep series apart: a run on another testbed is never the baseline; the PR comment's series names it", async () => {
    const slug = uniqueSlug("micro-testbeds");
    const first = await upload(slug, hyperfineHalf(0), { ...main, testbed: "runner-a" });
    expect(first.run.environment.testbed).toBe("runner-a");
    const other = await upload(slug, hyperfineHalf(1, { "sort data.txt": 2.5 }), { ...main, testbed: "runner-b" });
    expect(other.outcome).toBe("inconclusive");
    expect(other.comparison.baseline.runs).toEqual([]);
    expect(other.comment.series).toBe("hyperfine:micro:runner-b");
    const same = await upload(slug, hyperfineHalf(1, { "sort data.txt": 2.5 }), { ...main, testbed: "runner-a" });
    expect(same.comparison.baseline.runs.map((run) => run.id)).toEqual([first.id]);
    expect(same.outcome).toBe("fail");
  }, 60_000);

  it("default to the hardware the file states (pytest's machine_info), never the host name", async () => {
    const slug = uniqueSlug("micro-testbed-default");
    const answer = await upload(slug, pytestHalf(0), main);
    expect(answer.run.environment.testbed).toBe("Linux x86_64 · AMD EPYC");
  }, 60_000);
});
