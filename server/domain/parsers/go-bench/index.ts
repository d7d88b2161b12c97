/**
 * The go test -bench parsers' public face: `GO_BENCH_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import type { ToolDescriptor } from "../tool-descriptor";
import { isGoBenchText, isGoTest2JsonLine, parseGoBenchJson, parseGoBenchText } from "./go-bench";

/**
 * Go prints ns/op, like every `b.ReportMetric` value, with testing's `prettyPrint` (testing/benchmark.go):
 * `%.0f` from 999.95 ns, else four significant digits (`%.1f` from 99.995, `%.2f` from 9.9995 … down to
 * `%.7f`). On the printed value that is whole ns from 1,000 ns and a decade finer per decade below.
 * (Go before prettyPrint printed whole ns from 100 ns; files that old are not told apart.) Checked on
 * the fixtures: `84016 ns/op`, `18.38 ns/lookup`.
 */
function goPrintStepMs(valueMs: number): number {
  const ns = valueMs * 1e6;
  let stepNs = 1;
  let threshold = 1_000;
  // A stored value a float's error under its printed decade (1000 → 999.9999999999) is of that decade.
  while (ns < threshold * (1 - 1e-9) && stepNs > 1e-7 * (1 + 1e-9)) {
    threshold /= 10;
    stepNs /= 10;
  }
  return stepNs * 1e-6;
}

/** go test -bench: its text (benchstat's input) and -json (test2json events, read as text). */
export const GO_BENCH_TOOL: ToolDescriptor = {
  tool: "go",
  formats: [
    {
      info: {
        id: "go-bench-text",
        extension: ".txt",
        title: "go test -bench text (benchstat's input)",
        command: "go test -run '^$' -bench . -benchmem -count 5 ./... > bench.txt",
        upload: "body",
        keeps:
          "one benchmark per package (`pkg:`, the group) and name, sub-benchmarks included; each -count line as a sample of ns/op (exact percentiles and a histogram); B/op, allocs/op, MB/s and b.ReportMetric units (ns/lookup, hits/op…) as metrics under Go's unit, the mean over the lines, with the unit's direction; the testbed from goos/goarch/cpu; pkg, goos, goarch and a single GOMAXPROCS as attributes; notes for FAIL lines",
        drops:
          "iteration counts; the -N GOMAXPROCS suffix when a benchmark ran at one value (several, as with -cpu 1,2,4, stay apart under the names Go prints); other configuration lines, logs and the code's own output; Go's version (not in the file)",
        resolution:
          "samples as Go prints ns/op: whole ns from 1,000 ns, four significant digits below (0.1 ns from 100 ns, 0.01 ns from 10 ns…); the mean over the samples full precision",
        checkedOn: "real output",
        recipe: `curl --data-binary @bench.txt $AUTH "$RUNS?label=baseline&branch=main&commit=9f1c2e7"`,
      },
      parser: { kind: "text", parse: parseGoBenchText },
      markers: {
        text: isGoBenchText,
      },
      // go test: each sample is ns/op as printed (min, max and the interpolated percentiles are only that
      // precise); the mean over the samples is ours. -json carries the very same text.
      latency: {
        rule: (stat, valueMs) => (stat === "mean" ? 0 : goPrintStepMs(valueMs)),
        interpolatedPercentiles: true,
      },
    },
    {
      info: {
        id: "go-bench-json",
        extension: ".json",
        title: "go test -bench -json (test2json)",
        command: "go test -run '^$' -bench . -benchmem -count 5 -json ./... > bench.json",
        upload: "body",
        keeps:
          "as the text, read from the output events rejoined per package (result lines test2json split in two included), plus the first event's time as the start",
        drops: "as the text; the other events (run, pass, fail) and their times",
        resolution:
          "as the text: samples whole ns from 1,000 ns, four significant digits below; the mean full precision",
        checkedOn: "real output",
        recipe: `gzip -c bench.json | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseGoBenchJson },
      markers: {
        // `go test -json` is JSON Lines (test2json events), told by its first line and read as text by its parser.
        firstLine: isGoTest2JsonLine,
      },
      latency: {
        rule: (stat, valueMs) => (stat === "mean" ? 0 : goPrintStepMs(valueMs)),
        interpolatedPercentiles: true,
      },
    },
  ],
};
