import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSeededRandom } from "@/server/domain/stats/random";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as compare } from "../compare/route";
import { PATCH as patchRegression } from "../regressions/[id]/route";
import { GET as listRegressions } from "../regressions/route";
import { PUT as putPolicy } from "../sla/route";
import { GET as getVerdict } from "./[id]/verdict/route";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { POST as uploadRun } from "./route";

// The CI gate through the upload API, on the embedded database and (with DATABASE_URL) PostgreSQL: the
// three cases users met (docs/statistics.md, "The CI gate"): a 30% step on main, Locust's whole
// milliseconds, and a branch run against a single run of main.
const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");

setUpRouteTestDatabase();

interface Answer {
  id: string;
  outcome: "pass" | "fail" | "inconclusive";
  reasons: string[];
  notes: string[];
  inconclusive: { kind: string; reason: string } | null;
  comparison: {
    verdict: string;
    url: string | null;
    baseline: { how: string; runs: { id: string }[]; openRegression: string | null };
    regressions: { endpoint: string | null; metric: string; deltaPct: number }[];
  };
  comment: { markdown: string };
}

async function upload(slug: string, body: BodyInit, query: Record<string, string>): Promise<Answer> {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query });
  expect(response.status).toBe(201);
  return (await response.json()) as Answer;
}

describe("a 30% step on main (60 nightly runs, one endpoint, 10,000 requests, p95 noise CV 5%)", () => {
  const slug = uniqueSlug("step");
  const random = createSeededRandom(2026);
  let hour = 0;
  const nightly = (factor: number) => {
    const p95 = 100 * factor * (1 + random.gaussian(0, 0.05));
    const document = {
      schema: "benchtrack/v1",
      tool: "loadgen",
      label: "nightly",
      startedAt: new Date(Date.UTC(2026, 0, 1, hour++)).toISOString(),
      endpoints: [{ name: "GET /api/listings/:id", requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 3, p95, p99: p95 * 1.4 } }],
    };
    return upload(slug, JSON.stringify(document), { branch: "main" });
  };

  it("fails at the step and keeps failing, naming why, until the regression is acknowledged; then the new level is the baseline", async () => {
    const flat: Answer[] = [];
    for (let run = 0; run < 60; run++) flat.push(await nightly(1));
    expect(flat.slice(0, 5).every((answer) => answer.outcome === "inconclusive")).toBe(true);
    expect(flat[5]!.outcome).not.toBe("inconclusive");
    // α = 0.01 per upload: a false alarm among 55 judged flat runs is possible, not more than a couple.
    expect(flat.filter((answer) => answer.outcome === "fail").length).toBeLessThanOrEqual(2);
    expect(flat.at(-1)!.comparison.baseline.runs.length).toBe(30);

    const step = await nightly(1.3);
    expect(step.outcome).toBe("fail");
    expect(step.comparison.regressions).toEqual([expect.objectContaining({ endpoint: "GET /api/listings/:id", metric: "p95" })]);
    expect(step.comparison.regressions[0]!.deltaPct).toBeGreaterThan(20);

    // The step is not absorbed: each later run is judged against the level before it.
    for (let run = 0; run < 5; run++) {
      const after = await nightly(1.3);
      expect(after.outcome).toBe("fail");
      expect(after.comparison.baseline.how).toMatch(new RegExp(`; ${run + 1} runs? that failed the gate left out until triaged$`));
    }
    // Change-point detection (a background job) confirms the step as an open regression…
    expect((await runQueuedJobsNow()).failed).toBe(0);
    const open = await (await call(listRegressions, `/api/v1/projects/${slug}/regressions`, { project: slug }, { query: { status: "open", kind: "regression" }, token: null })).json();
    const p95 = open.find((regression: { metric: string }) => regression.metric === "p95");
    expect(p95).toBeDefined();
    // …which later runs name, still judged against the level before it.
    const named = await nightly(1.3);
    expect(named.outcome).toBe("fail");
    expect(named.comparison.baseline.openRegression).toMatch(/^GET \/api\/listings\/:id p\d+ \+\d+\.\d% from the run of 2026-01-03/);
    expect(named.notes.at(-1)).toMatch(/^open regression on this series: .*until its incident is accepted/);

    // Acknowledged: the new level is the baseline, and a run at it passes.
    for (const regression of open) {
      const response = await call(patchRegression, `/api/v1/projects/${slug}/regressions/${regression.id}`, { project: slug, id: regression.id }, {
        method: "PATCH",
        body: JSON.stringify({ status: "acknowledged", by: "sam" }),
      });
      expect(response.status).toBe(200);
    }
    const accepted = await nightly(1.3);
    expect(accepted.outcome).toBe("pass");
    expect(accepted.comparison.baseline.how).toMatch(/^the 7 loadgen runs labelled nightly on main since the accepted regression /);
  }, 180_000);
});

