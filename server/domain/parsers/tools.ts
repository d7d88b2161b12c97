/**
 * The one list of tools Benchtrack reads. Each tool's folder declares its formats in its descriptor (its
 * index.ts: what the docs say of each format, how it is read, its markers, its latency resolution, which
 * files make one run); every registry is derived from this list: FORMAT_LIST and the `?format=` names
 * (format-list.ts, formats.ts), the parsers and file sets (index.ts), detection (detect.ts) and the
 * resolution rules (resolution.ts).
 *
 * A new format: declare it in its tool's descriptor (and, if it has markers, in DETECTION_ORDER below);
 * a new tool: a folder with its descriptor, added to TOOLS. Its id goes in FORMAT_IDS (../run.ts), which
 * the types check against these lists.
 */
import { FORMAT_IDS, type FormatId } from "../run";
import { ARTILLERY_TOOL } from "./artillery";
import { AUTOCANNON_TOOL } from "./autocannon";
import { BENCHMARKDOTNET_TOOL } from "./benchmarkdotnet";
import { BENCHER_TOOL } from "./bencher";
import { BENCHMARKJS_TOOL } from "./benchmarkjs";
import { BENCHTRACK_TOOL } from "./benchtrack";
import { CRITERION_TOOL } from "./criterion";
import { GHZ_TOOL } from "./ghz";
import { GITHUB_ACTION_BENCHMARK_TOOL } from "./github-action-benchmark";
import { GO_BENCH_TOOL } from "./go-bench";
import { GOOGLE_BENCHMARK_TOOL } from "./google-benchmark";
import { HEY_TOOL } from "./hey";
import { HYPERFINE_TOOL } from "./hyperfine";
import { JMETER_TOOL } from "./jmeter";
import { JMH_TOOL } from "./jmh";
import { K6_TOOL } from "./k6";
import { LOCUST_TOOL } from "./locust";
import { PYTEST_BENCHMARK_TOOL } from "./pytest-benchmark";
import type { FormatDescriptor, FormatMarkers, ToolDescriptor } from "./tool-descriptor";
import { VALGRIND_TOOL } from "./valgrind";
import { VEGETA_TOOL } from "./vegeta";
import { VITEST_BENCH_TOOL } from "./vitest-bench";
import { WRK_TOOL } from "./wrk";

/**
 * Every tool, in documentation order: the order of TOOL_NAMES, of FORMAT_LIST (and so of docs/uploading.md's
 * format table and /docs/api), of the formats an undetectable upload is told about, and of the file sets
 * a refused set of files is told about. Load testers first, then microbenchmarks, Benchtrack's own last.
 */
export const TOOLS: readonly ToolDescriptor[] = [
  K6_TOOL,
  LOCUST_TOOL,
  GHZ_TOOL,
  VEGETA_TOOL,
  HEY_TOOL,
  WRK_TOOL,
  AUTOCANNON_TOOL,
  ARTILLERY_TOOL,
  JMETER_TOOL,
  GO_BENCH_TOOL,
  BENCHMARKJS_TOOL,
  HYPERFINE_TOOL,
  VITEST_BENCH_TOOL,
  PYTEST_BENCHMARK_TOOL,
  GOOGLE_BENCHMARK_TOOL,
  JMH_TOOL,
  CRITERION_TOOL,
  BENCHMARKDOTNET_TOOL,
  VALGRIND_TOOL,
  GITHUB_ACTION_BENCHMARK_TOOL,
  BENCHER_TOOL,
  BENCHTRACK_TOOL,
];

/**
 * The order detection (detect.ts) tries each kind of marker in. It is kept here, explicit, because it
 * matters: `firstLine` and `jsonArray` take the first match (k6 NDJSON before go test2json; a ghz array
 * before a Locust one before JMH), and `json`, `text` and `fileName` list every match in this order, which
 * is the order an ambiguous upload's refusal names them in ("matches several formats: vegeta report
 * -type=text or wrk --latency text report"). It differs from the documentation order (benchtrack's schema
 * is looked at first). Every format with a marker of a kind is listed under that kind, once (checked
 * when detect.ts loads).
 */
export const DETECTION_ORDER: Readonly<Record<keyof FormatMarkers, readonly FormatId[]>> = {
  firstLine: ["k6-ndjson", "go-bench-json"],
  jsonArray: ["ghz", "locust-json", "jmh-json"],
  json: [
    "benchtrack",
    "ghz",
    "k6-new-summary",
    "k6-summary",
    "k6-handle-summary",
    "vegeta-json",
    "autocannon-json",
    "artillery-json",
    "hyperfine-json",
    "pytest-benchmark",
    "google-benchmark-json",
    "vitest-bench",
    "criterion-json",
    "benchmarkdotnet-json",
    // Last: BMF's marker is a shape (benchmark → measure → {value}), not a key of its own.
    "bencher-bmf",
  ],
  text: [
    "locust-csv",
    "ghz-csv",
    "vegeta-text",
    "vegeta-hist",
    "hey-text",
    "hey-csv",
    "wrk-text",
    "artillery-console",
    "jmeter-csv",
    "jmeter-xml",
    "go-bench-text",
    "hyperfine-csv",
    "hyperfine-markdown",
    "hyperfine-text",
    "pytest-benchmark-text",
    "vitest-bench-text",
    "google-benchmark-console",
    "benchmarkjs-text",
    "cachegrind",
    "callgrind",
    "locust-html",
  ],
  fileName: ["locust-csv"],
};

/** A format's descriptor with its tool's name. */
export interface ToolFormat extends FormatDescriptor {
  tool: string;
}

/** Every format of every tool, in documentation order. */
export const TOOL_FORMATS: readonly ToolFormat[] = TOOLS.flatMap((tool) =>
  tool.formats.map((format) => ({ ...format, tool: tool.tool })),
);

/** Each format's descriptor by its id (a format declared twice, or a FormatId no tool declares, fails here). */
export const FORMAT_DESCRIPTORS: Readonly<Record<FormatId, ToolFormat>> = descriptorsById(TOOL_FORMATS);

function descriptorsById(formats: readonly ToolFormat[]): Record<FormatId, ToolFormat> {
  const byId = new Map<FormatId, ToolFormat>();
  for (const format of formats) {
    if (byId.has(format.info.id)) throw new Error(`tools.ts: format ${format.info.id} is declared twice`);
    byId.set(format.info.id, format);
  }
  const undeclared = FORMAT_IDS.filter((id) => !byId.has(id));
  if (undeclared.length > 0) throw new Error(`tools.ts: no tool declares ${undeclared.join(", ")}`);
  return Object.fromEntries(byId) as Record<FormatId, ToolFormat>;
}
