import type { TrendLine } from "../../domain/incidents/change-candidates";

/**
 * A detection window's trends as they cross into a CPU thread (cpu-pool.ts findChangeCandidatesInPool):
 * each trend's endpoint, metric and direction, and every trend's runs and values in one flat typed array
 * each. A structured clone copies a typed array whole, where it clones an array of numbers number by
 * number: a 10,000-benchmark window (40,000 trends of 100 values) took ~400 ms of the event loop to clone
 * as arrays.
 */
export interface PackedTrends {
  lines: Omit<TrendLine, "runs" | "values">[];
  /** Trend i's runs and values are at [offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  runs: Uint32Array;
  values: Float64Array;
}

export function packTrends(trends: readonly TrendLine[]): PackedTrends {
  const offsets = new Uint32Array(trends.length + 1);
  for (const [index, trend] of trends.entries()) offsets[index + 1] = offsets[index]! + trend.values.length;
  const runs = new Uint32Array(offsets[trends.length]!);
  const values = new Float64Array(offsets[trends.length]!);
  for (const [index, trend] of trends.entries()) {
    runs.set(trend.runs, offsets[index]);
    values.set(trend.values, offsets[index]);
  }
  return { lines: trends.map(({ endpointId, metric, better }) => ({ endpointId, metric, better })), offsets, runs, values };
}

export function unpackTrends({ lines, offsets, runs, values }: PackedTrends): TrendLine[] {
  return lines.map((line, index) => {
    const [start, end] = [offsets[index]!, offsets[index + 1]!];
    return { ...line, runs: Array.from(runs.subarray(start, end)), values: Array.from(values.subarray(start, end)) };
  });
}
