/**
 * Evaluates change-point detection (server/domain/stats/change-points.ts) on synthetic series with
 * known change points, and prints precision, recall and false positives per 1,000 flat points.
 *
 *   npx tsx scripts/evaluate-change-points.ts [--trials=200] [--seed=1] [--window-length=50]
 *     [--max-p-value=0.001] [--min-segment-length=6] [--min-relative-change-pct=2] [--min-magnitude-sd=1]
 *
 * Series (gaussian noise with coefficient of variation CV around a level of 100):
 * - steps: 100 points, one step of +/−size at a random index in [30, 70], size × CV grid;
 * - spikes: 100 flat points with 3 single-point outliers of +6 to +10 σ (no true change);
 * - drifts: 100 points rising linearly by 10% or 30% in total (no step; detections are reported apart);
 * - flat: 500 points, for the false-positive rate.
 * A detection within ±2 points of a true change point is a true positive (at most one per change);
 * every other detection is a false positive. Deterministic: same seed, same figures.
 */
import {
  DEFAULT_CHANGE_POINT_OPTIONS,
  detectChangePoints,
  type ChangePointOptions,
} from "../server/domain/stats/change-points";
import { createSeededRandom, generateNormalSample, type SeededRandom } from "../server/domain/stats/random";

const STEP_SIZES_PCT = [5, 10, 20, 30, 50];
const NOISE_CVS_PCT = [2, 5, 10];
const MATCH_TOLERANCE = 2;
const LEVEL = 100;

interface Tally {
  truePositives: number;
  falsePositives: number;
  trueChanges: number;
}

function readArguments(): { trials: number; seed: number; options: ChangePointOptions } {
  const flags = new Map(
    process.argv.slice(2).map((argument) => {
      const [key = "", value = ""] = argument.replace(/^--/, "").split("=");
      return [key, Number(value)] as const;
    }),
  );
  const pick = (key: string, fallback: number): number => {
    const value = flags.get(key);
    return value === undefined || Number.isNaN(value) ? fallback : value;
  };
  return {
    trials: pick("trials", 200),
    seed: pick("seed", 1),
    options: {
      windowLength: pick("window-length", DEFAULT_CHANGE_POINT_OPTIONS.windowLength),
      maxPValue: pick("max-p-value", DEFAULT_CHANGE_POINT_OPTIONS.maxPValue),
      minSegmentLength: pick("min-segment-length", DEFAULT_CHANGE_POINT_OPTIONS.minSegmentLength),
      minRelativeChangePct: pick("min-relative-change-pct", DEFAULT_CHANGE_POINT_OPTIONS.minRelativeChangePct),
      minMagnitudeSd: pick("min-magnitude-sd", DEFAULT_CHANGE_POINT_OPTIONS.minMagnitudeSd),
    },
  };
}

function scoreDetections(detected: readonly number[], truth: readonly number[]): Tally {
  const unmatched = new Set(truth);
  let truePositives = 0;
  for (const index of detected) {
    const match = [...unmatched].find((trueIndex) => Math.abs(trueIndex - index) <= MATCH_TOLERANCE);
    if (match === undefined) continue;
    unmatched.delete(match);
    truePositives += 1;
  }
  return { truePositives, falsePositives: detected.length - truePositives, trueChanges: truth.length };
}

function addTally(total: Tally, part: Tally): void {
  total.truePositives += part.truePositives;
  total.falsePositives += part.falsePositives;
  total.trueChanges += part.trueChanges;
}

function stepSeries(random: SeededRandom, sizePct: number, cvPct: number): { series: number[]; changeAt: number } {
  const changeAt = 30 + random.integer(41);
  const sign = random.uniform() < 0.5 ? -1 : 1;
  const after = LEVEL * (1 + (sign * sizePct) / 100);
  const sd = (LEVEL * cvPct) / 100;
  const series = Array.from({ length: 100 }, (_, i) => random.gaussian(i < changeAt ? LEVEL : after, sd));
  return { series, changeAt };
}

function spikeSeries(random: SeededRandom, cvPct: number): number[] {
  const sd = (LEVEL * cvPct) / 100;
  const series = generateNormalSample(random, 100, LEVEL, cvPct / 100);
  for (let spike = 0; spike < 3; spike += 1) {
    const index = 10 + random.integer(80);
    series[index] = LEVEL + (6 + 4 * random.uniform()) * sd;
  }
  return series;
}

