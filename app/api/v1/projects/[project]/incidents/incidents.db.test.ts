import { describe, expect, it } from "vitest";
import { createSeededRandom } from "@/server/domain/stats/random";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintProjectToken, mintScopedToken } from "@/server/testing/seed";
import { POST as uploadRun } from "../runs/route";
import { GET as getIncident, PATCH as patchIncident } from "./[number]/route";
import { GET as getPrecision } from "./precision/route";
import { GET as listIncidents, PATCH as patchIncidents } from "./route";

// Incidents through the REST API, on the embedded database and (with DATABASE_URL) PostgreSQL: a step of
// three endpoints opens ONE incident; it is triaged in bulk and then accepted, and the gate follows; a
// step that is backed out is seen to come back; alert precision counts what was decided.

setUpRouteTestDatabase();

const ENDPOINTS = ["GET /listings", "GET /listings/:id", "POST /orders"];

interface Incident {
  number: number;
  state: string;
  note: string | null;
  links: string[];
  stateChangedBy: string | null;
  closedAt: string | null;
  endpoints: (string | null)[];
  returned: { count: number; of: number };
  url: string;
  regressions: { endpoint: string | null; metric: string; status: string; deltaPct: number; returnRunId: string | null }[];
  events?: { by: string; from: string | null; to: string | null; note: string | null; summary: string | null }[];
}

function seriesOf(slug: string, seed: number) {
  const random = createSeededRandom(seed);
  let hour = 0;
  return async (factor: number) => {
    const document = {
      schema: "benchtrack/v1",
      tool: "loadgen",
      label: "nightly",
      startedAt: new Date(Date.UTC(2026, 0, 1, hour++)).toISOString(),
      endpoints: ENDPOINTS.map((name, index) => {
        const p95 = (50 + 25 * index) * factor * (1 + random.gaussian(0, 0.03));
        return { name, requests: 10_000, failures: 0, latency: { unit: "ms", p50: p95 / 3, p95, p99: p95 * 1.4 } };
      }),
    };
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      body: JSON.stringify(document),
      query: { branch: "main" },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; outcome: string; reasons: string[] };
  };
}

const list = async (slug: string, state = "active") =>
  (await (await call(listIncidents, `/api/v1/projects/${slug}/incidents`, { project: slug }, { query: { state }, token: null })).json()) as Incident[];

