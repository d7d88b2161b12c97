import { describe, expect, it } from "vitest";
import { webhookPayloadSchema } from "../../schemas/webhooks";
import { BASE_URL, DIGEST, INVESTIGATING, LARGE, OPENED } from "./fixtures/messages";
import { buildJsonPayload } from "./json-payload";

describe("buildJsonPayload", () => {
  it("gives an opened incident as data, with a one-line mrkdwn text and absolute links", () => {
    const payload = buildJsonPayload(OPENED, BASE_URL);
    expect(webhookPayloadSchema.parse(payload)).toEqual(payload);
    expect(payload.text).toBe(
      "Incident #3 opened in Listings API: p99 of ListListings +91.3% (33.5 ms → 64.1 ms, p < 0.001), 5 changes on 4 endpoints. " +
        "<https://bench.example.com/projects/listings/incidents/3|Open incident #3>",
    );
    expect(payload).toMatchObject({
      event: "incident.opened",
      project: { slug: "listings", name: "Listings API" },
      change: { from: null, to: "open", by: "detector", at: "2026-11-26T09:05:00.000Z" },
      incident: {
        number: 3,
        state: "open",
        stateLabel: "Open",
        url: "https://bench.example.com/projects/listings/incidents/3",
        openedAt: "2026-11-26T09:05:00.000Z",
        note: null,
        links: [],
        firstRun: { id: "run6", label: "nightly", branch: "main", commit: "9f1c2e7abcdef", url: "https://bench.example.com/projects/listings/runs/run6" },
        // The largest |Δ| first: 91.3%, 66.7%, 25.0%, 23.6%, 15.0%.
        endpoints: ["ListListings", "GetListing", "GET /api/listings/:id", "POST /orders"],
        regressionCount: 5,
        compareUrl: "https://bench.example.com/projects/listings/compare?base=run5,run4&head=run6",
      },
    });
    if (payload.event === "incidents.digest") throw new Error("not a digest");
    expect(payload.incident.regressions.map((regression) => regression.id)).toEqual(["r2", "r3", "r5", "r1", "r4"]);
    expect(payload.incident.regressions[0]).toEqual({
      id: "r2",
      endpoint: "ListListings",
      metric: "p99",
      unit: "ms",
      before: 33.5,
      after: 64.1,
      deltaPct: expect.closeTo(91.343, 3),
      pValue: 0.0004,
      trendUrl: "https://bench.example.com/projects/listings/endpoints/ListListings?cp=run6&lines=p99",
      compareUrl: "https://bench.example.com/projects/listings/compare?base=run5,run4&head=run6",
    });
  });

  it("says who changed the state, from what to what, escaping Slack's <, > and & in the text only", () => {
    const payload = buildJsonPayload(INVESTIGATING, BASE_URL);
    expect(webhookPayloadSchema.parse(payload)).toEqual(payload);
    expect(payload.event).toBe("incident.state_changed");
    expect(payload.text).toMatch(/^Incident #3 in Listings API: Open → Investigating by alice \(admin session\): p99 of ListListings \+91\.3%/);
    expect(payload).toMatchObject({
      change: { from: "open", to: "investigating", by: "alice (admin session)", at: "2026-11-26T10:00:00.000Z" },
      incident: { state: "investigating", note: "Looking at the <cache> & pool", links: ["https://github.com/acme/listings/pull/42"] },
    });
    const escaped = buildJsonPayload({ ...INVESTIGATING, project: { slug: "gw", name: "Gateway <prod> & co" } }, BASE_URL);
    expect(escaped.text).toContain("in Gateway &lt;prod&gt; &amp; co:");
    expect(escaped.project.name).toBe("Gateway <prod> & co");
  });

  it("lists at most 50 regressions and counts them all", () => {
    const payload = buildJsonPayload(LARGE, BASE_URL);
    if (payload.event === "incidents.digest") throw new Error("not a digest");
    expect(payload.incident.regressionCount).toBe(60);
    expect(payload.incident.regressions).toHaveLength(50);
    expect(payload.incident.regressions[0]!.endpoint).toBe("GET /api/item/59");
    expect(webhookPayloadSchema.safeParse(payload).success).toBe(true);
  });

  it("gives a digest's window, its counts, and each incident with what happened to it in the window", () => {
    const payload = buildJsonPayload(DIGEST, BASE_URL);
    expect(webhookPayloadSchema.parse(payload)).toEqual(payload);
    if (payload.event !== "incidents.digest") throw new Error("a digest");
    expect(payload.digest).toEqual({
      from: "2026-11-25T07:00:00.000Z",
      to: "2026-11-26T07:00:00.000Z",
      url: "https://bench.example.com/projects/listings/incidents",
      opened: 1,
      changed: 1,
      active: 2,
    });
    expect(payload.incidents.map((incident) => [incident.number, incident.state, incident.changes.length])).toEqual([
      [4, "open", 1],
      [2, "fixed", 2],
      [1, "investigating", 0],
    ]);
    expect(payload.text).toBe(
      "Daily incident digest · Listings API: 1 incident opened, 1 changed state in the last 24 h; 2 active (open or investigating). " +
        "<https://bench.example.com/projects/listings/incidents|Open the incidents>",
    );
  });
});
