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
  it("gives the rounds of the exact noncentral t (R's power.t.test, Cohen 1992's Table 2) for equal spreads, α = 0.05, power 0.8", () => {
    // Exact noncentral-t answers (scipy.stats.nct, R's power.t.test): d = 2 → 5.09, 1.5 → 8.06,
    // 1 → 16.71, 0.8 → 25.52, 0.5 → 63.77 per group, rounded up. The z formula 2(1.96 + 0.84)²/d² would
    // say 16 for d = 1: one round short of 80% (16 per side give 78.1%).
    const at = (d: number, maxRounds?: number) =>
      roundsToDetect({ baseSd: 1, headSd: 1, effect: d, alpha: 0.05, test: "welch", maxRounds });
    expect(roundsOf(at(2))).toBe(6);
    expect(roundsOf(at(1.5))).toBe(9);
    expect(roundsOf(at(1))).toBe(17);
    expect(roundsOf(at(0.8))).toBe(26);
    expect(roundsOf(at(0.5, 100))).toBe(64);
    // Scale-free: only δ/σ matters.
    expect(roundsOf(roundsToDetect({ baseSd: 12.5, headSd: 12.5, effect: 12.5, alpha: 0.05, test: "welch" }))).toBe(17);
  });

  it("needs more rounds for a stricter α or more power", () => {
    const base = { baseSd: 1, headSd: 1, effect: 1, test: "welch" } as const;
    expect(roundsOf(roundsToDetect({ ...base, alpha: 0.01 }))).toBeGreaterThan(17);
    expect(roundsOf(roundsToDetect({ ...base, alpha: 0.05, power: 0.9 }))).toBe(23); // power.t.test: 22.02
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

  it("needs only 2 rounds when neither side has any noise", () => {
    expect(roundsOf(roundsToDetect({ baseSd: 0, headSd: 0, effect: 1, alpha: 0.05, test: "welch" }))).toBe(2);
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
    // Noncentral t at the Welch df (scipy): 18 per side give 78.1%, 19 give 80.4%.
    expect(rounds).toBe(19);
    const random = createSeededRandom(808);
    const detectedShare = (n: number, trials = 4000) => {
      let detected = 0;
      for (let trial = 0; trial < trials; trial++) {
        const base = Array.from({ length: n }, () => random.gaussian(100, 1));
        const head = Array.from({ length: n }, () => random.gaussian(101.5, 2));
        const result = welchTTest(base, head);
        if (!isInsufficient(result) && result.pValue < 0.05) detected++;
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
    // 16.71 / 0.955 = 17.5 → 18 per side.
    expect(roundsOf(roundsToDetect({ baseSd: 1, headSd: 1, effect: 1, alpha: 0.05, test: "mann-whitney" }))).toBe(18);
    // No noise: Welch needs 2, but 3 vs 3 cannot go below p = 0.1; 4 vs 4 reaches 2/70 = 0.029.
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
      if (!isInsufficient(result) && result.pValue < 0.05) detected++;
    }
    expect(detected / trials).toBeGreaterThanOrEqual(0.77);
    expect(detected / trials).toBeLessThan(0.87);
  });
});
