/**
 * The github-action-benchmark parsers' public face: `GITHUB_ACTION_BENCHMARK_TOOL` (its custom JSON, one
 * format per direction, which tools.ts lists) and the reader of its gh-pages history (data.js), which the
 * history import (services/ingest/import-history.ts) uses. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type FormatDescriptor, type ToolDescriptor } from "../tool-descriptor";
import { parseCustomBiggerIsBetter, parseCustomSmallerIsBetter } from "./custom-json";

export { GAB_TOOL } from "./custom-json";
export { githubActionBenchmarkDataSchema, MAX_HISTORY_ENTRIES, parseGithubActionBenchmarkData, stripDataJsPrefix, withPath } from "./data-js";
export type { GabHistory, GabHistoryEntry } from "./data-js";
export { benchResultOf, customBenchesSchema, GAB_TOOL_DIRECTIONS, isOperationRate, timeUnitOf } from "./benches";

const KEEPS =
  "one benchmark per entry, named as written: a time per operation (ns/iter, ns/op, us, ms, msec…) as its mean time per operation, an operation rate (ops/sec, iter/sec, Hz) as ops/s and 1000 / ops/s, any other unit (MiB/s, Percent, Megabytes) as a custom metric under its unit; each judged in the direction the format names";
const DROPS = "range and extra (free text in the tool's words, not one statistic); samples (not in the file); the testbed (not in the file)";

function customFormat(better: "lower" | "higher"): FormatDescriptor {
  const smaller = better === "lower";
  return {
    info: {
      id: smaller ? "custom-smaller-is-better" : "custom-bigger-is-better",
      extension: ".json",
      title: `github-action-benchmark ${smaller ? "customSmallerIsBetter" : "customBiggerIsBetter"} JSON`,
      command: `the JSON list a workflow writes for github-action-benchmark's tool: ${smaller ? "customSmallerIsBetter" : "customBiggerIsBetter"} ([{"name", "unit", "value", "range"?, "extra"?}])`,
      upload: "body",
      keeps: `${KEEPS} (${smaller ? "smaller" : "bigger"} is better; never detected: send ?format=${smaller ? "custom-smaller-is-better" : "custom-bigger-is-better"})`,
      drops: DROPS,
      resolution: "full precision: as the file states it",
      checkedOn: "real output",
      recipe: `curl --data-binary @output.json $AUTH "$RUNS?format=${smaller ? "customSmallerIsBetter" : "customBiggerIsBetter"}&label=Benchmark"`,
    },
    parser: { kind: "json", parse: smaller ? parseCustomSmallerIsBetter : parseCustomBiggerIsBetter },
    // The file does not say which way is better: only ?format= can, so it has no markers.
    latency: { rule: FULL_PRECISION },
  };
}

/** github-action-benchmark's custom JSON, in its two directions. */
export const GITHUB_ACTION_BENCHMARK_TOOL: ToolDescriptor = {
  tool: "github-action-benchmark",
  formats: [customFormat("lower"), customFormat("higher")],
};
