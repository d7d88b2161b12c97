import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS } from "@/server/domain/stats/issue-example.fixture";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "../runs/route";
import { GET as compare } from "./route";

setUpRouteTestDatabase();

// The compare issue's table: five rounds each, p50/p90/p95 in seconds, completion time in seconds.
const ROUNDS = {
  baseline: { p50: [1.12, 1.15, 1.13, 1.14, 1.14], p90: [2.2, 2.25, 2.21, 2.24, 2.215], p95: ISSUE_BASE_P95_MS, completion: [6.5, 6.7, 6.6, 6.6, 6.6] },
  ManagedAsync: { p50: [1.75, 1.78, 1.77, 1.76, 1.785], p90: [3.95, 3.99, 3.96, 3.98, 3.965], p95: ISSUE_HEAD_P95_MS, completion: [9.1, 9.3, 9.2, 9.2, 9.2] },
};

async function uploadRounds(slug: string) {
  for (const [label, values] of Object.entries(ROUNDS)) {
    for (let round = 0; round < 5; round++) {
      const document = {
        schema: "benchtrack/v1",
        tool: "custom-go-loadtester",
        label,
        round: round + 1,
        startedAt: `2026-11-${label === "baseline" ? 10 : 11}T0${round}:00:00Z`,
        durationSeconds: 30,
        environment: { config: { concurrency: 2, rate: 3 } },
        summary: { latency: { unit: "s", p50: values.p50[round], p90: values.p90[round], p95: values.p95[round] } },
        metrics: { completion: { value: values.completion[round], unit: "s", better: "lower" } },
      };
      const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: JSON.stringify(document) });
      expect(response.status).toBe(201);
    }
  }
}

