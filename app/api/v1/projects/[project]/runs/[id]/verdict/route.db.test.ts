import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { PUT as pinBaseline } from "../../../baseline/route";
import { PATCH as patchRegression } from "../../../regressions/[id]/route";
import { GET as listRegressions } from "../../../regressions/route";
import { POST as uploadRun } from "../../route";
import { GET as getVerdict } from "./route";
import { runQueuedJobsNow } from "@/server/testing/jobs";

setUpRouteTestDatabase();

const BASE_P95 = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3, 20.1, 19.9, 20.2, 20.0];

function document(p95: number, hour: number) {
  return JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
  });
}

async function upload(slug: string, body: string, query: Record<string, string> = {}, accept?: string) {
  return call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
    method: "POST",
    body,
    query: { branch: "main", ...query },
    headers: accept ? { accept } : {},
  });
}

describe("the CI verdict", () => {
  it("an upload that regresses against its baseline fails, lists the regression, and says so first in Markdown", async () => {
    const slug = uniqueSlug("verdict");
    // The first five runs of a series have too little history to be judged: inconclusive, never pass.
    for (const [hour, p95] of BASE_P95.slice(0, 6).entries()) {
      const first = await (await upload(slug, document(p95, hour))).json();
      expect(first.outcome).toBe(hour < 5 ? "inconclusive" : "pass");
      expect(first.verdict).toBe(first.outcome);
    }
    // A PR run is compared with the history of its series on main.
    const slow = await upload(slug, document(26.4, 10), { branch: "feature/x" });
    expect(slow.status).toBe(201);
    const body = await slow.json();
    expect(body.outcome).toBe("fail");
    expect(body.comparison.baseline.runs).toHaveLength(6);
    expect(body.comparison.baseline.how).toBe("the 6 custom runs labelled nightly on main");
    expect(body.comparison.regressions).toEqual([expect.objectContaining({ endpoint: "GetListing", metric: "p95", test: "prediction" })]);
    expect(body.reasons[0]).toMatch(
      /^1 endpoint regressed against the baseline \(the 6 custom runs labelled nightly on main\); beyond the noise, largest first: GetListing p95 \+31\.\d% \(significant: p < 0\.001(, Holm-adjusted p < 0\.001)?\)$/,
    );

    const relaxed = await (await upload(slug, document(26.5, 11), { branch: "feature/x", fail_on: "none" })).json();
    expect(relaxed.outcome).toBe("pass");
    expect(relaxed.comparison.regressions.length).toBeGreaterThan(0);

    const markdown = await (await upload(slug, document(26.6, 12), {}, "text/markdown")).text();
    expect(markdown.split("\n")[0]).toBe("### ❌ Benchtrack: **FAIL**: 1 endpoint regressed");
    expect(markdown.split("\n")[2]).toMatch(/^\*\*Why:\*\* 1 endpoint regressed against the baseline \(the \d+ custom runs labelled nightly on main\); beyond the noise, largest first: GetListing p95 \+32\.\d% \(significant: p &lt; 0\.001(, Holm-adjusted p &lt; 0\.001)?\)\.$/);
    expect(markdown).toMatch(/\| GetListing \| p95 \| 20\.1 ms \| 26\.6 ms \| \+32\.\d%/);

    const later = await call(getVerdict, `/api/v1/projects/${slug}/runs/${body.id}/verdict`, { project: slug, id: body.id }, { token: null });
    const laterBody = await later.json();
    expect(laterBody).toMatchObject({ outcome: "fail", atUpload: { outcome: "fail", reasons: body.reasons } });
    const bad = await upload(slug, document(20, 13), { fail_on: "sometimes" });
    expect(bad.status).toBe(400);
  });

  it("an upload against a single earlier run is inconclusive, says why, and names the change it saw as not judged", async () => {
    const slug = uniqueSlug("verdict-short");
    await upload(slug, document(20.1, 0));
    const slow = await upload(slug, document(35.2, 1), { branch: "feature/x" }, "text/markdown");
    expect(slow.status).toBe(201);
    const lines = (await slow.text()).split("\n");
    expect(lines[0]).toBe("### ⚠️ Benchtrack: **INCONCLUSIVE**: too little history");
    expect(lines[2]).toMatch(/^\*\*Why:\*\* too little history: 1 vs 1, judged against the noise band of recent history: insufficient data: need 5 history points/);
    expect(lines).toContain("Largest changes seen, **not judged**: GetListing p95 +75.1% (20.1 ms → 35.2 ms) · GetListing p50 +75.1% (10.1 ms → 17.6 ms).");
  });

  it("a pinned baseline is used and named", async () => {
    const slug = uniqueSlug("pinned");
    const ids: string[] = [];
    for (const [hour, p95] of BASE_P95.slice(0, 3).entries()) ids.push((await (await upload(slug, document(p95, hour))).json()).id);
    const pinned = await call(pinBaseline, `/api/v1/projects/${slug}/baseline`, { project: slug }, {
      method: "PUT",
      body: JSON.stringify({ forLabel: "nightly", runIds: ids.slice(0, 2) }),
    });
    expect(pinned.status).toBe(200);
    const next = await (await upload(slug, document(20.0, 5))).json();
    expect(next.comparison.baseline.pinned).toBe(true);
    expect(next.comparison.baseline.runs.map((run: any) => run.id).sort()).toEqual(ids.slice(0, 2).sort());
  });
});

