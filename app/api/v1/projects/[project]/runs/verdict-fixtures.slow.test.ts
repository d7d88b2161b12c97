import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";

// The CI gate on real tool outputs: the bundled baseline rounds of k6, Locust and ghz are the same
// service measured three times, so uploading them in order under one label on main must never fail —
// and with 1 to 3 runs of history it cannot pass either: it says it has too little history. The
// ManagedAsync rounds (a real slowdown) of one commit uploaded on a PR branch are pooled as rounds:
// inconclusive until there are 6 runs in all, then a fail. Runs on the embedded database and, with
// DATABASE_URL, PostgreSQL. Every answer's PR comment leads with a headline short enough for a PR
// timeline and a check's title, whatever it says.
const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const TOOLS = {
  k6: { folder: "k6", files: ["summary.json"] },
  locust: { folder: "locust", files: ["locust_stats.csv", "locust_stats_history.csv", "locust_failures.csv", "locust_exceptions.csv"] },
  ghz: { folder: "ghz", files: ["GetListing.json", "ListListings.json", "SearchListings.json", "CheckStockAvailability.json", "GetAllCategories.json"] },
} as const;
type Tool = keyof typeof TOOLS;

/** A PR comment's first line fits a PR timeline and a check's title; the reasons follow in full. */
const HEADLINE_MAX_CHARS = 100;
function expectShortHeadline(answer: { outcome: string; reasons: string[]; comment: { markdown: string } }) {
  const [headline, , why] = answer.comment.markdown.split("\n");
  expect(headline).toMatch(new RegExp(`^### \\S+ Benchtrack: \\*\\*${answer.outcome.toUpperCase()}\\*\\*`));
  expect(headline?.length).toBeLessThanOrEqual(HEADLINE_MAX_CHARS);
  if (answer.reasons.length === 1) expect(why).toMatch(/^\*\*Why:\*\* /);
  if (answer.reasons.length > 1) expect(why).toBe("**Why:**");
  return headline;
}

function body(tool: Tool, variant: "baseline" | "managedasync", round: number): BodyInit {
  const { folder, files } = TOOLS[tool];
  const read = (name: string) => readFileSync(path.join(FIXTURES, folder, variant, `round${round}`, name));
  if (files.length === 1) return read(files[0]);
  const form = new FormData();
  for (const name of files) form.append(name, new Blob([read(name)]), name);
  return form;
}

setUpRouteTestDatabase();

