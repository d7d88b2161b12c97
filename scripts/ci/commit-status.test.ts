import { describe, expect, it } from "vitest";
import type { GateAnswer } from "./commit-status.mjs";
import { commitStatusOf, DESCRIPTION_LIMIT, statusContext, TARGET_URL_LIMIT, truncate } from "./commit-status.mjs";

const MARKER = "<!-- benchtrack:listings:k6:baseline -->";
const RUN = "https://bench.example/projects/listings/runs/run1";

/** An upload's answer as Benchtrack gives it: the headline first in the Markdown, the marker last. */
function answer(
  outcome: "pass" | "fail" | "inconclusive",
  headline: string,
  fields: Partial<GateAnswer> = {},
): GateAnswer {
  const icon = { pass: "✅", fail: "❌", inconclusive: "⚠️" }[outcome];
  return {
    outcome,
    url: RUN,
    reasons: [],
    failOn: ["regression", "sla", "thresholds"],
    comment: {
      marker: MARKER,
      markdown: `### ${icon} Benchtrack: **${outcome.toUpperCase()}**${headline}\n\n**Why:** …\n\n${MARKER}\n`,
    },
    ...fields,
  };
}

describe("commitStatusOf", () => {
  it("maps the outcome to the state, and says which in the description", () => {
    const settings = { inconclusive: "pass" } as const;
    expect(commitStatusOf(answer("pass", ""), settings)).toEqual({
      state: "success",
      context: "benchtrack/listings/k6:baseline",
      description: "pass: nothing failed",
      targetUrl: RUN,
    });
    expect(commitStatusOf(answer("pass", " (fail_on=none)", { failOn: [] }), settings).description).toBe(
      "pass: fail_on=none, nothing can fail",
    );
    const failed = answer("fail", ": 2 endpoints regressed · SLA grade D", {
      reasons: ["2 endpoints regressed against the baseline (…): checkout p95 +40%", "SLA grade D"],
    });
    expect(commitStatusOf(failed, settings)).toMatchObject({
      state: "failure",
      description: "fail: 2 endpoints regressed · SLA grade D",
    });
    // An answer whose Markdown has no headline summary still says why.
    expect(commitStatusOf({ ...failed, comment: { ...failed.comment, markdown: "text" } }, settings).description).toBe(
      "fail: 2 endpoints regressed against the baseline (…): checkout p95 +40%; SLA grade D",
    );
  });

  it("an inconclusive gate succeeds unless BENCHTRACK_INCONCLUSIVE=fail, and never reads as a pass", () => {
    const inconclusive = answer("inconclusive", ": too little history", {
      reasons: ["too little history: 4 runs in all, 6 needed (2 more rounds of the head, or 2 more base runs)"],
    });
    const lenient = commitStatusOf(inconclusive, { inconclusive: "pass" });
    expect(lenient).toEqual({
      state: "success",
      context: "benchtrack/listings/k6:baseline",
      description:
        "inconclusive: too little history: 4 runs in all, 6 needed (2 more rounds of the head, or 2 more base runs)",
      targetUrl: RUN,
    });
    const strict = commitStatusOf(inconclusive, { inconclusive: "fail" });
    expect(strict.state).toBe("failure");
    expect(strict.description).toBe(lenient.description);
    expect(commitStatusOf({ ...inconclusive, reasons: [] }, { inconclusive: "pass" }).description).toBe(
      "inconclusive: too little history",
    );
  });

  it("fits GitHub's 140 characters and GitLab's 255-character links", () => {
    const long = answer("fail", "", { reasons: [`${"x".repeat(200)} regressed`] });
    const { description } = commitStatusOf(long, { inconclusive: "pass" });
    expect([...description]).toHaveLength(DESCRIPTION_LIMIT);
    expect(description.endsWith("x…")).toBe(true);

    // A link GitLab would refuse is left out rather than the status refused.
    const longRun = `https://bench.example/${"p".repeat(TARGET_URL_LIMIT)}`;
    expect(commitStatusOf(answer("pass", "", { url: longRun }), { inconclusive: "pass" }).targetUrl).toBeNull();
  });
});

describe("statusContext", () => {
  it("is one context per marker: project and series, testbed included", () => {
    expect(statusContext(MARKER)).toBe("benchtrack/listings/k6:baseline");
    expect(statusContext("<!-- benchtrack:listings:k6:soak -->")).toBe("benchtrack/listings/k6:soak");
    expect(statusContext("<!-- benchtrack:my-lib:go:nightly:linux%2Famd64 -->")).toBe(
      "benchtrack/my-lib/go:nightly:linux%2Famd64",
    );
    expect(statusContext("<!-- benchtrack:other:k6:baseline -->")).not.toBe(statusContext(MARKER));
    expect(statusContext("<!-- something else -->")).toBeNull();
  });
});

describe("truncate", () => {
  it("counts characters as GitHub does (an emoji is one) and marks the cut", () => {
    expect(truncate("abc", 3)).toBe("abc");
    expect(truncate("abcd", 3)).toBe("ab…");
    expect(truncate("😀😀😀😀", 3)).toBe("😀😀…");
    expect([...truncate("😀".repeat(200), DESCRIPTION_LIMIT)]).toHaveLength(DESCRIPTION_LIMIT);
  });
});
