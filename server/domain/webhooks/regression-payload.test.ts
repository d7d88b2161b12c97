import { describe, expect, it } from "vitest";
import { buildRegressionWebhookPayload, escapeSlack } from "./regression-payload";

describe("buildRegressionWebhookPayload", () => {
  const regression = {
    id: "reg1",
    kind: "regression" as const,
    metric: "p95",
    unit: "ms",
    beforeValue: 12.3,
    afterValue: 15.2,
    deltaPct: 23.58,
    pValue: 0.0004,
    endpoint: "GET /api/listings/:id",
    protocol: "http",
    firstRun: { id: "run6", label: "nightly", branch: "main", commit: "9f1c2e7abcdef" },
    links: {
      comparePath: "/projects/listings/compare?base=run5%2Crun4&head=run6",
      trendPath: "/projects/listings/endpoints/GET%20%2Fapi%2Flistings%2F%3Aid?cp=run6&lines=p95",
    },
  };

  it("gives a Slack-ready one-line text and absolute links", () => {
    const payload = buildRegressionWebhookPayload(
      { slug: "listings", name: "Listings" },
      regression,
      "https://bench.example.com/",
    );
    expect(payload.text).toBe(
      'Regression in Listings: p95 of GET /api/listings/:id +23.6% (12.3 ms → 15.2 ms, p < 0.001) since run "nightly" on main @ 9f1c2e7. ' +
        "<https://bench.example.com/projects/listings/regressions#regression-reg1|Open in Benchtrack>",
    );
    expect(payload.text).not.toContain("\n");
    expect(payload.regression).toEqual({
      id: "reg1",
      kind: "regression",
      endpoint: "GET /api/listings/:id",
      metric: "p95",
      before: 12.3,
      after: 15.2,
      deltaPct: 23.58,
      pValue: 0.0004,
      firstRunId: "run6",
      firstRun: {
        label: "nightly",
        branch: "main",
        commit: "9f1c2e7abcdef",
        url: "https://bench.example.com/projects/listings/runs/run6",
      },
      url: "https://bench.example.com/projects/listings/regressions#regression-reg1",
      compareUrl: "https://bench.example.com/projects/listings/compare?base=run5%2Crun4&head=run6",
      trendUrl:
        "https://bench.example.com/projects/listings/endpoints/GET%20%2Fapi%2Flistings%2F%3Aid?cp=run6&lines=p95",
    });
  });

  it("names the aggregate 'all endpoints', escapes Slack's <, > and &, and formats each metric in its unit", () => {
    const payload = buildRegressionWebhookPayload(
      { slug: "gw", name: "Gateway <prod> & co" },
      {
        ...regression,
        kind: "improvement",
        metric: "errorRate",
        unit: null,
        beforeValue: 0.02,
        afterValue: 0.005,
        deltaPct: -75,
        pValue: null,
        endpoint: null,
        firstRun: { id: "r9", label: null, branch: null, commit: null },
        links: { comparePath: null, trendPath: "/projects/gw/endpoints/_all?cp=r9&lines=p95" },
      },
      "http://localhost:3000",
    );
    expect(payload.text).toBe(
      "Improvement in Gateway &lt;prod&gt; &amp; co: errorRate of all endpoints −75.0% (2.00% → 0.50%) since run r9. " +
        "<http://localhost:3000/projects/gw/regressions#regression-reg1|Open in Benchtrack>",
    );
    expect(payload.project).toEqual({ slug: "gw", name: "Gateway <prod> & co" }); // JSON fields stay raw
    expect(payload.regression.endpoint).toBeNull();
    expect(payload.regression.compareUrl).toBeNull();
    expect(payload.regression.trendUrl).toBe("http://localhost:3000/projects/gw/endpoints/_all?cp=r9&lines=p95");
  });
});

describe("escapeSlack", () => {
  it("escapes &, < and > (in that order, so an escape is never escaped twice), and nothing else", () => {
    expect(escapeSlack("a < b && c > d")).toBe("a &lt; b &amp;&amp; c &gt; d");
    expect(escapeSlack("&lt;")).toBe("&amp;lt;");
    expect(escapeSlack('"quoted" *bold* _it_ `code`')).toBe('"quoted" *bold* _it_ `code`');
  });
});

describe("buildRegressionWebhookPayload of a benchmark", () => {
  it("words the text as a benchmark's: its mean time per operation in its unit", () => {
    const payload = buildRegressionWebhookPayload(
      { slug: "micro", name: "Micro" },
      {
        id: "reg2",
        kind: "regression",
        metric: "mean",
        unit: "ms",
        beforeValue: 0.004761,
        afterValue: 0.00622,
        deltaPct: 30.64,
        pValue: 0.0004,
        endpoint: "example.com/sort > BenchmarkSortInts/n=100",
        protocol: "benchmark",
        firstRun: { id: "run8", label: null, branch: "main", commit: null },
        links: { comparePath: null, trendPath: "/projects/micro/endpoints/x" },
      },
      "https://bench.example.com",
    );
    expect(payload.text).toBe(
      "Regression in Micro: mean time/op of example.com/sort &gt; BenchmarkSortInts/n=100 +30.6% (4.76 µs → 6.22 µs, p < 0.001) since run run8 on main. " +
        "<https://bench.example.com/projects/micro/regressions#regression-reg2|Open in Benchtrack>",
    );
    // The fields for programs keep the metric's own name.
    expect(payload.regression).toMatchObject({
      metric: "mean",
      endpoint: "example.com/sort > BenchmarkSortInts/n=100",
    });
  });
});