describe("the CI verdict on the bundled real rounds", () => {
  const slug = uniqueSlug("gate");
  let hour = 0;
  const upload = async (tool: Tool, variant: "baseline" | "managedasync", round: number, branch: string, commit?: string) => {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: body(tool, variant, round),
      query: {
        label: "nightly",
        branch,
        round: String(round),
        started_at: new Date(Date.UTC(2026, 0, 1, hour++)).toISOString(),
        ...(commit ? { commit } : {}),
      },
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as {
      outcome: string;
      reasons: string[];
      inconclusive: { kind: string; reason: string } | null;
      comparison: { baseline: { how: string; runs: unknown[] }; headRuns: string[]; regressions: { endpoint: string | null; metric: string }[] };
      comment: { markdown: string };
    };
    expectShortHeadline(answer);
    return answer;
  };

  it("never fails an unchanged baseline round, and says it has too little history to pass one", async () => {
    for (const round of [1, 2, 3]) {
      for (const tool of Object.keys(TOOLS) as Tool[]) {
        const answer = await upload(tool, "baseline", round, "main");
        expect({ tool, round, outcome: answer.outcome, kind: answer.inconclusive?.kind }).toEqual({ tool, round, outcome: "inconclusive", kind: "too-little-history" });
        expect(answer.comparison.baseline.runs).toHaveLength(round - 1);
        expect(answer.comparison.baseline.how).toContain(`${tool} run`);
        expect(answer.comment.markdown.split("\n")[0]).toBe("### ⚠️ Benchtrack: **INCONCLUSIVE**: too little history");
      }
    }
  }, 120_000);

  it("pools each tool's ManagedAsync rounds of one commit on a PR branch: inconclusive until 6 runs in all, then it decides", async () => {
    for (const tool of Object.keys(TOOLS) as Tool[]) {
      const commit = tool === "k6" ? "a1b2c3d4" : tool === "locust" ? "b2c3d4e5" : "c3d4e5f6";
      for (const round of [1, 2, 3]) {
        const answer = await upload(tool, "managedasync", round, `feature/${tool}`, commit);
        expect(answer.comparison.baseline.runs).toHaveLength(3);
        expect(answer.comparison.headRuns).toHaveLength(round);
        if (round < 3) {
          // k6's own thresholds fail it anyway; the regression check cannot judge yet, and says what would.
          expect({ tool, round, outcome: answer.outcome }).toEqual({ tool, round, outcome: tool === "k6" ? "fail" : "inconclusive" });
          expect(answer.inconclusive?.reason).toMatch(new RegExp(`need 6 runs in all .*have 3 base \\+ ${round} head\\): ${3 - round} more rounds? of the head`));
        } else if (tool === "locust") {
          // Locust's runs hold 23 to 126 requests per endpoint, written in whole ms: p50/p90, 3 rounds
          // against 3, are worse and significant alone but not once corrected over the endpoints. The
          // gate says the slowdown is likely, not established, and how many rounds would establish it.
          expect(answer.outcome).toBe("inconclusive");
          expect(answer.inconclusive).toMatchObject({ kind: "undecided" });
          expect(answer.comment.markdown.split("\n")[0]).toBe("### ⚠️ Benchtrack: **INCONCLUSIVE**: undecided");
          expect(answer.inconclusive?.reason).toMatch(/^GetListing p90 \(and 2 other endpoints: [^)]*\): undecided: \+55\.6% is worse and significant alone .* about \d+ more rounds of the head/);
        } else {
          expect({ tool, outcome: answer.outcome }).toEqual({ tool, outcome: "fail" });
          expect(answer.comparison.regressions.length).toBeGreaterThan(0);
          // Several endpoints regressed (and k6's thresholds failed): counted in the headline, named below.
          const regressed = `${answer.comparison.regressions.length} endpoint${answer.comparison.regressions.length === 1 ? "" : "s"} regressed`;
          expect(answer.comment.markdown.split("\n")[0]).toBe(
            `### ❌ Benchtrack: **FAIL**: ${tool === "k6" ? "2 of 4 tool thresholds failed · " : ""}${regressed}`,
          );
          expect(answer.reasons).toContainEqual(
            expect.stringMatching(new RegExp(`regressed against the baseline \\(the 3 ${tool} runs labelled nightly on main; judged with 2 earlier rounds of commit ${commit.slice(0, 7)}\\)`)),
          );
        }
      }
    }
  }, 180_000);

  it("keeps gRPC GetListing (ghz) and HTTP GetListing (Locust) as two endpoints, each with its own trend", async () => {
    const caller = createCaller({ db: await getDb() });
    // Every run of each: the 3 baseline runs on main and the 3 ManagedAsync rounds on the PR branch.
    const grpc = await caller.endpoint.trends({ project: slug, endpoint: "GetListing", protocol: "grpc", branch: ["all"] });
    const http = await caller.endpoint.trends({ project: slug, endpoint: "GetListing", protocol: "http", branch: ["all"] });
    // By default a trend draws the default branch alone.
    expect((await caller.endpoint.trends({ project: slug, endpoint: "GetListing", protocol: "grpc" })).totalRuns).toBe(3);
    expect(grpc.endpoint.protocol).toBe("grpc");
    expect(http.endpoint.protocol).toBe("http");
    expect(grpc.tool).toBe("ghz");
    expect(http.tool).toBe("locust");
    expect(grpc.totalRuns).toBe(6);
    expect(http.totalRuns).toBe(6);
    expect(grpc.endpoints.filter((endpoint) => endpoint.name === "GetListing")).toEqual([
      { name: "GetListing", protocol: "grpc" },
      { name: "GetListing", protocol: "http" },
    ]);
    // Without a protocol: the endpoint of that name measured last (the ghz ManagedAsync round came last).
    expect((await caller.endpoint.trends({ project: slug, endpoint: "GetListing" })).endpoint.protocol).toBe("grpc");
    await expect(caller.endpoint.trends({ project: slug, endpoint: "GetListing", protocol: "websocket" })).rejects.toThrow(
      /GetListing" \(websocket\)/,
    );
  });
});

