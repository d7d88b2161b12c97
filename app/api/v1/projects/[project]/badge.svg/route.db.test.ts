import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { readFixture } from "@/server/domain/parsers/fixtures/read-fixture";
import { createSeededRandom } from "@/server/domain/stats/random";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi } from "@/server/testing/seed";
import { PATCH as patchIncident } from "../incidents/[number]/route";
import { GET as listIncidents } from "../incidents/route";
import { POST as uploadRun } from "../runs/route";
import { PUT as putPolicy } from "../sla/route";
import { GET as getBadge } from "./route";

// The README badge through its route, on the embedded database and (with DATABASE_URL) PostgreSQL: the
// SLA grade by default, and with ?kind=gate the outcome the latest run on main stored at its upload
// (uploaded here: a real k6 summary, then a nightly series that steps 30% slower) and the open incidents
// change-point detection opened on it.

setUpRouteTestDatabase();

interface Answer {
  id: string;
  outcome: "pass" | "fail" | "inconclusive";
}

const badge = (slug: string, query: Record<string, string> = {}) =>
  call(getBadge, `/api/v1/projects/${slug}/badge.svg`, { project: slug }, { query, token: null });

/** The badge's two texts as one line: "gate | fail · 1 incident". */
async function wordsOf(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
  const texts = [...(await response.text()).matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
  return texts.join(" | ");
}

const gateBadge = async (slug: string, query: Record<string, string> = {}) => wordsOf(await badge(slug, { kind: "gate", ...query }));

async function upload(slug: string, body: string, query: Record<string, string>): Promise<Answer> {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, query });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Answer;
}

/** A nightly run of one endpoint on main at `factor` × 100 ms p95 (noise CV 3%), an hour after the last. */
function nightlySeries(slug: string) {
  const random = createSeededRandom(2027);
  let hour = 0;
  return (factor: number) => {
    const p95 = 100 * factor * (1 + random.gaussian(0, 0.03));
    const document = {
      schema: "benchtrack/v1",
      tool: "loadgen",
      label: "nightly",
      startedAt: new Date(Date.UTC(2026, 0, 1, hour++)).toISOString(),
      endpoints: [{ name: "GET /listings", requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 3, p95, p99: p95 * 1.4 } }],
    };
    return upload(slug, JSON.stringify(document), { branch: "main" });
  };
}

const K6_SUMMARY = readFixture("k6/baseline/round1/summary.json");

describe("GET /api/v1/projects/:project/badge.svg", () => {
  it("an unknown project: the gate badge answers as the SLA badge does (404)", async () => {
    const slug = uniqueSlug("badge-none");
    const [sla, gate] = [await badge(slug), await badge(slug, { kind: "gate" })];
    expect([sla.status, gate.status]).toEqual([404, 404]);
    expect(((await gate.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("an unknown kind: 400 naming the kind parameter", async () => {
    const slug = uniqueSlug("badge-kind");
    await createProjectThroughApi(slug);
    const response = await badge(slug, { kind: "bogus" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; details: { path: string; message: string }[] } };
    expect(error.code).toBe("bad_request");
    expect(error.details).toEqual([{ path: "kind", message: 'must be "sla" or "gate"' }]);
  });

  it("a run stored before outcomes were kept says 'unknown', never a pass", async () => {
    const slug = uniqueSlug("badge-unknown");
    const run = await upload(slug, K6_SUMMARY, { branch: "main" });
    await (await getDb()).run.update({ where: { id: run.id }, data: { outcome: null } });
    expect(await gateBadge(slug)).toBe("gate | unknown");
  });

  describe("a project's history on main", () => {
    const slug = uniqueSlug("badge-gate");
    const nightly = nightlySeries(slug);

    it("no run on main: 'no runs' (a pull request's run is not the project's gate)", async () => {
      await createProjectThroughApi(slug);
      expect(await gateBadge(slug)).toBe("gate | no runs");
      await upload(slug, K6_SUMMARY, { branch: "feature/x", started_at: "2025-12-01T00:00:00Z" });
      expect(await gateBadge(slug)).toBe("gate | no runs");
    });

    it("the first run on main: the outcome its upload stored", async () => {
      const first = await upload(slug, K6_SUMMARY, { branch: "main", started_at: "2025-12-31T00:00:00Z" });
      expect(first.outcome).toBe("inconclusive"); // nothing earlier to compare with
      expect(await gateBadge(slug)).toBe(`gate | ${first.outcome}`);
      expect(await (await badge(slug, { kind: "gate" })).text()).toContain('fill="#9a6700"');
    });

    it("a flat series passes; a step 30% slower fails", async () => {
      let answer: Answer | null = null;
      for (let run = 0; run < 12; run++) answer = await nightly(1);
      expect(answer!.outcome).toBe("pass");
      const passing = await (await badge(slug, { kind: "gate" })).text();
      expect(passing).toContain(">pass</text>");
      expect(passing).toContain('fill="#2e7d32"');
      expect(passing).toContain("<title>CI gate of the latest run on main: pass; no open incidents in the project</title>");

      const step = await nightly(1.3);
      expect(step.outcome).toBe("fail");
      expect(await gateBadge(slug)).toBe("gate | fail");
      expect(await (await badge(slug, { kind: "gate" })).text()).toContain('fill="#c62828"');
    });

    it("counts the incidents detection opened while open or investigating, not once accepted", async () => {
      for (let run = 0; run < 6; run++) expect((await nightly(1.3)).outcome).toBe("fail");
      expect((await runQueuedJobsNow()).failed).toBe(0);
      const active = (await (await call(listIncidents, `/api/v1/projects/${slug}/incidents`, { project: slug })).json()) as { number: number }[];
      expect(active.map((incident) => incident.number)).toEqual([1]);
      expect(await gateBadge(slug)).toBe("gate | fail · 1 incident");

      // ?label= narrows the run; the incidents stay the project's.
      expect(await gateBadge(slug, { label: "nightly" })).toBe("gate | fail · 1 incident");
      expect(await gateBadge(slug, { label: "weekly" })).toBe("gate | no runs · 1 incident");

      const triage = (state: string) =>
        call(patchIncident, `/api/v1/projects/${slug}/incidents/1`, { project: slug, number: "1" }, { method: "PATCH", body: JSON.stringify({ state }) });
      expect((await triage("investigating")).status).toBe(200);
      expect(await gateBadge(slug)).toBe("gate | fail · 1 incident");
      expect((await triage("accepted")).status).toBe(200);
      expect(await gateBadge(slug)).toBe("gate | fail");
    });

    it("no kind is kind=sla, byte for byte", async () => {
      const policy = { targets: [{ metric: "p95", op: "<=", threshold: 500, unit: "ms" }] };
      expect((await call(putPolicy, `/api/v1/projects/${slug}/sla`, { project: slug }, { method: "PUT", body: JSON.stringify(policy) })).status).toBe(200);
      const [plain, sla] = [await badge(slug), await badge(slug, { kind: "sla" })];
      expect(await wordsOf(plain.clone())).toBe("SLA | A 100%");
      expect(await plain.text()).toBe(await sla.text());
    });
  });
});