describe("the PR comment", () => {
  it("ends with the hidden marker of its project and series, which the JSON names too", async () => {
    const slug = uniqueSlug("comment");
    const first = await (await upload(slug, document(20.1, 0))).json();
    expect(first.comment).toMatchObject({ series: "custom:nightly", marker: `<!-- benchtrack:${slug}:custom:nightly -->` });
    const markdown = await (await upload(slug, document(20.2, 1), { branch: "feature/x" }, "text/markdown")).text();
    // One run of main to compare with: the gate says it cannot tell, and why.
    expect(markdown.split("\n")[0]).toBe("### ⚠️ Benchtrack: **INCONCLUSIVE**: too little history");
    expect(markdown.split("\n")[2]).toMatch(/^\*\*Why:\*\* too little history: 1 vs 1/);
    expect(markdown.trimEnd().split("\n").at(-1)).toBe(first.comment.marker);
    // The JSON's Markdown is the Markdown answer, for the same judgement.
    const verdict = await (await call(getVerdict, `/api/v1/projects/${slug}/runs/${first.id}/verdict`, { project: slug, id: first.id }, { token: null })).json();
    expect(verdict.comment.markdown).toBe(first.comment.markdown);
    expect(first.comment.markdown.endsWith(`${first.comment.marker}\n`)).toBe(true);
    // Another label is another series, so another comment.
    const other = await (await upload(slug, document(20.1, 2), { label: "soak --> <b>x</b>" })).json();
    expect(other.comment.marker).toBe(`<!-- benchtrack:${slug}:custom:soak%20--%3E%20%3Cb%3Ex%3C%2Fb%3E -->`);
  });

  it("stays short for a run of many endpoints: the table stops at 25 rows and links to the rest", async () => {
    const slug = uniqueSlug("comment-wide");
    const endpoints = Array.from({ length: 60 }, (_, index) => ({
      name: `GET /api/endpoint-${String(index).padStart(2, "0")}`,
      requests: 100,
      latency: { unit: "ms", p50: 5, p95: 9 },
    }));
    const answer = await (
      await upload(slug, JSON.stringify({ schema: "benchtrack/v1", label: "wide", endpoints }))
    ).json();
    const rows = answer.comment.markdown.split("\n").filter((line: string) => line.startsWith("| GET /api/endpoint-"));
    expect(rows).toHaveLength(25);
    expect(answer.comment.markdown).toContain(`…and 35 more endpoints: [open the run](${answer.url}).`);
    expect(answer.comment.markdown).toContain("| **All endpoints** |");
  });
});

describe("the baseline's load profile", () => {
  it("leaves out baseline runs driven with another load profile, and says so", async () => {
    const slug = uniqueSlug("profile");
    const driven = (vus: number, p95: number, hour: number) =>
      JSON.stringify({
        schema: "benchtrack/v1",
        label: "nightly",
        startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
        environment: { config: { vus } },
        endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
      });
    for (const [hour, p95] of [20.1, 19.8, 20.4, 19.9, 20.2].entries()) await upload(slug, driven(10, p95, hour));
    // Two runs at five times the load: much slower, and no evidence about a 10-VU run.
    await upload(slug, driven(50, 61.2, 5));
    await upload(slug, driven(50, 60.7, 6));
    const head = await (await upload(slug, driven(10, 20.2, 7), { branch: "feature/x" })).json();
    expect(head.comparison.baseline.runs).toHaveLength(5);
    expect(head.comparison.baseline.how).toBe(
      "the 5 custom runs labelled nightly on main at this run's load (vus 10); not the 2 runs at another load (vus 50), which measure something else",
    );
    expect(head.outcome).toBe("pass");
    const baseIds = head.comparison.baseline.runs.map((run: any) => run.id);
    expect(head.comparison.url).toContain(`?base=${baseIds.join(",")}&head=${head.id}&test=student`);
  });
});