describe("the tool's own verdict", () => {
  const post = (slug: string, query: Record<string, string>, accept?: string) =>
    call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: body("k6", "managedasync", 1),
      query,
      headers: accept ? { accept } : {},
    });

  it("fails a k6 run whose thresholds failed, says which first, and leads the Markdown with them", async () => {
    const slug = uniqueSlug("thresholds");
    const response = await post(slug, {});
    const answer = await response.json();
    expect(answer.outcome).toBe("fail");
    expect(answer.failOn).toContain("thresholds");
    expect(answer.thresholds.evaluated).toBe(4);
    expect(answer.thresholds.failed).toEqual([
      { metric: "http_req_duration", expression: "p(95)<35" },
      { metric: "http_req_duration", expression: "p(99)<60" },
    ]);
    expect(answer.reasons[0]).toBe("2 of 4 k6 thresholds failed: http_req_duration p(95)<35, http_req_duration p(99)<60");

    const markdown = await (await post(slug, {}, "text/markdown")).text();
    const lines = markdown.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "### ❌ Benchtrack: **FAIL**: 2 of 4 tool thresholds failed",
      "",
      "**Why:** 2 of 4 k6 thresholds failed: http\\_req\\_duration p(95)&lt;35, http\\_req\\_duration p(99)&lt;60.",
      "",
    ]);
    expect(markdown).not.toContain("**Tool thresholds failed**");
    expectShortHeadline({ ...answer, comment: { markdown } });
    // When fail_on leaves thresholds out, they are no reason, and are listed apart.
    const relaxed = await (await post(uniqueSlug("thresholds"), { fail_on: "regression" }, "text/markdown")).text();
    expect(relaxed).toContain("**Tool thresholds failed** (2 of 4): `p(95)<35` on `http_req_duration`, `p(99)<60` on `http_req_duration`.");
  });

  it("does not fail the same run when fail_on leaves thresholds out, nor a run whose thresholds all passed", async () => {
    const slug = uniqueSlug("thresholds");
    // Nothing failed; with no earlier run the regression check cannot judge: inconclusive, not pass.
    const relaxed = await (await post(slug, { fail_on: "regression,sla" })).json();
    expect(relaxed).toMatchObject({ outcome: "inconclusive", failOn: ["regression", "sla"], inconclusive: { kind: "too-little-history" } });
    const passing = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: body("k6", "baseline", 1) });
    expect(await passing.json()).toMatchObject({ outcome: "inconclusive", thresholds: { evaluated: 4, failed: [] } });
    const unjudged = await (await post(slug, { fail_on: "sla" })).json();
    expect(unjudged).toMatchObject({ outcome: "pass", reasons: [] });
    expect(expectShortHeadline(unjudged)).toBe("### ✅ Benchtrack: **PASS**");
  });
});

describe("the verdict kept with the run", () => {
  it("is what the upload answered, for the history's outcome column; a replay does not change it", async () => {
    const slug = uniqueSlug("kept");
    const post = (query: Record<string, string> = {}) =>
      call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: body("k6", "managedasync", 1), query, headers: { "idempotency-key": "k1" } });
    const answer = await (await post()).json();
    const caller = createCaller({ db: await getDb() });
    const history = await caller.history.list({ project: slug, filters: { attributes: {} } });
    expect(history.runs[0]).toMatchObject({ id: answer.id, outcome: "fail", outcomeReasons: answer.reasons });
    const replay = await post({ fail_on: "none" });
    expect(replay.status).toBe(200);
    const again = await caller.history.list({ project: slug, filters: { attributes: {} } });
    expect(again.runs[0]).toMatchObject({ outcome: "fail" });
  });
});
