import { describe, expect, it } from "vitest";
import type { ManifestRun, Variant } from "@/scripts/evaluate/micro-runs";
import { firstSingleRun, manifestRuns, QUIET_RUNS, runFile } from "@/scripts/evaluate/micro-runs";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// The cases through the upload API, on the embedded database and (with DATABASE_URL) PostgreSQL,
// with real runs made on this project's shared 2-core machine (scripts/evaluate/micro-quiet: the code as
// it is, and variants that change some benchmarks; which ones: scripts/evaluate/micro-truth.ts). Each case
// is what CI sends: a run of main, then a pull request's run against its merge-base (one run against one,
// no history). Files are picked by rule (a tool's first run of a kind without a burst), never by numbers.

setUpRouteTestDatabase();

interface Answer {
  id: string;
  outcome: "pass" | "fail" | "inconclusive";
  reasons: string[];
  inconclusive: { kind: string; reason: string } | null;
  comparison: { changes: { endpoint: string | null; metric: string; status: string; deltaPct: number | null; why: string }[] };
  comment: { markdown: string };
  ab: { pairs: number; decided: boolean; next: string } | null;
}

const bodyOf = (tool: string, run: ManifestRun, pattern: RegExp) => runFile(QUIET_RUNS, tool, run, pattern)!.text;
const firstSingle = (tool: string, variant: Variant) => firstSingleRun(QUIET_RUNS, tool, variant);

async function upload(slug: string, body: string, query: Record<string, string>): Promise<Answer> {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Answer;
}

/** Main's run, then a pull request's run of `variant` against its merge-base: the PR run's answer. */
async function pullRequest(tool: string, variant: Variant, pattern: RegExp): Promise<Answer> {
  const slug = uniqueSlug(`gate-${tool}`);
  await upload(slug, bodyOf(tool, firstSingle(tool, "base"), pattern), { branch: "main", commit: "a1b2c3d4e5f6" });
  return upload(slug, bodyOf(tool, firstSingle(tool, variant), pattern), { branch: `perf/${variant}`, commit: "f6e5d4c3b2a1", base_commit: "a1b2c3d4e5f6" });
}

const worse = (answer: Answer) => answer.comparison.changes.filter((change) => change.status !== "improved");
const GO = (name: string) => `example.com/microbench > ${name}`;

describe("the gate on real microbenchmark runs, first run against its merge-base", () => {
  it("go test -bench: a change to four benchmarks (two with their allocations) fails on the exact counts and names every change, largest first; nothing unchanged is named", async () => {
    const answer = await pullRequest("go", "half", /\.txt$/);
    expect(answer.outcome).toBe("fail");
    const changed = ["BenchmarkEncodeJSON", "BenchmarkJoinInts", "BenchmarkMapLookup", "BenchmarkChecksum"].map(GO);
    const named = worse(answer);
    for (const change of named) expect(changed, change.endpoint!).toContain(change.endpoint);
    expect(named.filter((change) => change.status === "exact").map((change) => `${change.endpoint} ${change.metric}`)).toEqual(
      expect.arrayContaining([`${GO("BenchmarkEncodeJSON")} metrics.allocs/op`, `${GO("BenchmarkJoinInts")} metrics.allocs/op`]),
    );
    expect(named.find((change) => change.metric === "metrics.allocs/op" && change.endpoint === GO("BenchmarkJoinInts"))!.why).toBe("exact: 2 → 16");
    // Largest first, in the reason and the comment.
    const sizes = named.map((change) => Math.abs(change.deltaPct ?? Number.POSITIVE_INFINITY));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(answer.reasons[0]).toMatch(/regressed against the baseline .*; beyond the noise, largest first: /);
    for (const change of named) expect(answer.comment.markdown).toContain(change.endpoint!.replace(/>/g, "&gt;").replace(/([_[\]])/g, "\\$1"));
  });

  it("hyperfine: the script made about 1.5x slower is named, and no unchanged command", async () => {
    const answer = await pullRequest("hyperfine", "small", /^run-\d+\.json$/);
    expect(worse(answer).map((change) => change.endpoint)).toEqual(["python3 wordfreq.py data.txt"]);
    expect(answer.outcome).not.toBe("pass");
    expect(answer.reasons[0]).toContain("python3 wordfreq.py data.txt");
  });

  it("pytest-benchmark: every sort made slower is named, not only the largest; nothing unchanged is named", async () => {
    const answer = await pullRequest("pytest-benchmark", "half", /\.json$/);
    const changed = ["strings > test_join", "sort > test_sort[100]", "sort > test_sort[1000]", "sort > test_sort[10000]"];
    const named = worse(answer).map((change) => change.endpoint);
    for (const name of named) expect(changed).toContain(name);
    for (const sort of changed.slice(1)) expect(named).toContain(sort);
    expect(answer.outcome).not.toBe("pass");
    for (const sort of changed.slice(1)) expect(answer.comment.markdown).toContain(sort.replace(/>/g, "&gt;").replace(/([_[\]])/g, "\\$1"));
  });
});

describe("an A/B job of real go runs (ABBA, the job's own base runs)", () => {
  it("names the benchmark its head made slower, pair by pair, and stops when the answer stands", async () => {
    const slug = uniqueSlug("gate-ab");
    const job = manifestRuns(QUIET_RUNS, "go").filter((run) => run.kind === "ab" && run.job === "base-vs-one-1");
    let answer: Answer | null = null;
    for (const run of job) {
      answer = await upload(slug, bodyOf("go", run, /\.txt$/), {
        branch: "perf/maplookup",
        commit: run.side === "base" ? "a1b2c3d4" : "f6e5d4c3",
        ab_job: "gh-42-1-bench",
        ab_side: run.side!,
        ab_pair: String(run.pair),
      });
      // The job stops once a complete pair's answer stands, as `benchtrack ab` does.
      if (answer.ab!.pairs === run.pair && answer.ab!.next === "stop") break;
    }
    expect(worse(answer!).map((change) => change.endpoint)).toEqual([GO("BenchmarkMapLookup")]);
  });
});