describe("GET /api/v1/projects/:project/compare", () => {
  const slug = uniqueSlug("compare");
  beforeAll(() => uploadRounds(slug));

  const get = (query: Record<string, string>, accept?: string) =>
    call(compare, `/api/v1/projects/${slug}/compare`, { project: slug }, { query, token: null, headers: accept ? { accept } : {} });

  it("five rounds vs five: the table's means, p95 +76.1%, p < 0.001, regressed", async () => {
    const response = await get({ base: "label:baseline", head: "label:ManagedAsync" });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.verdict).toBe("regressed");
    expect(body.base.runs).toHaveLength(5);
    expect(body.head.runs).toHaveLength(5);
    expect(body.warnings).toEqual([]);
    // Both sides measured alike: nothing listed as changed, the shared setup in one line; a clear verdict needs no more rounds.
    expect(body.environment).toEqual({ same: ["tool custom-go-loadtester", "load concurrency 2, rate 3"], differences: [], unfair: [], commits: null });
    expect(body.rounds).toBeNull();
    const metric = (name: string) => body.aggregate.metrics.find((candidate: any) => candidate.metric === name);
    expect(metric("p50").base.mean).toBeCloseTo(1136, 6);
    expect(metric("p50").head.mean).toBeCloseTo(1769, 6);
    expect(metric("p90").base.mean).toBeCloseTo(2223, 6);
    expect(metric("p90").head.mean).toBeCloseTo(3969, 6);
    expect(metric("p95").base.mean).toBeCloseTo(2483.2, 6);
    expect(metric("p95").head.mean).toBeCloseTo(4372.8, 6);
    expect(metric("metrics.completion").base.mean).toBeCloseTo(6.6, 9);
    expect(metric("metrics.completion").head.mean).toBeCloseTo(9.2, 9);
    expect(metric("p95").deltaPct).toBeCloseTo(76.1, 1);
    expect(metric("p95").pValue).toBeLessThan(0.001);
    expect(metric("p95").verdict).toBe("regressed");
    expect(metric("p95").aggregation).toBe("mean of per-run p95 (5 runs)");
    expect(body.url).toBe(`http://bench.test/projects/${slug}/compare?base=label%3Abaseline&head=label%3AManagedAsync&test=welch`);
  });

  it("answers a PR comment in Markdown with the verdict on the first line", async () => {
    const response = await get({ base: "label:baseline", head: "label:ManagedAsync" }, "text/markdown");
    expect(response.headers.get("content-type")).toMatch(/text\/markdown/);
    const markdown = await response.text();
    expect(markdown.split("\n")[0]).toBe("### 🔴 **Regressed**: head is worse than base");
    expect(markdown).toMatch(/\| All endpoints \| p95 \| 2\.48 s \| 4\.37 s \| \+76\.1% \(/);
    expect(markdown).toMatch(/\[open the comparison\]\(http:\/\/bench\.test\/projects\//);
  });

  it("last=n takes the newest runs of each selector; unknown selectors are 404; bad ones 400", async () => {
    const body = await (await get({ base: "label:baseline", head: "label:ManagedAsync", last: "3" })).json();
    expect(body.base.runs.map((run: any) => run.round)).toEqual([5, 4, 3]);
    expect((await get({ base: "label:nope", head: "label:ManagedAsync" })).status).toBe(404);
    const bad = await get({ base: "", head: "label:ManagedAsync" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].path).toBe("base");
  });

  it("gives no pooled verdict over runs of several tools, and links each tool's comparison", async () => {
    const mixed = uniqueSlug("series");
    const post = async (tool: string, label: string, hour: number, p95: number) => {
      const document = {
        schema: "benchtrack/v1",
        tool,
        label,
        startedAt: `2026-11-12T${String(hour).padStart(2, "0")}:00:00Z`,
        endpoints: [{ name: "GetListing", requests: 5000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
      };
      const response = await call(uploadRun, `/api/v1/projects/${mixed}/runs`, { project: mixed }, { method: "POST", body: JSON.stringify(document) });
      expect(response.status).toBe(201);
    };
    // k6 and Locust measure the same endpoint at very different levels; neither changes.
    for (const [hour, value] of [10, 10.2, 9.9].entries()) await post("k6", "before", hour, value);
    for (const [hour, value] of [30, 30.5, 29.8].entries()) await post("locust", "before", hour + 3, value);
    for (const [hour, value] of [10.1, 9.95].entries()) await post("k6", "after", hour + 6, value);
    for (const [hour, value] of [30.2, 29.9, 30.1, 30.3].entries()) await post("locust", "after", hour + 8, value);

    const query = { base: "label:before", head: "label:after" };
    const pooled = await (await call(compare, `/api/v1/projects/${mixed}/compare`, { project: mixed }, { query, token: null })).json();
    expect(pooled.verdict).toBe("inconclusive");
    expect(pooled.notComparable).toBe("not comparable: the runs come from 2 tools (base: 3 k6 + 3 locust; head: 2 k6 + 4 locust); compare one tool at a time");
    expect(pooled.endpoints[0].metrics.every((metric: any) => metric.verdict === "inconclusive" && metric.pValue === null)).toBe(true);
    expect(pooled.tools.map((entry: any) => [entry.tool, entry.base, entry.head])).toEqual([["k6", 3, 2], ["locust", 3, 4]]);
    expect(pooled.tools[0].url).toBe(`http://bench.test/projects/${mixed}/compare?base=label%3Abefore&head=label%3Aafter&test=welch&tool=k6`);

    const markdown = await (await call(compare, `/api/v1/projects/${mixed}/compare`, { project: mixed }, { query: { ...query, format: "markdown" }, token: null })).text();
    expect(markdown.split("\n")[0]).toBe("### ⚪ **Not comparable**: the runs come from several tools");
    expect(markdown).toContain(`[k6](${pooled.tools[0].url})`);

    // Each tool alone is one series, judged by the usual rules: Locust's 3 vs 4 runs are enough and show
    // no change; k6's 3 vs 2 are one short of the 6 runs in all a test needs, and say what would decide.
    const one = async (tool: string) =>
      (await call(compare, `/api/v1/projects/${mixed}/compare`, { project: mixed }, { query: { ...query, tool }, token: null })).json();
    const locust = await one("locust");
    expect(locust.notComparable).toBeNull();
    expect(locust.verdict).toBe("unchanged");
    expect(locust.endpoints[0].metrics.find((metric: any) => metric.metric === "p95")).toMatchObject({ gate: true, verdict: "unchanged" });
    const k6 = await one("k6");
    expect(k6.notComparable).toBeNull();
    expect(k6.verdict).toBe("inconclusive");
    expect(k6.endpoints[0].metrics.find((metric: any) => metric.metric === "p95")).toMatchObject({
      gate: true,
      verdict: "inconclusive",
      inconclusiveKind: "too-little-history",
      reason: "need 6 runs in all with at least 2 in the base (have 3 base + 2 head): 1 more round of the head, or 1 more base run, would decide",
    });
  });

  it("names the side that matches no run, and says why a selector does not parse", async () => {
    const empty = await get({ base: "label:nope", head: "label:ManagedAsync" });
    expect(empty.status).toBe(404);
    expect((await empty.json()).error).toMatchObject({
      code: "not_found",
      message: "No runs match the base selector.",
      details: [{ path: "base", message: '"label:nope" matches no run of this project' }],
    });
    const malformed = await get({ base: "label:baseline", head: "not a run id" });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toMatchObject({ code: "bad_request", message: "The head selector is not a list of run ids" });
    const tooMany = await get({ base: Array.from({ length: 51 }, (_, i) => `r${i}`).join(","), head: "label:ManagedAsync" });
    expect(tooMany.status).toBe(413);
  });

  it("links run ids with literal commas, and each run to its page", async () => {
    const baseline = await (await get({ base: "label:baseline", head: "label:ManagedAsync", last: "2" })).json();
    const ids = baseline.base.runs.map((run: any) => run.id);
    const body = await (await get({ base: ids.join(","), head: baseline.head.runs[0].id })).json();
    expect(body.url).toBe(`http://bench.test/projects/${slug}/compare?base=${ids.join(",")}&head=${baseline.head.runs[0].id}&test=welch`);
    expect(body.base.runs.map((run: any) => run.url)).toEqual(ids.map((id: string) => `http://bench.test/projects/${slug}/runs/${id}`));
    expect(body.base.runs[0].startedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it("gives the compare page the same use case through tRPC: the result, its links and Markdown, or the same errors", async () => {
    const caller = createCaller({ db: await getDb() });
    const input = { project: slug, base: "label:baseline", head: "label:ManagedAsync", last: null, test: "welch" as const, baseUrl: "http://bench.test" };
    const result = await caller.compare.get(input);
    expect(result.comparison.verdict).toBe("regressed");
    expect(result.links).toEqual({
      page: `http://bench.test/projects/${slug}/compare?base=label%3Abaseline&head=label%3AManagedAsync&test=welch`,
      api: `/api/v1/projects/${slug}/compare?base=label%3Abaseline&head=label%3AManagedAsync&test=welch`,
      image: `http://bench.test/projects/${slug}/compare/og?base=label%3Abaseline&head=label%3AManagedAsync&test=welch`,
      perTool: [
        {
          tool: "custom-go-loadtester",
          base: 5,
          head: 5,
          url: `http://bench.test/projects/${slug}/compare?base=label%3Abaseline&head=label%3AManagedAsync&test=welch&tool=custom-go-loadtester`,
        },
      ],
    });
    expect(result.markdown.split("\n")[0]).toBe("### 🔴 **Regressed**: head is worse than base");
    expect(result.markdown).toContain(`[open the comparison](${result.links.page})`);
    await expect(caller.compare.get({ ...input, head: "label:nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No runs match the head selector.",
    });
    await expect(caller.compare.get({ ...input, base: "label:nope", head: "branch:nope" })).rejects.toMatchObject({
      message: "No runs match the base and head selector.",
    });
    await expect(caller.compare.get({ ...input, base: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.compare.get({ ...input, project: uniqueSlug("missing") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // In the database's collation order, which differs between PGlite and PostgreSQL for mixed case.
    const choices = await caller.compare.choices({ project: slug });
    expect(choices.labels).toHaveLength(2);
    expect(choices.labels).toEqual(
      expect.arrayContaining([
        { value: "ManagedAsync", runs: 5, latestAt: "2026-11-11T04:00:00.000Z" },
        { value: "baseline", runs: 5, latestAt: "2026-11-10T04:00:00.000Z" },
      ]),
    );
    expect(choices.tools).toEqual([{ value: "custom-go-loadtester", runs: 10 }]);
    expect(choices.branches).toEqual([]);
  });
});
