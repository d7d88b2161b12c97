import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as createProject } from "../route";
import { DELETE as unpin, GET as listPins, PUT as pin } from "./baseline/route";
import { GET as listTokens, POST as createToken } from "./tokens/route";
import { GET as getProject, PATCH as patchProject } from "./route";

setUpRouteTestDatabase();

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("a project's settings over REST", () => {
  const slug = uniqueSlug("settings");

  beforeAll(async () => {
    expect((await call(createProject, "/api/v1/projects", {}, { method: "POST", ...json({ slug, name: "Listings" }) })).status).toBe(201);
  });

  it("creating a taken slug is a 409 naming the slug; creating needs the admin token", async () => {
    const taken = await call(createProject, "/api/v1/projects", {}, { method: "POST", ...json({ slug }) });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error.details).toEqual([{ path: "slug", message: "taken" }]);
    const anonymous = await call(createProject, "/api/v1/projects", {}, { method: "POST", ...json({ slug: uniqueSlug("x") }), token: null });
    expect(anonymous.status).toBe(401);
  });

  it("PATCH changes settings (admin) and names a bad field; GET shows them to anyone", async () => {
    const patch = (body: unknown, token?: string | null) =>
      call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, { method: "PATCH", ...json(body), token });
    expect((await patch({ minEffectPct: 3 }, null)).status).toBe(401);
    const bad = await patch({ alpha: 2 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].path).toBe("alpha");
    // The gate metric is a name the gate can judge, never free text.
    const badMetric = await patch({ gateMetric: "p95; DROP TABLE runs" });
    expect(badMetric.status).toBe(400);
    expect((await badMetric.json()).error.details[0].path).toBe("gateMetric");
    expect((await patch({ gateMetric: "x".repeat(10_000) })).status).toBe(400);
    const changed = await patch({ defaultBranch: "trunk", minEffectPct: 3 });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ slug, name: "Listings", defaultBranch: "trunk", minEffectPct: 3, alpha: 0.01 });
    const shown = await call(getProject, `/api/v1/projects/${slug}`, { project: slug }, { token: null });
    expect(await shown.json()).toMatchObject({ slug, defaultBranch: "trunk", minEffectPct: 3, createdAt: expect.stringMatching(/Z$/) });
    const other = uniqueSlug("nope");
    expect((await call(patchProject, `/api/v1/projects/${other}`, { project: other }, { method: "PATCH", ...json({ name: "x" }) })).status).toBe(404);
  });

  it("lists tokens for the admin only, newest first, never with their secrets", async () => {
    const created = await (await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST", ...json({ name: "gha" }) })).json();
    const list = (token?: string | null) => call(listTokens, `/api/v1/projects/${slug}/tokens`, { project: slug }, { token });
    expect((await list(null)).status).toBe(401);
    expect((await list(created.token)).status).toBe(403);
    const { tokens } = await (await list()).json();
    expect(tokens[0]).toEqual({
      id: created.id,
      name: "gha",
      prefix: created.prefix,
      scopes: ["upload"],
      createdAt: created.createdAt,
      createdBy: "admin token",
      expiresAt: null,
      lastUsedAt: expect.any(String),
      revokedAt: null,
      status: "active",
    });
    expect(JSON.stringify(tokens)).not.toContain(created.token);
  });

  it("pins, lists and unpins a baseline; an unknown run is a 400 naming runIds; a second unpin is 404", async () => {
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    const run = await db.run.create({ data: { projectId: project.id, tool: "k6", format: "k6-summary", label: "nightly", startedAt: new Date() } });
    const put = (body: unknown) => call(pin, `/api/v1/projects/${slug}/baseline`, { project: slug }, { method: "PUT", ...json(body) });
    const unknown = await put({ forLabel: "nightly", runIds: ["no-such-run"] });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.details).toEqual([{ path: "runIds", message: "unknown run id" }]);
    expect((await put({ forLabel: "nightly", runIds: [run.id] })).status).toBe(200);
    const listed = await (await call(listPins, `/api/v1/projects/${slug}/baseline`, { project: slug }, { token: null })).json();
    expect(listed).toMatchObject({ defaultBranch: "trunk", pins: [{ forLabel: "nightly", runIds: [run.id], baselineLabel: null }] });
    const remove = () => call(unpin, `/api/v1/projects/${slug}/baseline`, { project: slug }, { method: "DELETE", query: { for_label: "nightly" } });
    expect((await remove()).status).toBe(204);
    expect((await remove()).status).toBe(404);
  });
});
