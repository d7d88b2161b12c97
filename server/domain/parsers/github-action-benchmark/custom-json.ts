/**
 * github-action-benchmark's custom JSON (its README, "Examples" → custom benchmarks; `src/extract.ts`
 * `extractCustomBenchmarkResult`): the list of `{ name, unit, value, range?, extra? }` a workflow writes
 * for `tool: customSmallerIsBetter` or `tool: customBiggerIsBetter`. The file does not say which: the
 * direction is the upload's `?format=` (custom-smaller-is-better or custom-bigger-is-better, or the action's
 * own names customSmallerIsBetter / customBiggerIsBetter), so the file is never detected from its content.
 * Each entry is one benchmark (benches.ts says how its value is stored). The file states no testbed.
 */
import type { Better, FormatId, ParsedRun } from "../../run";
import { benchmarkRun } from "../benchmark";
import { benchmarkLimit, MAX_BENCHMARKS } from "../validate";
import { benchResultOf, readBenches } from "./benches";

export const GAB_TOOL = "github-action-benchmark";

/** The format id of each direction. */
export const CUSTOM_FORMAT_OF: Record<Better, FormatId> = {
  lower: "custom-smaller-is-better",
  higher: "custom-bigger-is-better",
};

function parseCustom(document: unknown, better: Better): ParsedRun {
  const format = CUSTOM_FORMAT_OF[better];
  // Past the limit, refused at the first benchmark too many, before the rest is validated.
  if (Array.isArray(document)) benchmarkLimit(document.length, `[${Math.min(document.length, MAX_BENCHMARKS + 1) - 1}]`);
  const benches = readBenches(document, `github-action-benchmark ${format} JSON`, "");
  return benchmarkRun(format, GAB_TOOL, benches.map((bench) => benchResultOf(bench, better)));
}

export function parseCustomSmallerIsBetter(document: unknown): ParsedRun {
  return parseCustom(document, "lower");
}

export function parseCustomBiggerIsBetter(document: unknown): ParsedRun {
  return parseCustom(document, "higher");
}
