/**
 * Which benchmarks each variant of the evaluation suites changed (scripts/evaluate/micro/README.md,
 * "Variants: what each changes"), by the name Benchtrack gives them. The harness (scripts/evaluate-benchmarks.ts)
 * reads only this and the runs' files: it never looks at a file's path or at the numbers to decide what changed.
 */

/** One suite of an evaluation tool: which of its files is one upload, and what each variant changed. */
export interface SuiteTruth {
  /** The tool folder under scripts/evaluate/micro. */
  tool: string;
  /** A name for the reports. */
  suite: string;
  /** Which of a run's files is this suite's upload (the first whose name matches). */
  file: RegExp;
  /** Per variant, the benchmarks whose code changed (every other benchmark of the suite ran the base code). */
  changed: Record<"one" | "half" | "most" | "small", readonly string[]>;
}

const go = (name: string) => `example.com/microbench > ${name}`;
const SORTS_GO = [go("BenchmarkSortInts/n=100"), go("BenchmarkSortInts/n=1000"), go("BenchmarkSortInts/n=10000")];
const SORTS_PY = ["sort > test_sort[100]", "sort > test_sort[1000]", "sort > test_sort[10000]"];
const FILLS = ["BM_VectorFill/64", "BM_VectorFill/512", "BM_VectorFill/4096", "BM_VectorFill/32768"];
const COPIES = ["BM_Memcpy/1024", "BM_Memcpy/4096", "BM_Memcpy/32768", "BM_Memcpy/65536"];

export const SUITES: readonly SuiteTruth[] = [
  {
    tool: "go",
    suite: "go test -bench",
    file: /\.txt$/,
    changed: {
      one: [go("BenchmarkMapLookup")],
      half: [go("BenchmarkEncodeJSON"), go("BenchmarkJoinInts"), go("BenchmarkMapLookup"), go("BenchmarkChecksum")],
      most: [go("BenchmarkEncodeJSON"), ...SORTS_GO, go("BenchmarkJoinInts"), go("BenchmarkChecksum")],
      small: [go("BenchmarkChecksum")],
    },
  },
  {
    tool: "hyperfine",
    suite: "hyperfine (3 commands)",
    file: /^run-\d+\.json$|^pair-\d+-(base|head)\.json$/,
    changed: {
      one: ["python3 wordfreq.py data.txt"],
      half: ["sort data.txt", "python3 wordfreq.py data.txt"],
      most: ["gzip -c -6 data.txt", "python3 wordfreq.py data.txt"],
      small: ["python3 wordfreq.py data.txt"],
    },
  },
  {
    tool: "hyperfine",
    suite: "hyperfine --parameter-scan (3 gzip levels)",
    file: /\.scan\.json$/,
    changed: { one: [], half: [], most: ["gzip -c -1 data.txt", "gzip -c -5 data.txt", "gzip -c -9 data.txt"], small: [] },
  },
  {
    tool: "pytest-benchmark",
    suite: "pytest-benchmark",
    file: /\.json(\.gz)?$/,
    changed: {
      one: ["lookup > test_dict_lookup"],
      half: ["strings > test_join", ...SORTS_PY],
      most: ["strings > test_concat", "json > test_json_dumps", "json > test_json_loads", ...SORTS_PY, "lookup > test_dict_lookup"],
      small: ["strings > test_join", "json > test_json_loads"],
    },
  },
  {
    tool: "google-benchmark",
    suite: "Google Benchmark",
    file: /\.json(\.gz)?$/,
    changed: {
      one: ["BM_StringJoin"],
      half: ["BM_Sort/1000", "BM_Sort/10000", ...COPIES],
      most: [...FILLS, "BM_Sort/1000", "BM_Sort/10000", "BM_StringJoin", ...COPIES],
      small: ["BM_MapLookup"],
    },
  },
  {
    tool: "vitest",
    suite: "vitest bench",
    file: /\.json$/,
    changed: {
      one: ["micro.bench.js > lookup > Map.has x1000"],
      half: ["micro.bench.js > json > stringify 200 records", "micro.bench.js > sort > sort 1000 numbers", "micro.bench.js > sort > sort 10000 numbers"],
      most: ["micro.bench.js > json > stringify 200 records", "micro.bench.js > json > parse 200 records", "micro.bench.js > lookup > Map.has x1000", "micro.bench.js > sort > sort 1000 numbers", "micro.bench.js > sort > sort 10000 numbers"],
      small: ["micro.bench.js > json > stringify 200 records", "micro.bench.js > strings > join 1000 ints"],
    },
  },
  {
    tool: "benchmarkjs",
    suite: "benchmark.js",
    file: /\.txt$/,
    changed: {
      one: ["Map#has"],
      half: ["JSON#stringify", "sort#1000", "sort#10000"],
      most: ["JSON#stringify", "JSON#parse", "Map#has", "sort#1000", "sort#10000"],
      small: ["JSON#stringify", "Array#join"],
    },
  },
];
