import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as createToken } from "../tokens/route";
import { DELETE as revokeToken } from "../tokens/[id]/route";
import { fixture, upload, type Json } from "./uploads.fixture";

// Uploads and project tokens: a project token uploads to its project only and stops working once
// revoked; no token, an unknown or an empty one is a 401; only the admin token creates tokens, for a
// project that exists. On the embedded database and, with DATABASE_URL, PostgreSQL.

setUpRouteTestDatabase();

describe("tokens", () => {
  it("a project token uploads to its project only; revoked, it no longer works; none at all is 401", async () => {
    const slug = uniqueSlug("tokens");
    const other = uniqueSlug("other");
    await upload(slug, fixture("k6/baseline/round1/summary.json"));
    await upload(other, fixture("k6/baseline/round1/summary.json"));
    const created = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, {
      method: "POST",
      body: JSON.stringify({ name: "ci" }),
    });
    expect(created.status).toBe(201);
    const token = ((await created.json()) as Json) as { id: string; token: string };
    expect(token.token).toMatch(/^bt_/);

    expect((await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: token.token })).status).toBe(201);
    const forbidden = await upload(other, fixture("k6/baseline/round2/summary.json"), { token: token.token });
    expect(forbidden.status).toBe(403);
    expect((await upload(uniqueSlug("unknown"), fixture("k6/baseline/round2/summary.json"), { token: token.token })).status).toBe(403);
    expect((await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: null })).status).toBe(401);
    expect((await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: "bt_not-a-real-token" })).status).toBe(401);

    const revoked = await call(revokeToken, `/api/v1/projects/${slug}/tokens/${token.id}`, { project: slug, id: token.id }, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    expect((await upload(slug, fixture("k6/baseline/round3/summary.json"), { token: token.token })).status).toBe(401);

    const db = await getDb();
    const stored = await db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(stored.tokenHash).not.toContain(token.token);
    expect(JSON.stringify(stored)).not.toContain(token.token);
  });

  it("only the admin token creates tokens", async () => {
    const slug = uniqueSlug("admin-only");
    await upload(slug, fixture("k6/baseline/round1/summary.json"));
    const anonymous = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST", token: null });
    expect(anonymous.status).toBe(401);
    // This server has an admin token: no refusal says otherwise (no-admin-token.db.test.ts has the other case).
    expect(((await anonymous.json()) as Json).error.message).not.toMatch(/no admin token/);
    const empty = await upload(slug, fixture("k6/baseline/round2/summary.json"), { token: "" });
    expect(empty.status).toBe(401);
    expect(empty.json.error.message).toBe('The Authorization header holds no token after "Bearer" (was the variable meant to hold it empty in your shell?).');
  });

  it("a token for a project that does not exist yet is a 404 that says how the project comes to be", async () => {
    const slug = uniqueSlug("not-yet");
    const response = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST" });
    expect(response.status).toBe(404);
    const { error } = ((await response.json()) as Json) as { error: { message: string; details: { path: string; message: string }[] } };
    expect(error.message).toBe(`Project "${slug}" not found`);
    expect(error.details).toEqual([
      { path: "project", message: `create it first: an upload with the admin token creates its project, or POST /api/v1/projects {"slug": "${slug}"}` },
    ]);
  });
});
