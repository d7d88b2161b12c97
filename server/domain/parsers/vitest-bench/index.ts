/**
 * The vitest-bench parsers' public face: `VITEST_BENCH_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isVitestBenchJson, isVitestBenchText, parseVitestBench, parseVitestBenchText } from "./vitest-bench";

/** vitest bench: --outputJson and its console output. */
export const VITEST_BENCH_TOOL: ToolDescriptor = {
  tool: "vitest",
  formats: [
    {
      info: {
        id: "vitest-bench",
        extension: ".json",
        title: "vitest bench --outputJson",
        command: "vitest bench --run --outputJson vitest-bench.json",
        upload: "body",
        keeps:
          "one benchmark per bench(), grouped by its describe block as vitest names it with the file (`micro.bench.js > json > stringify 200 records`): mean, sd, min, max, median, p75, p99, p99.5, p99.9 and the sample count as written (vitest 4 writes no samples; a filled samples list is used as samples), hz as ops/s",
        drops:
          "rme, variance, sem, moe, rank, totalTime, the file's absolute path; the file states no hardware and no version",
        resolution: "full precision (float64 ms from performance.now())",
        checkedOn: "real output",
        recipe: `curl --data-binary @vitest-bench.json $AUTH "$RUNS?branch=main&commit=9f1c2e7"`,
      },
      parser: { kind: "json", parse: parseVitestBench },
      markers: {
        json: isVitestBenchJson,
      },
      // tinybench's times are performance.now() differences, float64 ms (fixture: `0.0642760000000635`).
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "vitest-bench-text",
        extension: ".txt",
        title: "vitest bench console output",
        command: "NO_COLOR=1 vitest bench --run > vitest-bench.txt 2>&1",
        upload: "body",
        keeps:
          "each group's table (`name hz min max mean p75 p99 p995 p999 rme samples`), named as the JSON report names them: mean, min, max, p75, p99, p99.5, p99.9, the sample count, hz as ops/s; vitest's version (RUN line)",
        drops: "median and sd (not printed), rme, the BENCH Summary (ratios), vitest's notices",
        resolution: "as printed: 4 decimals of ms (0.1 µs) below 100 ms, 2 decimals (10 µs) from 100 ms",
        checkedOn: "real output",
        recipe: `NO_COLOR=1 npx vitest bench --run 2>&1 | tee vitest-bench.txt\ncurl --data-binary @vitest-bench.txt $AUTH "$RUNS?branch=main"`,
      },
      parser: { kind: "text", parse: parseVitestBenchText },
      markers: {
        text: isVitestBenchText,
      },
      // The console prints ms with `toFixed(4)` below 100 and `toFixed(2)` from 100 on (reporters/renderers
      // `formatNumber`): the value itself decides. Fixture: `0.0643` where the JSON has 0.0642760000000635.
      latency: { rule: (_stat, valueMs) => (valueMs < 100 ? 0.0001 : 0.01) },
    },
  ],
};
