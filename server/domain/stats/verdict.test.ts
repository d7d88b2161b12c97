import { describe, expect, it } from "vitest";
import { ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS } from "./issue-example.fixture";
import { compareSamples, decideVerdict, DEFAULT_VERDICT_OPTIONS } from "./verdict";

describe("decideVerdict", () => {
  const options = DEFAULT_VERDICT_OPTIONS;

  it("regresses on a large, significant change in the bad direction", () => {
    expect(decideVerdict({ better: "lower", deltaPct: 12, pValue: 0.01 }, options).verdict).toBe("regressed");
    expect(decideVerdict({ better: "higher", deltaPct: -12, pValue: 0.01 }, options).verdict).toBe("regressed");
  });

  it("improves symmetrically", () => {
    expect(decideVerdict({ better: "lower", deltaPct: -12, pValue: 0.01 }, options).verdict).toBe("improved");
    expect(decideVerdict({ better: "higher", deltaPct: 12, pValue: 0.01 }, options).verdict).toBe("improved");
  });

  it("counts |Δ%| = minEffect as large enough, and p = alpha as not significant", () => {
    expect(decideVerdict({ better: "lower", deltaPct: 5, pValue: 0.01 }, options).verdict).toBe("regressed");
    expect(decideVerdict({ better: "lower", deltaPct: 50, pValue: 0.05 }, options).verdict).toBe("unchanged");
  });

  it("explains an unchanged verdict", () => {
    expect(decideVerdict({ better: "lower", deltaPct: 2, pValue: 0.001 }, options).reason).toBe(
      "+2.0% is below the 5% minimum effect",
    );
    expect(decideVerdict({ better: "lower", deltaPct: -20, pValue: 0.3 }, options).reason).toBe(
      "−20.0% is not statistically significant (p = 0.3 ≥ 0.05)",
    );
  });

  it("honours per-project options", () => {
    const strict = { minEffectPct: 1, alpha: 0.01 };
    expect(decideVerdict({ better: "lower", deltaPct: 2, pValue: 0.005 }, strict).verdict).toBe("regressed");
    expect(decideVerdict({ better: "lower", deltaPct: 2, pValue: 0.02 }, strict).verdict).toBe("unchanged");
  });
});

describe("compareSamples", () => {
  it("flags the issue's p95 rounds as regressed: +76.1%, Welch p < 0.001", () => {
    const comparison = compareSamples(ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS, { better: "lower" });
    expect(comparison.verdict).toBe("regressed");
    expect(comparison.test).toBe("welch");
    expect(comparison.deltaPct).toBeCloseTo(76.0953, 3);
    expect(comparison.pValue).toBeLessThan(0.001);
    expect(comparison.deltaPctCi95).not.toBeNull();
    expect(comparison.base).toMatchObject({ status: "ok", n: 5 });
    expect(comparison.reason).toBe(
      "+76.1% (worse; lower is better): at least the 5% minimum effect, and p < 0.001 < 0.05",
    );
  });

  it("reads the same data as an improvement when higher is better (throughput)", () => {
    expect(compareSamples(ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS, { better: "higher" }).verdict).toBe("improved");
  });

  it("offers Mann–Whitney; with 5 vs 5 fully separated rounds its exact p is 2/252", () => {
    const comparison = compareSamples(ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS, { better: "lower", test: "mann-whitney" });
    expect(comparison.test).toBe("mann-whitney");
    expect(comparison.pValue).toBeCloseTo(2 / 252, 12);
    expect(comparison.verdict).toBe("regressed");
  });

  it("says when Mann–Whitney cannot reach significance with so few rounds", () => {
    const comparison = compareSamples([1, 2], [10, 11], { better: "lower", test: "mann-whitney" });
    expect(comparison.verdict).toBe("unchanged");
    expect(comparison.reason).toContain("cannot reach p < 0.05; its smallest p is 0.33");
  });

  it("is inconclusive, with a reason, when a side has fewer than 2 values", () => {
    const comparison = compareSamples([2.4], [4.3, 4.4], { better: "lower" });
    expect(comparison).toMatchObject({
      verdict: "inconclusive",
      deltaPct: null,
      pValue: null,
      reason: "base: insufficient data: need 2 values, have 1",
    });
  });

  it("is inconclusive when the base mean is 0", () => {
    const comparison = compareSamples([0, 0], [1, 2], { better: "lower" });
    expect(comparison.verdict).toBe("inconclusive");
    expect(comparison.reason).toMatch(/base mean is 0/);
  });

  it("is unchanged for a small change, however significant", () => {
    const comparison = compareSamples([100, 100.1, 99.9], [102, 102.1, 101.9], { better: "lower" });
    expect(comparison.pValue).toBeLessThan(0.001);
    expect(comparison.verdict).toBe("unchanged");
  });
});
