import { describe, expect, it } from "vitest";
import { createSeededRandom, generateNormalSample } from "./random";

describe("createSeededRandom", () => {
  it("is deterministic per seed", () => {
    const first = createSeededRandom(7);
    const second = createSeededRandom(7);
    const other = createSeededRandom(8);
    const a = Array.from({ length: 5 }, () => first.uniform());
    expect(Array.from({ length: 5 }, () => second.uniform())).toEqual(a);
    expect(Array.from({ length: 5 }, () => other.uniform())).not.toEqual(a);
  });

  it("draws uniforms in [0, 1) and gaussians with the requested mean and sd", () => {
    const random = createSeededRandom(1);
    const uniforms = Array.from({ length: 10_000 }, () => random.uniform());
    expect(Math.min(...uniforms)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...uniforms)).toBeLessThan(1);
    const sample = generateNormalSample(random, 50_000, 100, 0.05);
    const mean = sample.reduce((sum, value) => sum + value, 0) / sample.length;
    const sd = Math.sqrt(sample.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (sample.length - 1));
    // Standard error of the mean: 5/√50,000 ≈ 0.022; of the sd: ≈ 0.016.
    expect(mean).toBeCloseTo(100, 1);
    expect(sd).toBeCloseTo(5, 1);
  });

  it("draws integers below the bound", () => {
    const random = createSeededRandom(3);
    const draws = Array.from({ length: 1_000 }, () => random.integer(6));
    expect(new Set(draws)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
  });
});