function driftSeries(random: SeededRandom, totalDriftPct: number, cvPct: number): number[] {
  const sd = (LEVEL * cvPct) / 100;
  return Array.from({ length: 100 }, (_, i) => random.gaussian(LEVEL * (1 + (totalDriftPct / 100) * (i / 99)), sd));
}

function formatPct(numerator: number, denominator: number): string {
  return denominator === 0 ? "n/a" : `${((100 * numerator) / denominator).toFixed(1)}%`;
}

function main(): void {
  const { trials, seed, options } = readArguments();
  const random = createSeededRandom(seed);
  const startedAt = performance.now();
  let seriesCount = 0;
  console.log(`change-point evaluation: ${trials} trials per cell, seed ${seed}`);
  console.log(`options: ${JSON.stringify(options)}\n`);

  const overall: Tally = { truePositives: 0, falsePositives: 0, trueChanges: 0 };
  console.log("steps (100 points, one step at 30..70): recall / false positives per series");
  console.log(`step size  | ${NOISE_CVS_PCT.map((cv) => `CV ${cv}%`.padEnd(16)).join(" | ")}`);
  for (const sizePct of STEP_SIZES_PCT) {
    const cells: string[] = [];
    for (const cvPct of NOISE_CVS_PCT) {
      const cell: Tally = { truePositives: 0, falsePositives: 0, trueChanges: 0 };
      for (let trial = 0; trial < trials; trial += 1) {
        const { series, changeAt } = stepSeries(random, sizePct, cvPct);
        const detected = detectChangePoints(series, options).map((changePoint) => changePoint.index);
        addTally(cell, scoreDetections(detected, [changeAt]));
        seriesCount += 1;
      }
      addTally(overall, cell);
      cells.push(
        `${formatPct(cell.truePositives, cell.trueChanges)} / ${(cell.falsePositives / trials).toFixed(2)}`.padEnd(16),
      );
    }
    console.log(`${`${sizePct}%`.padEnd(10)} | ${cells.join(" | ")}`);
  }

  console.log("\nspikes (100 points, 3 single-point outliers of 6–10 σ): false positives per series");
  const spikeTally: Tally = { truePositives: 0, falsePositives: 0, trueChanges: 0 };
  const spikeCells = NOISE_CVS_PCT.map((cvPct) => {
    let falsePositives = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      falsePositives += detectChangePoints(spikeSeries(random, cvPct), options).length;
      seriesCount += 1;
    }
    spikeTally.falsePositives += falsePositives;
    return `CV ${cvPct}%: ${(falsePositives / trials).toFixed(2)}`;
  });
  console.log(spikeCells.join("   "));
  addTally(overall, spikeTally);

  console.log("\ndrifts (100 points, linear, no step): detections per series (not scored)");
  for (const totalDriftPct of [10, 30]) {
    const cells = NOISE_CVS_PCT.map((cvPct) => {
      let detections = 0;
      for (let trial = 0; trial < trials; trial += 1) {
        detections += detectChangePoints(driftSeries(random, totalDriftPct, cvPct), options).length;
        seriesCount += 1;
      }
      return `CV ${cvPct}%: ${(detections / trials).toFixed(2)}`;
    });
    console.log(`+${totalDriftPct}% over 100 points: ${cells.join("   ")}`);
  }

  console.log("\nflat (500 points, no change): false positives per 1,000 points");
  const flatCells = NOISE_CVS_PCT.map((cvPct) => {
    let falsePositives = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      falsePositives += detectChangePoints(generateNormalSample(random, 500, LEVEL, cvPct / 100), options).length;
      seriesCount += 1;
    }
    return `CV ${cvPct}%: ${((1000 * falsePositives) / (500 * trials)).toFixed(3)}`;
  });
  console.log(flatCells.join("   "));

  const detections = overall.truePositives + overall.falsePositives;
  console.log("\nsummary over steps and spikes (drifts and flat series excluded)");
  console.log(
    `precision ${formatPct(overall.truePositives, detections)}  (${overall.truePositives} of ${detections} detections)`,
  );
  console.log(
    `recall    ${formatPct(overall.truePositives, overall.trueChanges)}  (${overall.truePositives} of ${overall.trueChanges} changes)`,
  );
  const elapsedMs = performance.now() - startedAt;
  console.log(`\n${seriesCount} series in ${(elapsedMs / 1000).toFixed(1)} s`);
}

main();
