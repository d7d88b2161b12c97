/**
 * github-action-benchmark's one result shape (benchmark-action/github-action-benchmark, `src/extract.ts`
 * `BenchmarkResult`): `{ name, value, unit, range?, extra? }`. Its custom JSON is a list of them, and every
 * entry of its gh-pages `data.js` keeps one list per commit (`benches`), whatever tool wrote them. The
 * action itself compares `value` alone, in the direction its `tool:` input says (`src/write/biggerIsBetter.ts`):
 * bigger is better for benchmarkjs, pytest and customBiggerIsBetter, smaller for every other tool.
 *
 * How a value is stored (docs/benchmarks.md, as the other benchmark parsers store theirs):
 * - a time per operation (`ns/op`, `ns/iter`, `us/iter`, `ns`, `ms`, `msec`…) where smaller is better: the
 *   benchmark's mean time per operation (ms), as go test -bench's ns/op is;
 * - an operation rate (`ops/sec`, `iter/sec`, `ops/s`, `Hz`) where bigger is better: its ops/s and the mean
 *   time per operation 1000 / ops/s, as benchmark.js's ops/sec is;
 * - anything else (`MiB/s`, `Percent`, `Megabytes`, a time declared bigger-is-better): a custom metric under
 *   its unit, with the direction the action was told, so the gate judges it that way.
 * `range` (a spread in the tool's own words: `± 7,527`, `±1.12%`, `stddev: 0.0002`) and `extra` (free text)
 * are not one statistic and are dropped; the value is kept as written (the action's JSON, full precision).
 */
import { z } from "zod";
import type { Better, EndpointResult } from "../../run";
import { benchmarkResult, isTimeUnit, toMs, type TimeUnit } from "../benchmark";
import { parseWire } from "../wire";

export const benchSchema = z.object({
  name: z.string().min(1).describe("The benchmark's name."),
  value: z.number().refine(Number.isFinite, "expected a finite number").describe("Its value, in `unit`."),
  unit: z.string().describe('The value\'s unit: "ns/iter", "ops/sec", "ms", "MiB/s"…'),
  range: z.string().optional().describe("A spread in the tool's words (not read)."),
  extra: z.string().optional().describe("Free text shown in the action's tooltip (not read)."),
});

export type Bench = z.infer<typeof benchSchema>;

/** One custom JSON file: the list github-action-benchmark's custom tools read (one wire schema). */
export const customBenchesSchema = z.array(benchSchema).min(1, "expected at least one benchmark");

/** The tools github-action-benchmark knows, with the direction it compares their values in (biggerIsBetter.ts). */
export const GAB_TOOL_DIRECTIONS = {
  cargo: "lower",
  go: "lower",
  benchmarkjs: "higher",
  benchmarkluau: "lower",
  pytest: "higher",
  googlecpp: "lower",
  catch2: "lower",
  julia: "lower",
  jmh: "lower",
  benchmarkdotnet: "lower",
  customBiggerIsBetter: "higher",
  customSmallerIsBetter: "lower",
} as const satisfies Record<string, Better>;

export type GabTool = keyof typeof GAB_TOOL_DIRECTIONS;
export const GAB_TOOLS = Object.keys(GAB_TOOL_DIRECTIONS) as [GabTool, ...GabTool[]];

/** The spellings of time units the action's extractors and custom files write, by Benchtrack's unit. */
const TIME_SPELLINGS: Record<string, TimeUnit> = {
  ns: "ns",
  nsec: "ns",
  nanoseconds: "ns",
  us: "us",
  "µs": "us",
  "μs": "us",
  usec: "us",
  microseconds: "us",
  ms: "ms",
  msec: "ms",
  milliseconds: "ms",
  s: "s",
  sec: "s",
  secs: "s",
  second: "s",
  seconds: "s",
};

/** `ns/iter` → ns; `ms` → ms; `ns/op` → ns; anything that is not one operation's time → null. */
export function timeUnitOf(unit: string): TimeUnit | null {
  const [amount = "", per, ...rest] = unit.trim().split("/");
  if (rest.length > 0 || (per !== undefined && !/^(op|ops|iter|iteration|call)$/i.test(per.trim()))) return null;
  const spelled = TIME_SPELLINGS[amount.trim().toLowerCase()] ?? TIME_SPELLINGS[amount.trim()];
  return spelled !== undefined && isTimeUnit(spelled) ? spelled : null;
}

/** Whether a unit is operations per second (`ops/sec`, `iter/sec`, `op/s`, `Hz`). */
export function isOperationRate(unit: string): boolean {
  return /^(ops?|iters?|iterations?|runs?|calls?)\s*\/\s*(s|sec|second)$/i.test(unit.trim()) || /^hz$/i.test(unit.trim());
}

/** One bench as a benchmark result, in the direction the action compares it in. */
export function benchResultOf(bench: Bench, better: Better): EndpointResult {
  const unit = bench.unit.trim();
  const time = timeUnitOf(unit);
  if (time !== null && better === "lower" && bench.value >= 0) {
    return benchmarkResult({ name: bench.name, summary: { meanMs: toMs(bench.value, time), samples: null } });
  }
  if (isOperationRate(unit) && better === "higher" && bench.value > 0) {
    return benchmarkResult({ name: bench.name, summary: { meanMs: 1000 / bench.value, samples: null }, opsPerSecond: bench.value });
  }
  const key = unit === "" ? "value" : unit;
  return benchmarkResult({ name: bench.name, metrics: { [key]: { value: bench.value, unit: unit === "" ? null : unit, better } } });
}

/** Validates one list of benches (`what` names it in errors; `path` prefixes each issue's path). */
export function readBenches(value: unknown, what: string, path: string): Bench[] {
  return parseWire(customBenchesSchema, value, what, path);
}
