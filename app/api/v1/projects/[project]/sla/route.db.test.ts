import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as badge } from "../badge.svg/route";
import { GET as getRun } from "../runs/[id]/route";
import { POST as uploadRun } from "../runs/route";
import { GET as getPolicy, PUT as putPolicy } from "./route";

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];

setUpRouteTestDatabase();

const POLICY = {
  targets: [
    { metric: "p95", op: "<=", threshold: 50, unit: "ms" },
    { metric: "p99", op: "<=", threshold: 100, unit: "ms" },
    { metric: "errorRate", op: "<=", threshold: 0.01 },
  ],
};

describe("SLA policy and grades", () => {
  const slug = uniqueSlug("sla");
  let runId: string;
  let p99: Record<string, number>;

  beforeAll(async () => {
    const form = new FormData();
    p99 = {};
    for (const method of METHODS) {
      const bytes = readFileSync(path.join(FIXTURES, `ghz/baseline/round1/${method}.json`));
      form.append(method, new Blob([new Uint8Array(bytes)]), `${method}.json`);
      const report = JSON.parse(bytes.toString());
      p99[method] = report.latencyDistribution.find((entry: any) => entry.percentage === 99).latency / 1e6;
    }
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: form });
    const body = await response.json();
    expect(body.grade).toBeNull(); // no policy yet: "no SLA", never a fake grade
    runId = body.id;
  });

  const put = (policy: unknown, token?: string | null) =>
    call(putPolicy, `/api/v1/projects/${slug}/sla`, { project: slug }, { method: "PUT", body: JSON.stringify(policy), token });
  const grade = async () => (await (await call(getRun, `/api/v1/projects/${slug}/runs/${runId}`, { project: slug, id: runId })).json()).grade;

  it("only the admin sets the policy; bad targets are 400 with the path", async () => {
    expect((await put(POLICY, null)).status).toBe(401);
    const bad = await put({ targets: [{ metric: "p95", op: "=<", threshold: 50 }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].path).toBe("targets[0].op");
    expect((await put(POLICY)).status).toBe(200);
    const stored = await (await call(getPolicy, `/api/v1/projects/${slug}/sla`, { project: slug }, { token: null })).json();
    expect(stored.targets).toHaveLength(3);
  });

  it("the ghz baseline grades A: 5/5 endpoints compliant, 15/15 checks", async () => {
    await put(POLICY);
    const result = await grade();
    expect(result).toMatchObject({ letter: "A", score: 100, compliance: 1, passed: 15, evaluated: 15, endpointsCompliant: 5, endpointsEvaluated: 5 });
  });

  it("a p99 threshold below one endpoint's p99 lowers the grade to B, with that check first", async () => {
    const [worst, second] = Object.entries(p99).sort(([, a], [, b]) => b - a);
    const threshold = (worst![1] + second![1]) / 2; // between the two slowest: only the slowest fails
    await put({ targets: [POLICY.targets[0], { ...POLICY.targets[1], threshold }, POLICY.targets[2]] });
    const result = await grade();
    expect(result.letter).toBe("B");
    expect(result.score).toBeCloseTo(93.3, 1);
    expect(result.passed).toBe(14);
    expect(result.endpointsCompliant).toBe(4);
    expect(result.checks[0]).toMatchObject({ endpoint: worst![0], passed: false, target: { metric: "p99" } });
    expect(result.checks[0].value).toBeCloseTo(worst![1], 9);
  });

  it("the badge shows the latest run's grade", async () => {
    await put(POLICY);
    const response = await call(badge, `/api/v1/projects/${slug}/badge.svg`, { project: slug }, { token: null });
    expect(response.headers.get("content-type")).toMatch(/image\/svg\+xml/);
    expect(await response.text()).toContain(">A 100%</text>");
  });

  it("the upload answers a Markdown summary with the grade when asked", async () => {
    const bytes = readFileSync(path.join(FIXTURES, "ghz/baseline/round2/GetListing.json"));
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: bytes,
      headers: { accept: "text/markdown" },
      query: { label: "baseline" },
    });
    expect(response.status).toBe(201);
    const markdown = await response.text();
    // The SLA passed, but nothing earlier to compare with: the gate says so, it does not say PASS.
    expect(markdown.split("\n").slice(0, 3)).toEqual([
      "### ⚠️ Benchtrack: **INCONCLUSIVE**: too little history",
      "",
      "**Why:** too little history: no earlier ghz runs labelled baseline on main.",
    ]);
    expect(markdown).toMatch(/#### Benchtrack: baseline\n\nSLA grade \*\*A\*\* \(100%, 3\/3 checks, 1\/1 endpoints compliant\)/);
    expect(markdown).toMatch(/\| GetListing \| /);
  });
});
