import { beforeAll, describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { mintProjectToken } from "@/server/testing/seed";
import { POST as uploadRun } from "../runs/route";
import { GET as listMarkers, POST as postMarker } from "./route";

setUpRouteTestDatabase();

const document = (hour: number) =>
  JSON.stringify({
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 100, failures: 0, latency: { unit: "ms", p95: 20 } }],
  });

describe("POST and GET /api/v1/projects/:project/annotations", () => {
  const slug = uniqueSlug("markers");
  const other = uniqueSlug("markers-other");
  let runId: string;
  let projectToken: string;
  let otherToken: string;
  const path = `/api/v1/projects/${slug}/annotations`;
  const post = (body: unknown, token?: string | null) =>
    call(postMarker, path, { project: slug }, { method: "POST", body: JSON.stringify(body), token });
  const list = async (query: Record<string, string> = {}) =>
    (await call(listMarkers, path, { project: slug }, { query, token: null })).json();

  beforeAll(async () => {
    const upload = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: document(9), query: { branch: "main" } });
    runId = (await upload.json()).id;
    await call(uploadRun, `/api/v1/projects/${other}/runs`, { project: other }, { method: "POST", body: document(9) });
    projectToken = await mintProjectToken(slug);
    otherToken = await mintProjectToken(other);
  });

  it("takes a deploy at a time with the project's token and a change on a run, and lists them in time order", async () => {
    const deploy = await post({ text: "v1.4 rolled out", kind: "deploy", at: "2026-11-01T10:30:00+01:00" }, projectToken);
    expect(deploy.status).toBe(201);
    expect(await deploy.json()).toMatchObject({ runId: null, at: "2026-11-01T09:30:00.000Z", kind: "deploy", text: "v1.4 rolled out" });

    const change = await post({ text: "  pool 20 → 50 ", kind: "change", runId });
    expect(change.status).toBe(201);
    // On a run, the marker's time is the run's start.
    expect(await change.json()).toMatchObject({ runId, at: "2026-11-01T09:00:00.000Z", kind: "change", text: "pool 20 → 50" });
    expect((await post({ text: "a note" }, projectToken)).status).toBe(400); // neither runId nor at

    const all = await list();
    expect(all.annotations.map((marker: { kind: string }) => marker.kind)).toEqual(["change", "deploy"]);
    expect((await list({ kind: "deploy" })).annotations).toHaveLength(1);
    expect((await list({ from: "2026-11-01T09:15:00Z" })).annotations.map((marker: { text: string }) => marker.text)).toEqual(["v1.4 rolled out"]);
    expect((await list({ to: "2026-11-01T09:15:00Z" })).annotations.map((marker: { text: string }) => marker.text)).toEqual(["pool 20 → 50"]);
  });

  it("refuses what is not a marker, with the path at fault, and tokens of others", async () => {
    for (const [body, at] of [
      [{ text: "x", at: "2026-11-01T10:00:00Z", runId: "r" }, "at"],
      [{ text: "x", at: "tomorrow" }, "at"],
      [{ text: "x", at: "2026-11-01T10:00:00Z", kind: "outage" }, "kind"],
      [{ text: "", at: "2026-11-01T10:00:00Z" }, "text"],
      [{ text: "x".repeat(501), at: "2026-11-01T10:00:00Z" }, "text"],
      [{ text: "x", at: "2026-11-01T10:00:00Z", extra: 1 }, ""],
    ] as const) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const details = (await response.json()).error.details as { path: string }[];
      if (at) expect(details.map((detail) => detail.path)).toContain(at);
    }
    expect((await call(postMarker, path, { project: slug }, { method: "POST", body: "{not json" })).status).toBe(400);
    expect((await post({ text: "x", runId: "no-such-run" })).status).toBe(404);
    expect((await post({ text: "x", at: "2026-11-01T10:00:00Z" }, null)).status).toBe(401);
    expect((await post({ text: "x", at: "2026-11-01T10:00:00Z" }, otherToken)).status).toBe(403);
    const unknown = await call(postMarker, "/api/v1/projects/no-such-project/annotations", { project: "no-such-project" }, { method: "POST", body: JSON.stringify({ text: "x", at: "2026-11-01T10:00:00Z" }) });
    expect(unknown.status).toBe(404);
    const badQuery = await call(listMarkers, path, { project: slug }, { query: { from: "yesterday" } });
    expect(badQuery.status).toBe(400);
    // Nothing half-written: only the two markers of the first test exist.
    expect((await list()).annotations).toHaveLength(2);
  });
});
