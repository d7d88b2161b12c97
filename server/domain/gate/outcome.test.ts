import { describe, expect, it } from "vitest";
import { compareRuns } from "../compare/compare-runs";
import type { ComparableRun } from "../compare/compare-runs";
import { createSeededRandom } from "../stats/random";
import type { GateInput } from "./outcome";
import { decideOutcome } from "./outcome";
import { comparableRun, p95Endpoints } from "../compare/comparable-run.fixture";

function runOf(id: string, p95s: readonly number[], requests = 5000): ComparableRun {
  return comparableRun(id, {
    tool: "custom",
    endpoints: p95Endpoints(Object.fromEntries(p95s.map((p95, index) => [`E${index + 1}`, p95])), requests),
  });
}

const random = createSeededRandom(7);
const history = Array.from({ length: 20 }, (_, index) =>
  runOf(
    `b${index}`,
    [20, 40].map((level) => level * (1 + random.gaussian(0, 0.03))),
  ),
);
const input = (overrides: Partial<GateInput>): GateInput => ({
  comparison: null,
  failOn: ["regression", "sla", "thresholds"],
  grade: null,
  thresholds: { evaluated: 0, failed: [] },
  tool: "custom",
  baselineHow: "the 20 custom runs labelled nightly on main",
  openRegression: null,
  ...overrides,
});

describe("decideOutcome", () => {
  it("fails when an endpoint's gate metric regressed, naming it", () => {
    const decision = decideOutcome(input({ comparison: compareRuns(history, [runOf("h", [20, 52])]) }));
    expect(decision.outcome).toBe("fail");
    expect(decision.reasons).toEqual([
      expect.stringMatching(
        /^1 endpoint regressed against the baseline \(the 20 custom runs labelled nightly on main\); beyond the noise, largest first: E2 p95 \+3\d\.\d% \(significant: p < 0\.001, Holm-adjusted p < 0\.001\)$/,
      ),
    ]);
    expect(decision.regressions.map(({ endpoint, metric }) => `${endpoint} ${metric.metric}`)).toEqual(["E2 p95"]);
    expect(decision.summary).toBe("1 endpoint regressed");
  });

  it("passes an unchanged run, and says how large a slowdown it could have caught", () => {
    const decision = decideOutcome(input({ comparison: compareRuns(history, [runOf("h", [20.2, 39.8])]) }));
    expect(decision).toMatchObject({ outcome: "pass", reasons: [], summary: "", inconclusive: null });
    expect(decision.notes).toEqual([
      expect.stringMatching(
        /^no endpoint slower beyond the noise; at this history's noise the check catches slowdowns of about \d+(–\d+)?% or more \(80% of the time\)$/,
      ),
    ]);
  });

  it("is inconclusive — never a pass — when no endpoint could be judged, saying why and what would decide", () => {
    const short = decideOutcome(input({ comparison: compareRuns(history.slice(0, 1), [runOf("h", [40, 80])]) }));
    expect(short.outcome).toBe("inconclusive");
    expect(short.inconclusive?.kind).toBe("too-little-history");
    expect(short.reasons[0]).toMatch(
      /^too little history: 1 vs 1, judged against the noise band of recent history: insufficient data/,
    );
    const none = decideOutcome(
      input({ comparison: null, baselineHow: "no earlier custom runs labelled nightly on main" }),
    );
    expect(none).toMatchObject({
      outcome: "inconclusive",
      reasons: ["too little history: no earlier custom runs labelled nightly on main"],
      summary: "too little history",
      inconclusive: { kind: "too-little-history" },
    });
    // 10 requests support no percentile, and these runs report no mean to fall back on.
    const fewRequests = decideOutcome(input({ comparison: compareRuns(history, [runOf("h", [20, 40], 10)]) }));
    expect(fewRequests).toMatchObject({
      outcome: "inconclusive",
      summary: "too few requests",
      inconclusive: { kind: "too-few-requests", reason: "too few requests to judge p95 (10; needs 200)" },
    });
  });

  it("lets a failed SLA or tool threshold fail an otherwise inconclusive run, and fail_on decide what counts", () => {
    const thresholds = { evaluated: 2, failed: [{ metric: "http_req_duration", expression: "p(95)<35" }] };
    expect(decideOutcome(input({ thresholds }))).toMatchObject({ outcome: "fail", summary: "1 of 2 tool thresholds failed" });
    const slow = compareRuns(history, [runOf("h", [30, 60])]);
    const grade = { letter: "D", passed: 1, evaluated: 4 } as GateInput["grade"];
    // Everything that failed, in a few words each; the reasons say it in full (user text included).
    expect(decideOutcome(input({ thresholds, comparison: slow, grade })).summary).toBe(
      "1 of 2 tool thresholds failed · 2 endpoints regressed · SLA grade D",
    );
    expect(decideOutcome(input({ thresholds, failOn: ["regression"] })).outcome).toBe("inconclusive");
    expect(decideOutcome(input({ failOn: ["sla"] })).outcome).toBe("pass");
    expect(decideOutcome(input({ failOn: [] })).outcome).toBe("pass");
  });

  it("passes with a note when some endpoints could not be judged, and names an open regression", () => {
    const head = runOf("h", [20, 40]);
    // A third endpoint only this run measured, and one whose head has too few requests for its p95.
    const partial = {
      ...head,
      endpoints: [{ ...head.endpoints[0]!, requests: 10 }, head.endpoints[1]!, { ...head.endpoints[0]!, name: "New" }],
    };
    const decision = decideOutcome(
      input({
        comparison: compareRuns(history, [partial]),
        openRegression: "E2 p95 +31.0% from the run of 2026-01-05",
      }),
    );
    expect(decision.outcome).toBe("pass");
    expect(decision.notes[0]).toBe(
      "2 endpoints of 3 not judged (E1: too few requests to judge p95 (10; needs 200); …)",
    );
    expect(decision.notes.at(-1)).toMatch(
      /^open regression on this series: E2 p95 \+31\.0% from the run of 2026-01-05; runs are judged against the level before it/,
    );
  });
});