describe("a step of three endpoints", () => {
  const slug = uniqueSlug("incident-step");

  it("opens one incident; bulk-acknowledged it is still judged against the old level; accepted, the new level passes", async () => {
    await createProjectThroughApi(slug);
    const nightly = seriesOf(slug, 7);
    for (let run = 0; run < 12; run++) await nightly(1);
    for (let run = 0; run < 7; run++) await nightly(1.3);
    expect((await runQueuedJobsNow()).failed).toBe(0);

    const [incident, ...others] = await list(slug);
    expect(others).toEqual([]);
    expect(incident).toMatchObject({ number: 1, state: "open", closedAt: null });
    expect([...incident!.endpoints].sort()).toEqual([...ENDPOINTS].sort());
    expect(incident!.regressions.length).toBeGreaterThanOrEqual(3);
    expect(incident!.regressions.every((regression) => regression.status === "open" && regression.deltaPct > 20)).toBe(true);
    expect(incident!.url).toMatch(new RegExp(`/projects/${slug}/incidents/1$`));

    // Bulk: acknowledged (investigating) by a named person with the admin token.
    const acknowledged = await call(patchIncidents, `/api/v1/projects/${slug}/incidents`, { project: slug }, {
      method: "PATCH",
      body: JSON.stringify({ numbers: [1], state: "investigating", by: "sam" }),
    });
    expect(acknowledged.status).toBe(200);
    const [investigating] = (await acknowledged.json()) as Incident[];
    expect(investigating).toMatchObject({ state: "investigating", stateChangedBy: "sam (admin token)", closedAt: null });
    // Still not the new normal: a run at the new level fails against the level before the step.
    const stillJudged = await nightly(1.3);
    expect(stillJudged.outcome).toBe("fail");

    // Accepted, with a note and a link, by the project's own token with the triage scope (a new, upload-only token may not).
    expect(
      (await call(patchIncident, `/api/v1/projects/${slug}/incidents/1`, { project: slug, number: "1" }, { method: "PATCH", token: await mintProjectToken(slug, "uploads"), body: JSON.stringify({ state: "accepted" }) }))
        .status,
    ).toBe(403);
    const token = await mintScopedToken(slug, ["upload", "triage"], "ci");
    const accepted = await call(patchIncident, `/api/v1/projects/${slug}/incidents/1`, { project: slug, number: "1" }, {
      method: "PATCH",
      token,
      body: JSON.stringify({ state: "accepted", note: "The new search index costs 30%.", links: ["https://github.com/acme/shop/pull/12"] }),
    });
    expect(accepted.status).toBe(200);
    const closed = (await accepted.json()) as Incident;
    expect(closed).toMatchObject({ state: "accepted", note: "The new search index costs 30%.", stateChangedBy: 'project token "ci"' });
    expect(closed.closedAt).not.toBeNull();
    expect(closed.regressions.every((regression) => regression.status === "acknowledged")).toBe(true);
    expect(closed.events!.map((event) => event.summary)).toEqual(["Opened", "Open → Investigating", "Investigating → Accepted"]);
    expect(closed.events!.at(-1)!.note).toMatch(/^Note: The new search index costs 30%\.\nLinks: https:\/\/github\.com\/acme\/shop\/pull\/12$/);

    // The gate's baseline moved to the new level: the next run at it passes.
    const next = await nightly(1.3);
    expect(next.outcome).toBe("pass");
    expect(await list(slug)).toEqual([]);
    expect((await list(slug, "accepted")).map((row) => row.number)).toEqual([1]);

    const precision = await (await call(getPrecision, `/api/v1/projects/${slug}/incidents/precision`, { project: slug }, { token: null })).json();
    expect(precision).toMatchObject({ closed: 1, valid: 1, invalid: 0, precision: 1, active: 0, reason: null });
    expect(precision.byDetectorVersion).toEqual([expect.objectContaining({ detectorVersion: 2, valid: 1, invalid: 0 })]);
  }, 180_000);

  it("refuses hostile or unauthorised changes with a 4xx that names the field, and changes nothing", async () => {
    const patch = (body: unknown, token?: string | null, number = "1") =>
      call(patchIncident, `/api/v1/projects/${slug}/incidents/${number}`, { project: slug, number }, { method: "PATCH", body: JSON.stringify(body), token });
    const unknown = await call(patchIncidents, `/api/v1/projects/${slug}/incidents`, { project: slug }, {
      method: "PATCH",
      body: JSON.stringify({ numbers: [1, 99], state: "invalid" }),
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toMatch(/#99/);
    expect((await patch({})).status).toBe(400);
    const badLink = await patch({ links: ["javascript:alert(1)"] });
    expect(badLink.status).toBe(400);
    expect((await badLink.json()).error.details[0].path).toMatch(/^links(\[0\]|\.0)/);
    expect((await patch({ state: "closed" })).status).toBe(400);
    expect((await patch({ state: "invalid" }, null)).status).toBe(401);
    const other = uniqueSlug("incident-other");
    await createProjectThroughApi(other);
    expect((await patch({ state: "invalid" }, await mintProjectToken(other))).status).toBe(403);
    expect((await patch({ state: "invalid" }, undefined, "abc")).status).toBe(400);
    expect((await patch({ state: "invalid" }, undefined, "7")).status).toBe(404);
    // Numbers are decimal digits only: Number() would read these as #1, #1, #1 and #1000.
    for (const loose of ["0x1", " 1", "1.0", "1e3", "+1", "01e0"]) {
      const refused = await patch({ state: "invalid" }, undefined, loose);
      expect(refused.status, loose).toBe(400);
      expect((await refused.json()).error.details[0].path).toBe("number");
    }
    // Nothing changed: #1 is still accepted, its history as it was.
    const incident = (await (await call(getIncident, `/api/v1/projects/${slug}/incidents/1`, { project: slug, number: "1" }, { token: null })).json()) as Incident;
    expect(incident.state).toBe("accepted");
    expect(incident.events).toHaveLength(3);
  }, 60_000);
});

describe("a step that is backed out", () => {
  it("is marked backed out, and its page says when the series came back", async () => {
    const slug = uniqueSlug("incident-back");
    await createProjectThroughApi(slug);
    const nightly = seriesOf(slug, 11);
    for (let run = 0; run < 12; run++) await nightly(1);
    for (let run = 0; run < 7; run++) await nightly(1.4);
    expect((await runQueuedJobsNow()).failed).toBe(0);
    const [incident] = await list(slug);
    expect(incident!.returned).toEqual({ count: 0, of: incident!.regressions.length });
    const backedOut = await call(patchIncident, `/api/v1/projects/${slug}/incidents/1`, { project: slug, number: "1" }, {
      method: "PATCH",
      body: JSON.stringify({ state: "backed_out" }),
    });
    expect(backedOut.status).toBe(200);
    // Backed out: the gate still expects the old level, so a run back at it passes at once…
    expect((await nightly(1)).outcome).toBe("pass");
    for (let run = 0; run < 7; run++) await nightly(1);
    expect((await runQueuedJobsNow()).failed).toBe(0);
    // …and detection sees each series come back (a change the other way).
    const returned = (await (await call(getIncident, `/api/v1/projects/${slug}/incidents/1`, { project: slug, number: "1" }, { token: null })).json()) as Incident;
    expect(returned.state).toBe("backed_out");
    expect(returned.returned.count).toBe(returned.returned.of);
    expect(returned.regressions.every((regression) => regression.returnRunId !== null)).toBe(true);
    // A backed-out step was a real change: precision counts it valid.
    const precision = await (await call(getPrecision, `/api/v1/projects/${slug}/incidents/precision`, { project: slug }, { token: null })).json();
    expect(precision).toMatchObject({ closed: 1, valid: 1, invalid: 0 });
  }, 180_000);
});