describe("Locust's whole milliseconds", () => {
  const locustJson = (round: number) => readFileSync(path.join(FIXTURES, "locust", "baseline", `round${round}`, "locust.json"));

  it("never fails unchanged rounds; a p50 that moves by one written step (9 → 10 ms) is no change", async () => {
    const slug = uniqueSlug("locust-steps");
    let hour = 0;
    const at = () => new Date(Date.UTC(2026, 0, 1, hour++)).toISOString();
    // Rounds 1–3 under one label on main: too little history to judge (the first version failed round 3
    // on the aggregate p50, 9 → 10 ms, "+11.1%, p = 0", against two runs that both read 9 ms).
    const rounds = [1, 2, 3].map(() => 0);
    for (const [index] of rounds.entries()) {
      const answer = await upload(slug, locustJson(index + 1), { label: "baseline", branch: "main", started_at: at() });
      expect(answer.outcome).toBe("inconclusive");
      expect(answer.inconclusive?.kind).toBe("too-little-history");
    }
    // With history enough (the same real rounds uploaded again as later runs), round 3 is judged: pass.
    for (const round of [1, 2, 1]) await upload(slug, locustJson(round), { label: "baseline", branch: "main", started_at: at() });
    const judged = await upload(slug, locustJson(3), { label: "baseline", branch: "main", started_at: at() });
    expect(judged.outcome).toBe("pass");
    const comparison = await (await call(compare, judged.comparison.url!.replace(/^https?:\/\/[^/]+\/projects\/[^/]+\/compare/, `/api/v1/projects/${slug}/compare`), { project: slug }, { token: null })).json();
    const p50 = comparison.aggregate.metrics.find((metric: { metric: string }) => metric.metric === "p50");
    expect(p50).toMatchObject({ resolution: 1, verdict: "unchanged" });
    if (p50.head.mean - p50.base.mean <= 1) expect(p50.reason).toMatch(/within the tool's resolution \(it writes p50 in steps of 1 ms\)/);
  }, 120_000);
});

describe("a k6 run on a feature branch against a single run of main", () => {
  it("is inconclusive, says why in the answer, the comment and the comparison, and never reads as PASS", async () => {
    const slug = uniqueSlug("branch-ndjson");
    // Main's run: the --summary-export of the k6 run whose --out json the branch uploads (same load: 5 VUs).
    const main = await upload(slug, readFileSync(path.join(FIXTURES, "k6", "baseline", "short-ndjson", "summary.json")), {
      label: "nightly",
      branch: "main",
      commit: "9f1c2e7aa",
      started_at: "2026-01-01T00:00:00Z",
    });
    expect(main.outcome).toBe("inconclusive");
    for (const base_commit of [undefined, "9f1c2e7"]) {
      const branch = await upload(slug, readFileSync(path.join(FIXTURES, "k6", "baseline", "short-ndjson", "points.ndjson")), {
        label: "nightly",
        branch: "feature/cache",
        commit: base_commit ? "abcdef1" : "abcdef0",
        started_at: "2026-01-01T02:00:00Z",
        fail_on: "regression",
        ...(base_commit ? { base_commit } : {}),
      });
      expect(branch.outcome).toBe("inconclusive");
      expect(branch.comparison.verdict).toBe("inconclusive");
      expect(branch.comparison.baseline.runs.map((run) => run.id)).toEqual([main.id]);
      expect(branch.inconclusive).toMatchObject({ kind: "too-little-history" });
      expect(branch.reasons[0]).toMatch(/^too little history: 1 vs 1, judged against the noise band of recent history: insufficient data: need 5 history points/);
      expect(branch.comment.markdown.split("\n")[0]).toBe("### ⚠️ Benchtrack: **INCONCLUSIVE**: too little history");
      expect(branch.comment.markdown.split("\n")[2]).toMatch(/^\*\*Why:\*\* too little history: 1 vs 1, /);
      expect(branch.comment.markdown).not.toMatch(/PASS/);
    }
  }, 60_000);
});

describe("one source of truth: what the upload answered, and what the gate says now", () => {
  it("keeps the upload's outcome for the history, and shows 'now' beside it after the SLA policy changed", async () => {
    const slug = uniqueSlug("now");
    const document = (p95: number, hour: number) =>
      JSON.stringify({
        schema: "benchtrack/v1",
        label: "nightly",
        startedAt: new Date(Date.UTC(2026, 0, 1, hour)).toISOString(),
        endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
      });
    for (const [hour, p95] of [20.1, 19.8, 20.4, 19.9, 20.2].entries()) await upload(slug, document(p95, hour), { branch: "main" });
    const judged = await upload(slug, document(20.0, 5), { branch: "main" });
    expect(judged.outcome).toBe("pass");

    // A policy the run does not meet, saved after the upload.
    const policy = { targets: [{ metric: "p95", op: "<", threshold: 15, unit: "ms" }] };
    expect((await call(putPolicy, `/api/v1/projects/${slug}/sla`, { project: slug }, { method: "PUT", body: JSON.stringify(policy) })).status).toBe(200);

    const now = await (await call(getVerdict, `/api/v1/projects/${slug}/runs/${judged.id}/verdict`, { project: slug, id: judged.id }, { token: null })).json();
    expect(now).toMatchObject({ outcome: "fail", atUpload: { outcome: "pass", reasons: [] } });
    expect(now.reasons).toEqual([expect.stringMatching(/^SLA grade F: 1 of 1 checks failed$/)]);
    const caller = createCaller({ db: await getDb() });
    const history = await caller.history.list({ project: slug, filters: { attributes: {} } });
    expect(history.runs[0]).toMatchObject({ id: judged.id, outcome: "pass" });
    const page = await caller.run.get({ project: slug, id: judged.id });
    expect(page.gate).toMatchObject({ outcome: "fail", atUpload: { outcome: "pass" } });
  }, 60_000);
});
