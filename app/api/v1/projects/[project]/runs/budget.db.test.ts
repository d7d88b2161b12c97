import { describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase, TEST_ADMIN_TOKEN } from "@/server/testing/rest-client";
import { PUT as putSla } from "../sla/route";
import { GET as getRun } from "./[id]/route";
import { GET as getVerdict } from "./[id]/verdict/route";
import { POST as uploadRun } from "./route";

// Budgets as code (docs/ci.md, "Budgets as code"): a benchtrack.json sent with an upload judges that run
// (its SLA grade and its gate) over the project's Settings, is kept with it, and the run says where it
// came from; a run uploaded without one is judged by Settings. A malformed budget is a 400 naming the
// file's JSON path, and nothing is stored. On the embedded database and, with DATABASE_URL, PostgreSQL.
setUpRouteTestDatabase();

const slug = uniqueSlug("budget");
const COMMIT = "3f2a9c1e07b4d5e6f708192a3b4c5d6e7f809102";

type Answer = {
  id: string;
  outcome: string;
  reasons: string[];
  notes: string[];
  grade: { letter: string | null; passed: number; evaluated: number; checks: { threshold: number }[] } | null;
  budget: {
    source: string;
    path: string | null;
    commit: string | null;
    inconclusive: string | null;
    description: string;
  };
  error?: { code: string; message: string; details: { path: string; message: string }[] };
};

function runFile(p95: number): string {
  return JSON.stringify({
    schema: "benchtrack/v1",
    tool: "k6",
    endpoints: [
      { name: "GetListing", requests: 5000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95, p99: p95 * 1.2 } },
    ],
  });
}

function budgetHeaders(budget: unknown, path = "benchtrack.json"): Record<string, string> {
  return {
    "Benchtrack-Budget": Buffer.from(JSON.stringify(budget)).toString("base64"),
    "Benchtrack-Budget-Path": path,
    "Benchtrack-Budget-Commit": COMMIT,
  };
}

async function upload(p95: number, query: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await call(
    uploadRun,
    `/api/v1/projects/${slug}/runs`,
    { project: slug },
    { method: "POST", body: runFile(p95), query, headers },
  );
  return { status: response.status, json: (await response.json()) as Answer };
}

const runCount = async () => (await getDb()).run.count({ where: { project: { slug } } });

