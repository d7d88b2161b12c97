import { describe, expect, it } from "vitest";
import { isInsufficient } from "./insufficient";
import { mannWhitneyUTest } from "./mann-whitney";
import { createSeededRandom } from "./random";
import { roundsToDetect, type RoundsToDetect } from "./sample-size";
import { welchTTest } from "./welch-t-test";

function roundsOf(result: RoundsToDetect): number {
  if (result.status !== "ok") throw new Error(`expected a number of rounds, got ${JSON.stringify(result)}`);
  return result.roundsPerSide;
}

describe("roundsToDetect (Welch's t-test)", () => {
  it("gives the rounds of the exact noncentral t (R's power.t.test, one-sided) for equal spreads, α = 0.05, power 0.8", () => {
    // Exact one-sided noncentral-t answers (scipy.stats.nct; R's power.t.test(alternative = "one.sided")),
    // smallest n per group with power ≥ 80%: d = 1.5 → 7 (84.1%; 6 give 78.0%), 1 → 14 (82.4%; 13 give
    // 79.7%), 0.8 → 21 (81.7%; 20 give 79.9%), 0.5 → 51 (80.6%). d = 2: exactly 4 give 80.2%, a hair over;
    // the shifted-central-t approximation asks 5 there (conservative by one round, never short).
    const at = (d: number, maxRounds?: number) =>
      roundsToDetect({ baseSd: 1, headSd: 1, effect: d, alpha: 0.05, test: "welch", maxRounds });
    expect(roundsOf(at(2))).toBe(5);
    expect(roundsOf(at(1.5))).toBe(7);
    expect(roundsOf(at(1))).toBe(14);
    expect(roundsOf(at(0.8))).toBe(21);
    expect(roundsOf(at(0.5, 100))).toBe(51);
    // Scale-free: only δ/σ matters.
    expect(roundsOf(roundsToDetect({ baseSd: 12.5, headSd: 12.5, effect: 12.5, alpha: 0.05, test: "welch" }))).toBe(14);
  });

  it("needs more rounds for a stricter α or more power", () => {
    const base = { baseSd: 1, headSd: 1, effect: 1, test: "welch" } as const;
    expect(roundsOf(roundsToDetect({ ...base, alpha: 0.01 }))).toBe(22); // exact one-sided: 22
    expect(roundsOf(roundsToDetect({ ...base, alpha: 0.05, power: 0.9 }))).toBe(18); // exact one-sided: 18
  });

  it("answers 'more than maxRounds' past the cap, and cannot tell for a zero effect", () => {
    expect(roundsToDetect({ baseSd: 1, headSd: 1, effect: 0.5, alpha: 0.05, test: "welch" })).toEqual({
      status: "beyond",
      maxRounds: 50,
    });
    expect(roundsToDetect({ baseSd: 1, headSd: 1, effect: 0.2, alpha: 0.05, test: "welch", maxRounds: 20 })).toEqual({
      status: "beyond",
      maxRounds: 20,
    });
    const zero = roundsToDetect({ baseSd: 1, headSd: 1, effect: 0, alpha: 0.05, test: "welch" });
    expect(isInsufficient(zero) && zero.reason).toMatch(/cannot tell/);
  });

  it("needs only the 3 rounds a comparison judges at all when neither side has any noise", () => {
    expect(roundsOf(roundsToDetect({ baseSd: 0, headSd: 0, effect: 1, alpha: 0.05, test: "welch" }))).toBe(3);
  });

  it("refuses non-finite or negative inputs and an α outside (0, 1)", () => {
    expect(() => roundsToDetect({ baseSd: Number.NaN, headSd: 1, effect: 1, alpha: 0.05, test: "welch" })).toThrow(
      RangeError,
    );
    expect(() => roundsToDetect({ baseSd: 1, headSd: -1, effect: 1, alpha: 0.05, test: "welch" })).toThrow(RangeError);
    expect(() => roundsToDetect({ baseSd: 1, headSd: 1, effect: 1, alpha: 1, test: "welch" })).toThrow(RangeError);
  });

  it("delivers its 80% power: Welch's test at the answer, simulated (unequal spreads, seed 808)", () => {
    // Base sd 1, head sd 2 (a slower build is often noisier), a change of 1.5.
    const rounds = roundsOf(roundsToDetect({ baseSd: 1, headSd: 2, effect: 1.5, alpha: 0.05, test: "welch" }));
    // One-sided noncentral t at the Welch df (scipy): 14 per side give 78.1%, 15 give 80.7%.
    expect(rounds).toBe(15);
    const random = createSeededRandom(808);
    const detectedShare = (n: number, trials = 4000) => {
      let detected = 0;
      for (let trial = 0; trial < trials; trial++) {
        const base = Array.from({ length: n }, () => random.gaussian(100, 1));
        const head = Array.from({ length: n }, () => random.gaussian(101.5, 2));
        const result = welchTTest(base, head);
        // One-sided (head slower), as the verdict tests it.
        if (!isInsufficient(result) && result.t > 0 && result.pValue / 2 < 0.05) detected++;
      }
      return detected / trials;
    };
    const atAnswer = detectedShare(rounds);
    expect(atAnswer).toBeGreaterThanOrEqual(0.78);
    expect(atAnswer).toBeLessThan(0.86);
    expect(detectedShare(Math.round(rounds / 2))).toBeLessThan(0.6);
  });
});

describe("roundsToDetect (Mann–Whitney U)", () => {
  it("divides by the ARE 3/π, and never answers fewer rounds than the exact test needs to reach α", () => {
    // The t test's continuous answer for d = 1 (13.3 rounds: 14) divided by 0.955: 14 per side.
    expect(roundsOf(roundsToDetect({ baseSd: 1, headSd: 1, effect: 1, alpha: 0.05, test: "mann-whitney" }))).toBe(14);
    // No noise: the t test needs the minimum 3, but one-sided 3 vs 3 cannot go below p = 1/20 = 0.05;
    // 4 vs 4 reaches 1/70 = 0.014; α = 0.01 needs 5 vs 5 (1/252 = 0.004).
    expect(roundsOf(roundsToDetect({ baseSd: 0, headSd: 0, effect: 1, alpha: 0.05, test: "mann-whitney" }))).toBe(4);
    expect(roundsOf(roundsToDetect({ baseSd: 0, headSd: 0, effect: 1, alpha: 0.01, test: "mann-whitney" }))).toBe(5);
  });

  it("delivers its 80% power: the Mann–Whitney test at the answer, simulated on normal rounds (seed 2024)", () => {
    const rounds = roundsOf(roundsToDetect({ baseSd: 1, headSd: 1, effect: 1, alpha: 0.05, test: "mann-whitney" }));
    const random = createSeededRandom(2024);
    let detected = 0;
    const trials = 1500;
    for (let trial = 0; trial < trials; trial++) {
      const base = Array.from({ length: rounds }, () => random.gaussian(10, 1));
      const head = Array.from({ length: rounds }, () => random.gaussian(11, 1));
      const result = mannWhitneyUTest(base, head);
      if (!isInsufficient(result) && result.probabilityHeadGreater > 0.5 && result.pValue / 2 < 0.05) detected++;
    }
    expect(detected / trials).toBeGreaterThanOrEqual(0.77);
    expect(detected / trials).toBeLessThan(0.87);
  });
});
