import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { comparableUpload } from "./comparable-run.fixture";
import { compareRuns } from "./compare-runs";
import { DEFAULT_COMPARE_OPTIONS } from "./comparison";

// Exact counts through a comparison, on the demo's real go test -bench runs (scripts/seed/go-bench/runs:
// the package as it is, and with JoinInts rewritten to format each int with fmt.Sprint). allocs/op is
// the same in every repetition of a run, so it is exact; a change is judged without noise or history.
const RUNS = path.resolve(import.meta.dirname, "../../../scripts/seed/go-bench/runs");
const load = (file: string) => comparableUpload(file, readFileSync(path.join(RUNS, file), "utf8"));
const GATE = { ...DEFAULT_COMPARE_OPTIONS, test: "student" as const, metrics: "gate" as const };
const JOIN = "example.com/microbench > BenchmarkJoinInts";

describe("exact counts", () => {
  it("allocs/op 2 → 2,002 is an exact regression of JoinInts on the first run: no history, no test, and the endpoint regressed", () => {
    const comparison = compareRuns([load("baseline-1.txt")], [load("slow-joinints-1.txt")], GATE);
    const join = comparison.endpoints.find((endpoint) => endpoint.name === JOIN)!;
    const allocs = join.metrics.find((metric) => metric.metric === "metrics.allocs/op")!;
    expect(allocs).toMatchObject({ test: "exact", verdict: "regressed", pValue: null, gate: false });
    expect(allocs.reason).toBe("2 → 2,002 allocs/op (+100,000.0%), exact: a change of the code, not noise");
    expect(join.verdict).toBe("regressed");
    expect(comparison.verdict).toBe("regressed");
  });

  it("counts that did not change are unchanged exactly, and never named: 0 of 72 unchanged pairs name a count", () => {
    const files = Array.from({ length: 9 }, (_, index) => `baseline-${index + 1}.txt`);
    for (const base of files) {
      for (const head of files) {
        if (base === head) continue;
        const comparison = compareRuns([load(base)], [load(head)], GATE);
        const counts = comparison.endpoints.flatMap((endpoint) => endpoint.metrics.filter((metric) => metric.test === "exact"));
        expect(counts.length, `${base} → ${head}`).toBeGreaterThan(0);
        expect(counts.filter((metric) => metric.verdict !== "unchanged"), `${base} → ${head}`).toEqual([]);
      }
    }
  });

  it("a count that varies between repetitions is not exact: JoinInts' B/op is compared as any metric", () => {
    const comparison = compareRuns([load("baseline-1.txt")], [load("slow-joinints-1.txt")], DEFAULT_COMPARE_OPTIONS);
    const join = comparison.endpoints.find((endpoint) => endpoint.name === JOIN)!;
    const bytes = join.metrics.find((metric) => metric.metric === "metrics.B/op")!;
    expect(bytes.test).not.toBe("exact");
  });
});
