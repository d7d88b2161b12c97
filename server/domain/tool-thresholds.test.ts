import { describe, expect, it } from "vitest";
import { decideOutcome } from "./gate/outcome";
import { thresholdsOf } from "./gate/judge";
import { parseUpload } from "./parsers";
import { readFixture } from "./parsers/fixtures/read-fixture";
import { describeThreshold, thresholdSubject } from "./tool-thresholds";

const gateInput = (run: ReturnType<typeof parseUpload>["run"]) => ({
  comparison: null,
  failOn: ["thresholds" as const],
  grade: null,
  thresholds: thresholdsOf(run),
  tool: run.tool,
  baselineHow: "no earlier runs",
  openRegression: null,
});

describe("a tool threshold in words", () => {
  it("names artillery's metric once: its ensure check is a whole comparison", () => {
    // The real console output of the baseline run, its p95 check failed (as the managedasync run's did).
    const text = readFixture("artillery/baseline/round1/artillery-console.txt").replace(
      "ok: http.response_time.p95 < 35",
      "fail: http.response_time.p95 < 35",
    );
    const { run } = parseUpload({ files: [{ name: "artillery-console.txt", text }] });
    const failed = run.thresholds.filter((threshold) => !threshold.passed);
    expect(failed).toEqual([{ metric: "http.response_time.p95", expression: "http.response_time.p95 < 35", passed: false }]);
    expect(failed.map(describeThreshold)).toEqual(["http.response_time.p95 < 35"]);
    expect(decideOutcome(gateInput(run)).reasons).toEqual(["1 of 2 artillery thresholds failed: http.response_time.p95 < 35"]);
  });

  it("keeps k6's metric beside its expression, which does not name it", () => {
    const text = readFixture("k6/managedasync/round1/summary.json");
    const { run } = parseUpload({ files: [{ name: "summary.json", text }] });
    const failed = run.thresholds.filter((threshold) => !threshold.passed);
    expect(failed.map(describeThreshold)).toEqual(["http_req_duration p(95)<35", "http_req_duration p(99)<60"]);
    expect(decideOutcome(gateInput(run)).reasons).toEqual([
      "2 of 4 k6 thresholds failed: http_req_duration p(95)<35, http_req_duration p(99)<60",
    ]);
  });

  it("looks for the metric as a whole name, not as a part of a longer one", () => {
    expect(thresholdSubject({ metric: "http.response_time", expression: "http.response_time.p95 < 35" })).toBe(
      "http.response_time",
    );
    expect(thresholdSubject({ metric: "p95", expression: "p95 < 200" })).toBeNull();
    expect(thresholdSubject({ metric: "http.response_time.p95", expression: "p95 < 200" })).toBe("http.response_time.p95");
    expect(thresholdSubject({ metric: "ensure", expression: "vusers.failed == 0 and http.requests > 500" })).toBe("ensure");
    expect(thresholdSubject({ metric: "checks{check:a}", expression: "rate>0.98" })).toBe("checks{check:a}");
  });
});
