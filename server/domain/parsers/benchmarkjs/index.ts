/**
 * The benchmarkjs parsers' public face: `BENCHMARKJS_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import type { ToolDescriptor } from "../tool-descriptor";
import { isBenchmarkjsText, parseBenchmarkjsText } from "./benchmarkjs";

/**
 * benchmark.js prints hz with `hz.toFixed(hz < 100 ? 2 : 0)` (benchmark 2.1.4 `toStringBench`): whole ops/s
 * from 100 ops/s, 0.01 ops/s below. The stored mean 1000 / hz ms moves, for one step Δ of the rate, by
 * 1000·Δ / hz² = Δ · valueMs² / 1000 ms. At exactly 10 ms (100 ops/s, printable either way) the coarser.
 */
function benchmarkjsStepMs(valueMs: number): number {
  const rateStep = valueMs <= 10 ? 1 : 0.01;
  return (rateStep * valueMs * valueMs) / 1000;
}

/** benchmark.js: its String(bench) lines. */
export const BENCHMARKJS_TOOL: ToolDescriptor = {
  tool: "benchmarkjs",
  formats: [
    {
      info: {
        id: "benchmarkjs-text",
        extension: ".txt",
        title: "benchmark.js String(bench) lines",
        command: "suite.on('cycle', (event) => console.log(String(event.target))): node bench.js > bench.txt",
        upload: "body",
        keeps:
          "each `name x 38,523 ops/sec ±1.36% (41 runs sampled)` line: ops/s as printed, the mean time per operation (1000 / ops/s), the runs sampled, and the standard deviation benchmark.js's ±rme implies (its 95% t table)",
        drops:
          "min, max, percentiles and the samples (not in the text); `Fastest is …`; a benchmark that errored (`name: Error …`) and other output",
        resolution:
          "the printed ops/s: whole ops/s from 100 ops/s, 0.01 below, so the mean moves by mean² / 1000 ms (mean² / 100,000 ms under 100 ops/s)",
        checkedOn: "real output",
        recipe: `curl --data-binary @bench.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseBenchmarkjsText },
      markers: {
        text: isBenchmarkjsText,
      },
      // Only the mean is stored (1000 / hz): the step of the printed ops/s.
      latency: { rule: (_stat, valueMs) => benchmarkjsStepMs(valueMs), reciprocalRate: true },
    },
  ],
};