describe("a benchtrack.json sent with an upload", () => {
  it("judges that run over Settings, is kept with it, and later runs without one are judged by Settings", async () => {
    // History on main: six runs near 100 ms.
    for (const [index, p95] of [100, 101, 99, 100, 102, 98].entries()) {
      expect((await upload(p95, { label: "nightly", branch: "main", commit: `aaaaaaa${index}` })).status).toBe(201);
    }
    // Settings: p95 ≤ 50 ms (every run fails it) and the default 5% minimum effect.
    const sla = await call(
      putSla,
      `/api/v1/projects/${slug}/sla`,
      { project: slug },
      {
        method: "PUT",
        body: JSON.stringify({ targets: [{ metric: "p95", op: "<=", threshold: 50 }] }),
        headers: { "content-type": "application/json" },
      },
    );
    expect(sla.status).toBe(200);

    // A pull request 30% slower, without a budget: Settings judge it.
    const bySettings = await upload(130, { label: "nightly", branch: "feature", commit: "bbbbbbb1" });
    expect(bySettings.status).toBe(201);
    expect(bySettings.json.budget).toEqual({
      source: "settings",
      path: null,
      commit: null,
      inconclusive: null,
      description: "Budget from Settings",
    });
    expect(bySettings.json.outcome).toBe("fail");
    expect(bySettings.json.reasons[0]).toMatch(/^1 endpoint regressed .*GetListing p95 \+30\.0%/);
    expect(bySettings.json.grade?.checks[0]?.threshold).toBe(50);
    expect(bySettings.json.grade?.passed).toBe(0);

    // The same run with a budget: SLA p95 ≤ 200 ms, and a 50% minimum effect for this project's nightly runs.
    const budget = {
      sla: { targets: [{ metric: "p95", op: "<=", threshold: 0.2, unit: "s" }] },
      gate: { minEffectPct: 5, inconclusive: "fail" },
      projects: { [slug]: { labels: { nightly: { gate: { minEffectPct: 50 } } } } },
      labels: { smoke: { sla: { targets: [] } } },
    };
    const byFile = await upload(
      130,
      { label: "nightly", branch: "feature", commit: "bbbbbbb2" },
      budgetHeaders(budget, "perf/benchtrack.json"),
    );
    expect(byFile.status, JSON.stringify(byFile.json)).toBe(201);
    expect(byFile.json.budget).toEqual({
      source: "file",
      path: "perf/benchtrack.json",
      commit: COMMIT,
      inconclusive: "fail",
      description: "Budget from perf/benchtrack.json at 3f2a9c1",
    });
    expect(byFile.json.grade?.checks[0]?.threshold).toBe(200);
    expect(byFile.json.grade?.passed).toBe(byFile.json.grade?.evaluated);
    expect(byFile.json.outcome).toBe("pass");
    expect(byFile.json.reasons).toEqual([]);
    // Judged with the budget's 50% minimum effect: the 30% slowdown is below it.
    expect(byFile.json.notes[0]).toMatch(/catches slowdowns of about 50% or more/);

    // Kept with the run: read again, its grade and gate are the budget's, not the Settings'.
    const stored = await (
      await getDb()
    ).run.findUniqueOrThrow({ where: { id: byFile.json.id }, select: { budget: true } });
    expect(stored.budget).toEqual({
      source: { path: "perf/benchtrack.json", commit: COMMIT },
      sla: { targets: [{ metric: "p95", op: "<=", threshold: 0.2, unit: "s", scope: "endpoints", weight: 1 }] },
      gate: { minEffectPct: 50, inconclusive: "fail" },
    });
    const document = (await (
      await call(getRun, `/api/v1/projects/${slug}/runs/${byFile.json.id}`, { project: slug, id: byFile.json.id })
    ).json()) as Answer;
    expect(document.grade?.passed).toBe(1);
    const verdict = (await (
      await call(getVerdict, `/api/v1/projects/${slug}/runs/${byFile.json.id}/verdict`, {
        project: slug,
        id: byFile.json.id,
      })
    ).json()) as Answer;
    expect([verdict.outcome, verdict.budget.description]).toEqual([
      "pass",
      "Budget from perf/benchtrack.json at 3f2a9c1",
    ]);
    const page = await createCaller({ db: await getDb(), authorization: `Bearer ${TEST_ADMIN_TOKEN}` }).run.get({
      project: slug,
      id: byFile.json.id,
    });
    expect(page.gate.budget.description).toBe("Budget from perf/benchtrack.json at 3f2a9c1");
    expect(page.gate.outcome).toBe("pass");

    // The next run without a file: Settings again (nothing of the file stuck to the project).
    const after = await upload(130, { label: "nightly", branch: "feature", commit: "bbbbbbb3" });
    expect([after.json.budget.source, after.json.outcome, after.json.grade?.passed]).toEqual(["settings", "fail", 0]);
    // And the Settings-judged run of before is still judged by Settings.
    const earlier = (await (
      await call(getVerdict, `/api/v1/projects/${slug}/runs/${bySettings.json.id}/verdict`, {
        project: slug,
        id: bySettings.json.id,
      })
    ).json()) as Answer;
    expect([earlier.outcome, earlier.budget.source]).toEqual(["fail", "settings"]);
  });

  it("that sets nothing for the run's project and label leaves it to Settings", async () => {
    const answer = await upload(
      100,
      { label: "other", branch: "feature", commit: "ccccccc1" },
      budgetHeaders({ labels: { smoke: { gate: { alpha: 0.05 } } } }),
    );
    expect(answer.status).toBe(201);
    expect(answer.json.budget.source).toBe("settings");
  });

  it("is refused when malformed, naming the JSON path, with nothing stored", async () => {
    const before = await runCount();
    const cases: [Record<string, string>, number, string][] = [
      [
        budgetHeaders({ sla: { targets: [{ metric: "p95", op: "<=", threshold: "fast" }] } }),
        400,
        "benchtrack.json: sla.targets[0].threshold",
      ],
      [budgetHeaders({ gate: { minEffect: 5 } }), 400, "benchtrack.json: gate"],
      [
        budgetHeaders({ projects: { [slug]: { labels: { nightly: { gate: { alpha: 2 } } } } } }),
        400,
        `benchtrack.json: projects.${slug}.labels.nightly.gate.alpha`,
      ],
      [{ "Benchtrack-Budget": "not base64!" }, 400, "header.benchtrack-budget"],
      [{ "Benchtrack-Budget": Buffer.from("{").toString("base64") }, 400, "benchtrack.json"],
      [{ ...budgetHeaders({}), "Benchtrack-Budget-Commit": "HEAD" }, 400, "header.benchtrack-budget-commit"],
      [
        { "Benchtrack-Budget": Buffer.from(JSON.stringify({ $schema: "x".repeat(9000) })).toString("base64") },
        413,
        "header.benchtrack-budget",
      ],
    ];
    for (const [headers, status, path] of cases) {
      const answer = await upload(100, { label: "nightly", branch: "feature" }, headers);
      expect(answer.status, JSON.stringify(answer.json)).toBe(status);
      expect(answer.json.error?.details.map((detail) => detail.path)).toContain(path);
    }
    expect(await runCount()).toBe(before);
  });

  it("is part of what an Idempotency-Key replays: another budget under the same key is a conflict", async () => {
    const key = { "Idempotency-Key": `budget-${slug}` };
    const first = await upload(
      100,
      { label: "nightly", branch: "feature", commit: "ddddddd1" },
      { ...key, ...budgetHeaders({ gate: { alpha: 0.05 } }) },
    );
    const replay = await upload(
      100,
      { label: "nightly", branch: "feature", commit: "ddddddd1" },
      { ...key, ...budgetHeaders({ gate: { alpha: 0.05 } }) },
    );
    const other = await upload(
      100,
      { label: "nightly", branch: "feature", commit: "ddddddd1" },
      { ...key, ...budgetHeaders({ gate: { alpha: 0.1 } }) },
    );
    expect([first.status, replay.status, other.status]).toEqual([201, 200, 409]);
    expect(replay.json.budget.source).toBe("file");
  });
});
