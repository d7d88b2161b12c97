import { describe, expect, it } from "vitest";
import { errorOf } from "./fixtures/input-error-of";
import { readFixture } from "./fixtures/read-fixture";
import { parseUpload } from "./index";
import { MAX_BENCHMARKS } from "./validate";

// Limits before work (issue 36): benchmark parsers stop at MAX_BENCHMARKS where they meet it, naming the
// line or path, rather than building every benchmark of a million-line file first; a corrupted line is
// refused, never dropped silently. Built from the real fixtures, grown or damaged.

const GO_FIXTURE = "micro/go/baseline/gobench.txt";
const HYPERFINE_FIXTURE = "micro/hyperfine/baseline/hyperfine.json";
const BENCHMARKJS_FIXTURE = "micro/benchmarkjs/baseline/benchmarkjs.txt";

/** The fixture's configuration lines, then `count` distinct benchmarks shaped as its first result line. */
function goFileOf(count: number): string {
  const lines = readFixture(GO_FIXTURE).split("\n");
  const header = lines.filter((line) => /^(goos|goarch|pkg|cpu):/.test(line));
  const result = lines.find((line) => line.startsWith("Benchmark"))!;
  const [name, ...rest] = result.split(/\s+/);
  const base = name!.replace(/-\d+$/, "");
  return [...header, ...Array.from({ length: count }, (_, index) => [`${base}${index}-2`, ...rest].join("\t")), "PASS"].join("\n");
}

describe("benchmark caps", () => {
  it("a go test -bench file of 10,000 benchmarks is one run; at 10,001 it is refused at that line", () => {
    const within = parseUpload({ files: [{ name: "gobench.txt", text: goFileOf(MAX_BENCHMARKS) }], format: null });
    expect(within.run.endpoints).toHaveLength(MAX_BENCHMARKS);

    const error = errorOf(() => parseUpload({ files: [{ name: "gobench.txt", text: goFileOf(200_000) }], format: null }));
    expect(error.code).toBe("too_large");
    const header = goFileOf(0).split("\n").length - 1;
    expect(error.details[0]!.path).toBe(`gobench.txt: line ${header + MAX_BENCHMARKS + 1}`);
    expect(error.message).toMatch(/More than 10,000 benchmarks/);
  });

  it("hyperfine JSON with more results than the cap is refused before they are built", () => {
    const document = JSON.parse(readFixture(HYPERFINE_FIXTURE)) as { results: unknown[] };
    const [first] = document.results;
    const grown = { results: Array.from({ length: MAX_BENCHMARKS + 1 }, (_, index) => ({ ...(first as object), command: `cmd ${index}` })) };
    const error = errorOf(() => parseUpload({ files: [{ name: "hyperfine.json", text: JSON.stringify(grown) }], format: null }));
    expect(error.code).toBe("too_large");
    expect(error.details[0]!.path).toBe(`results[${MAX_BENCHMARKS}]`);
  });

  it("a load test still holds at most 1,000 endpoints", () => {
    const document = {
      schema: "benchtrack/v1",
      tool: "loadgen",
      endpoints: Array.from({ length: 1001 }, (_, index) => ({ name: `GET /item/${index}`, requests: 10, latency: { unit: "ms", p95: 5 } })),
    };
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: JSON.stringify(document) }], format: null }));
    expect(error.code).toBe("too_large");
    expect(error.message).toMatch(/Too many endpoints: 1001 \(at most 1000\)/);
  });
});

describe("corrupted text", () => {
  it("benchmark.js output with NUL bytes in two lines is refused naming both, not stored with 4 of its 6 benchmarks", () => {
    const lines = readFixture(BENCHMARKJS_FIXTURE).split("\n");
    lines[1] = lines[1]!.replace(" x ", " \u0000x ");
    lines[3] = lines[3]!.replace("ops/sec", "ops\u0000sec");
    const error = errorOf(() => parseUpload({ files: [{ name: "benchmarkjs.txt", text: lines.join("\n") }], format: null }));
    expect(error.code).toBe("wrong_format");
    expect(error.details.map((detail) => detail.path)).toEqual(["benchmarkjs.txt: line 2", "benchmarkjs.txt: line 4"]);
  });

  it("a NUL byte in any text format's file names its line (go test -bench)", () => {
    const text = goFileOf(3).replace("PASS", "PA\u0000SS");
    const error = errorOf(() => parseUpload({ files: [{ name: "gobench.txt", text }], format: null }));
    expect(error.details[0]!.path).toBe(`gobench.txt: line ${text.split("\n").length}`);
  });
});
