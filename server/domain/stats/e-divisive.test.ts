import { describe, expect, it } from "vitest";
import { createEnergySplitFinder } from "./e-divisive";
import { createSeededRandom } from "./random";

/** Q̂ straight from the definition, for comparison with the table-based search. */
function naiveQHat(values: readonly number[], start: number, tau: number, kappa: number): number {
  const x = values.slice(start, tau);
  const y = values.slice(tau, kappa);
  const [n, m] = [x.length, y.length];
  let cross = 0;
  for (const a of x) for (const b of y) cross += Math.abs(a - b);
  const within = (block: readonly number[]): number => {
    let sum = 0;
    for (let i = 0; i < block.length; i += 1)
      for (let k = i + 1; k < block.length; k += 1) sum += Math.abs((block[i] ?? 0) - (block[k] ?? 0));
    return sum;
  };
  return (
    (2 / (n + m)) * cross - ((2 * m) / ((n + m) * (n - 1))) * within(x) - ((2 * n) / ((n + m) * (m - 1))) * within(y)
  );
}

describe("createEnergySplitFinder", () => {
  it("splits a clean step where it is", () => {
    const values = [0, 0, 0, 0, 0, 5, 5, 5, 5, 5];
    expect(createEnergySplitFinder(values).findBestSplit(0, values.length, 2)?.index).toBe(5);
  });

  it("matches the definition of Q̂ on random data", () => {
    const random = createSeededRandom(11);
    const values = Array.from({ length: 30 }, () => random.gaussian(10, 2));
    let best = { index: -1, qHat: Number.NEGATIVE_INFINITY };
    for (let tau = 5 + 3; tau <= 27 - 3; tau += 1) {
      for (let kappa = tau + 3; kappa <= 27; kappa += 1) {
        const qHat = naiveQHat(values, 5, tau, kappa);
        if (qHat > best.qHat) best = { index: tau, qHat };
      }
    }
    const found = createEnergySplitFinder(values).findBestSplit(5, 27, 3);
    expect(found?.index).toBe(best.index);
    expect(found?.qHat).toBeCloseTo(best.qHat, 9);
  });

  it("finds nothing when the range cannot hold two blocks", () => {
    expect(createEnergySplitFinder([1, 2, 3, 4, 5]).findBestSplit(0, 5, 3)).toBeNull();
  });
});