describe("merge-base baselines", () => {
  const sha = (digit: string) => digit.repeat(40);
  const verdictOf = async (slug: string, id: string) =>
    (await call(getVerdict, `/api/v1/projects/${slug}/runs/${id}/verdict`, { project: slug, id }, { token: null })).json();

  it("judges a PR against the base branch's runs at its merge-base, else the last ones before it, and says which", async () => {
    const slug = uniqueSlug("merge-base");
    // Main at commit a…: five rounds at 20 ms. Then main moves on to commit b… and slows to 30 ms.
    const atBase = [];
    for (const [round, p95] of [20.1, 19.8, 20.4, 19.9, 20.2].entries()) {
      atBase.push((await (await upload(slug, document(p95, round), { commit: sha("a") })).json()).id);
    }
    for (const [round, p95] of [30.1, 29.8, 30.4, 29.9, 30.2].entries()) {
      await upload(slug, document(p95, 10 + round), { commit: sha("b") });
    }

    // Without its merge-base, a PR at 26 ms looks faster than main is now. (Each try is another commit:
    // uploads of one commit on one branch would be pooled as its rounds.)
    let commits = 0;
    const against = (query: Record<string, string>) =>
      upload(slug, document(26.3, 20), { branch: "feature/y", commit: sha(String(++commits)), ...query }).then((response) => response.json());
    const now = await against({});
    expect(now.comparison.baseline).toMatchObject({ basis: "recent", how: "the 10 custom runs labelled nightly on main" });
    expect(now.outcome).toBe("pass");

    // With it (a short SHA in any case names the commit), the PR is judged where it branched: slower.
    const pr = await against({ base_commit: "AAAAAAA" });
    expect(pr.comparison.baseline).toMatchObject({
      basis: "merge-base",
      how: "the 5 custom runs labelled nightly on main at and before the merge-base aaaaaaa",
    });
    expect(pr.comparison.baseline.runs.map((run: { id: string }) => run.id).sort()).toEqual([...atBase].sort());
    expect(pr.outcome).toBe("fail");
    // A later view of the verdict picks the same baseline: the merge-base is stored with the run.
    const later = await verdictOf(slug, pr.id);
    expect(later.comparison.baseline).toEqual(pr.comparison.baseline);

    // A merge-base main has no run at: its last runs before the commit's time, or before this run.
    const between = new Date(Date.UTC(2026, 10, 1, 7)).toISOString();
    const unknown = await against({ base_commit: "d".repeat(40), base_time: between });
    expect(unknown.comparison.baseline.basis).toBe("before-merge-base");
    expect(unknown.comparison.baseline.how).toBe(
      `the 5 custom runs labelled nightly on main (none at the merge-base ddddddd) before its commit time (${between})`,
    );
    expect(unknown.comparison.baseline.runs.map((run: { id: string }) => run.id).sort()).toEqual([...atBase].sort());
    const noTime = await against({ base_commit: "d".repeat(40) });
    expect(noTime.comparison.baseline.how).toBe("the 10 custom runs labelled nightly on main (none at the merge-base ddddddd) before this run (no base_time given)");
    expect(noTime.outcome).toBe("pass");

    // base_branch: a PR into a release branch is judged against that branch.
    await upload(slug, document(26.1, 30), { branch: "release/1.x", commit: sha("e") });
    const release = await against({ base_commit: "eeeeeee", base_branch: "release/1.x" });
    expect(release.comparison.baseline).toMatchObject({ basis: "merge-base", how: expect.stringContaining("on release/1.x at and before the merge-base eeeeeee") });
  });

  it("refuses a base_commit that is no SHA and a base_time that is no time, naming the parameter", async () => {
    const slug = uniqueSlug("merge-base-bad");
    for (const [query, path] of [
      [{ base_commit: "main" }, "query.base_commit"],
      [{ base_commit: "abc" }, "query.base_commit"],
      [{ base_commit: "aaaaaaa", base_time: "yesterday" }, "query.base_time"],
    ] as const) {
      const response = await upload(slug, document(20, 1), query);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    }
  });
});

describe("the regressions inbox API", () => {
  it("a step on main opens a regression that can be acknowledged", async () => {
    const slug = uniqueSlug("inbox");
    const series = [...BASE_P95, 26.1, 26.4, 25.9, 26.3, 26.0, 26.2, 26.5];
    for (const [hour, p95] of series.entries()) await upload(slug, document(p95, hour));
    // Detection is a job after each upload: run what the uploads queued, as a worker would.
    expect((await runQueuedJobsNow()).failed).toBe(0);
    const list = async (query: Record<string, string> = {}) =>
      (await call(listRegressions, `/api/v1/projects/${slug}/regressions`, { project: slug }, { query, token: null })).json();
    const open = await list({ status: "open", kind: "regression" });
    const p95 = open.find((regression: any) => regression.metric === "p95");
    expect(p95).toMatchObject({ endpoint: "GetListing", kind: "regression", status: "open" });
    expect(p95.before).toBeCloseTo(20.05, 1);
    expect(p95.after).toBeGreaterThan(26);
    expect(p95.compareUrl).toMatch(/\/compare\?base=/);

    const unauthorized = await call(patchRegression, `/api/v1/projects/${slug}/regressions/${p95.id}`, { project: slug, id: p95.id }, { method: "PATCH", body: '{"status":"acknowledged"}', token: null });
    expect(unauthorized.status).toBe(401);
    const acknowledged = await call(patchRegression, `/api/v1/projects/${slug}/regressions/${p95.id}`, { project: slug, id: p95.id }, { method: "PATCH", body: '{"status":"acknowledged","by":"sam"}' });
    expect((await acknowledged.json()).status).toBe("acknowledged");
    expect((await list({ status: "open", kind: "regression" })).some((regression: any) => regression.id === p95.id)).toBe(false);
  });
});
