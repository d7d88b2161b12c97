import { describe, expect, it } from "vitest";
import { parseArtilleryConsole } from "./artillery-console";
import { parseArtilleryJson } from "./artillery-json";
import { CONSOLE_FILE, consoleText, inSummary, PLUGIN, reportOf } from "../fixtures/artillery-outputs";
import { errorOf } from "../fixtures/input-error-of";

/** An independent read of the summary block: `name: .... value` and `  stat: .... value` lines after the header. */
function summaryValue(text: string, name: string, stat?: string): number {
  const block = text.slice(text.lastIndexOf("Summary report @"));
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = stat
    ? new RegExp(`^${escaped}:\\n(?:  .*\\n)*?  ${stat}: \\.+ (\\S+)$`, "m")
    : new RegExp(`^${escaped}: \\.+ (\\S+?)(?:/sec)?$`, "m");
  return Number(pattern.exec(block)?.[1]);
}

describe("artillery console output", () => {
  const run = parseArtilleryConsole(consoleText, CONSOLE_FILE);

  it("reads the final summary block's own numbers", () => {
    expect(run.format).toBe("artillery-console");
    expect(run.aggregate.requests).toBe(600);
    expect(run.aggregate.requests).toBe(summaryValue(consoleText, "http.requests"));
    expect(run.aggregate.statusCodes).toEqual({
      "200": summaryValue(consoleText, "http.codes.200"),
      "500": summaryValue(consoleText, "http.codes.500"),
    });
    expect(run.aggregate.failures).toBe(summaryValue(consoleText, "http.codes.500"));
    // The console gives no span; artillery's http.request_rate (a mean of window rates) is a run metric.
    expect(run.aggregate.throughput).toBeNull();
    expect(run.metrics["http.request_rate"]).toEqual({ value: 48, unit: "/s", better: null });
    expect(run.aggregate.latency).toEqual({
      minMs: 1,
      meanMs: 8.7,
      maxMs: 55,
      stdDevMs: null,
      percentiles: { "50": 7, "95": 22.9, "99": 30.3 },
    });
    expect(run.startedAt).toBeNull(); // "Summary report @ 09:46:22(+0000)": a time of day only
    expect(run.durationSeconds).toBeNull();
    expect(run.aggregate.timeline).toBeNull(); // intermediate blocks are not read
  });

  it("reads every endpoint's summary and codes", () => {
    const names = [
      ...consoleText
        .slice(consoleText.lastIndexOf("Summary report @"))
        .matchAll(/^plugins\.metrics-by-endpoint\.response_time\.(.+):$/gm),
    ].map((m) => m[1]);
    expect(run.endpoints.map((e) => e.name)).toEqual(names);
    for (const endpoint of run.endpoints) {
      const timeName = `${PLUGIN}response_time.${endpoint.name}`;
      expect(endpoint.latency.minMs).toBe(summaryValue(consoleText, timeName, "min"));
      expect(endpoint.latency.maxMs).toBe(summaryValue(consoleText, timeName, "max"));
      expect(endpoint.latency.meanMs).toBe(summaryValue(consoleText, timeName, "mean"));
      expect(endpoint.latency.percentiles).toEqual({
        "50": summaryValue(consoleText, timeName, "median"),
        "95": summaryValue(consoleText, timeName, "p95"),
        "99": summaryValue(consoleText, timeName, "p99"),
      });
      expect(endpoint.requests).toBe(120);
      expect(endpoint.throughput).toBeNull();
    }
    expect(run.endpoints.find((e) => e.name === "ListListings")).toMatchObject({
      failures: 1,
      statusCodes: { "200": 119, "500": 1 },
    });
  });

  it("agrees with report.json of the same run", () => {
    const json = parseArtilleryJson(reportOf("baseline"));
    for (const endpoint of run.endpoints) {
      const same = json.endpoints.find((e) => e.name === endpoint.name);
      expect(endpoint).toMatchObject({
        requests: same?.requests,
        failures: same?.failures,
        statusCodes: same?.statusCodes,
      });
      expect(endpoint.latency.percentiles["95"]).toBe(same?.latency.percentiles["95"]);
    }
    const { "http.request_rate": _rate, ...consoleMetrics } = run.metrics;
    expect(consoleMetrics).toEqual(json.metrics);
  });

  it("reads the ensure checks as thresholds", () => {
    expect(run.thresholds).toEqual([
      { metric: "ensure", expression: "vusers.failed == 0 and http.requests > 500", passed: true },
      { metric: "http.response_time.p95", expression: "http.response_time.p95 < 35", passed: true },
    ]);
    expect(run.notes).toEqual([]);
  });

  it("reads a failed check as not passed; an optional one as a check, which never fails CI", () => {
    const failed = consoleText
      .replace("ok: http.response_time.p95 < 35", "fail: http.response_time.p95 < 35")
      .replace("ok: vusers.failed == 0 and http.requests > 500", "fail: p99 < 20 (optional)");
    const run = parseArtilleryConsole(failed, CONSOLE_FILE);
    expect(run.thresholds).toEqual([
      { metric: "http.response_time.p95", expression: "http.response_time.p95 < 35", passed: false },
    ]);
    expect(run.checks).toEqual([{ name: "p99 < 20", group: "ensure (optional)", passes: 0, fails: 1 }]);
    expect(run.notes.join(" ")).toContain("1 failed ensure check(s) are optional");
  });

  it("is not misled by colours, CRLF, or summary lines repeated after the checks", () => {
    const summaryBlock = consoleText.slice(consoleText.lastIndexOf("http.codes.200"), consoleText.indexOf("Log file:"));
    const noisy = `${consoleText}${summaryBlock.replace("599", "1")}`
      .replace("ok: http", "\u001b[32mok\u001b[39m: http")
      .replaceAll("\n", "\r\n");
    const reread = parseArtilleryConsole(noisy, CONSOLE_FILE);
    expect(reread.thresholds).toEqual(run.thresholds);
    expect(reread.aggregate).toEqual(run.aggregate);
    expect(reread.endpoints).toEqual(run.endpoints);
  });

  it("reads a summary of other endpoints and counts the same way (and skips cut names)", () => {
    const longName = `${PLUGIN}${"x".repeat(60)}.codes.200:`;
    const cut = `${longName.slice(0, 76)}... .. 5`;
    const variant = inSummary(consoleText, (tail) =>
      tail
        .replaceAll("SearchListings", "Search.v2 (by text)")
        .replace(
          "http.codes.500: ................................................................ 1",
          `http.codes.500: ...... 1\nhttp.codes.404: ...... 9\n${cut}`,
        )
        .replace(/^(http\.requests: \.+ )600$/m, "$1609"),
    );
    const reread = parseArtilleryConsole(variant, CONSOLE_FILE);
    expect(reread.endpoints.map((e) => e.name)).toContain("Search.v2 (by text)");
    expect(reread.aggregate).toMatchObject({
      requests: 609,
      failures: 10,
      statusCodes: { "200": 599, "500": 1, "404": 9 },
    });
    expect(reread.notes.join(" ")).toContain("1 metric name(s) longer than 79 characters");
  });

  it.each([
    [
      "a counter whose value is garbled",
      (t: string) => inSummary(t, (s) => s.replace(/^(http\.codes\.500: \.+ )1$/m, "$11x")),
      /^http\.codes\.500: \.+ 1x$/m,
    ],
    [
      "a statistic that is garbled",
      (t: string) => inSummary(t, (s) => s.replace(/^( {2}p95: \.+ )22\.9$/m, "$122,9")),
      /^ {2}p95: \.+ 22,9$/m,
    ],
    [
      "a line without its colon",
      (t: string) => inSummary(t, (s) => s.replace(/^http\.requests: (\.+ 600)$/m, "http.requests $1")),
      /^http\.requests \.+ 600$/m,
    ],
    ["a check that is neither ok nor fail", (t: string) => t.replace("ok: vusers", "okay: vusers"), /^okay: vusers/m],
  ])("refuses %s, naming its line", (_what, change, locate) => {
    const text = change(consoleText);
    const lines = text.split("\n");
    const line = lines.findLastIndex((l) => locate.test(l)) + 1;
    expect(line).toBeGreaterThan(240);
    const error = errorOf(() => parseArtilleryConsole(text, CONSOLE_FILE));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`${CONSOLE_FILE}: line ${line}`);
  });

  it("refuses an output cut before its summary", () => {
    const cutShort = consoleText.slice(0, consoleText.indexOf("All VUs finished"));
    const error = errorOf(() => parseArtilleryConsole(cutShort, CONSOLE_FILE));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toMatch(/^artillery-console\.txt: line \d+$/);
  });
});
