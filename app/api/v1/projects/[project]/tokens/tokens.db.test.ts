import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as createProject } from "../../route";
import { POST as uploadRun } from "../runs/route";
import { DELETE as revokeToken } from "./[id]/route";
import { GET as listTokens, POST as createToken } from "./route";

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../../server/domain/parsers/fixtures");
const SUMMARY = readFileSync(path.join(FIXTURES, "k6/baseline/round1/summary.json"));
const DAY_MS = 86_400_000;

type Json = Record<string, any>;

setUpRouteTestDatabase();

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("project tokens over REST", () => {
  const slug = uniqueSlug("rest-tokens");
  const create = async (body: unknown, token?: string | null) => {
    const response = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST", ...json(body), token });
    return { status: response.status, json: (await response.json()) as Json };
  };
  const list = async () => ((await (await call(listTokens, `/api/v1/projects/${slug}/tokens`, { project: slug })).json()) as Json).tokens as Json[];
  const upload = (token: string) => call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: SUMMARY, token });

  beforeAll(async () => {
    expect((await call(createProject, "/api/v1/projects", {}, { method: "POST", ...json({ slug }) })).status).toBe(201);
  });

  it("creates an upload-only token by default, and one with the scopes and expiry asked for", async () => {
    const plain = await create({ name: "github-actions" });
    expect(plain.status).toBe(201);
    expect(plain.json).toEqual({
      id: expect.any(String),
      name: "github-actions",
      prefix: plain.json.token.slice(0, 9),
      scopes: ["upload"],
      createdAt: expect.stringMatching(/Z$/),
      createdBy: "admin token",
      expiresAt: null,
      token: expect.stringMatching(/^bt_/),
    });

    const before = Date.now();
    const scoped = await create({ name: "nightly-reader", scopes: ["read", "upload"], expiresInDays: 90 });
    expect(scoped.status).toBe(201);
    expect(scoped.json).toMatchObject({ scopes: ["upload", "read"], createdBy: "admin token" });
    expect(Date.parse(scoped.json.expiresAt)).toBeGreaterThanOrEqual(before + 90 * DAY_MS);

    const listed = await list();
    expect(listed.find((token) => token.id === scoped.json.id)).toEqual({
      id: scoped.json.id,
      name: "nightly-reader",
      prefix: scoped.json.prefix,
      scopes: ["upload", "read"],
      createdAt: scoped.json.createdAt,
      createdBy: "admin token",
      expiresAt: scoped.json.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      status: "active",
    });
    expect(JSON.stringify(listed)).not.toContain(scoped.json.token);
  });

  it("refuses a taken name with 409 naming it, and hostile input with 400 naming the field", async () => {
    expect((await create({ name: "taken" })).status).toBe(201);
    const taken = await create({ name: "taken" });
    expect(taken.status).toBe(409);
    expect(taken.json.error).toMatchObject({ code: "conflict", message: `Project "${slug}" already has a live token named "taken"` });
    expect(taken.json.error.details).toEqual([{ path: "name", message: expect.stringMatching(/^taken by token \S+: choose another name, or revoke that token first$/) }]);

    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "x".repeat(10_000) }, "name"],
      [{ name: "a", scopes: ["upload", "admin"] }, "scopes[1]"],
      [{ name: "a", scopes: [] }, "scopes"],
      [{ name: "a", expiresInDays: -1 }, "expiresInDays"],
      [{ name: "a", expiresInDays: "90" }, "expiresInDays"],
      [{ name: "a", expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt"],
      [{ name: "a", expiresAt: "x".repeat(10_000) }, "expiresAt"],
      [{ name: "a", owner: "me" }, ""],
    ];
    for (const [body, field] of cases) {
      const refused = await create(body);
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(refused.json.error.details.map((detail: Json) => detail.path), JSON.stringify(body).slice(0, 60)).toContain(field);
    }
    const unknownScope = await create({ name: "a", scopes: ["admin"] });
    expect(unknownScope.json.error.details[0].message).toMatch(/"upload"\|"read"\|"triage"/);
    expect((await list()).filter((token) => token.name === "a")).toEqual([]);
  });

  it("sets a token's last use when it is accepted; an expired token is refused saying it expired, an unknown or revoked one is not told apart", async () => {
    const { json: token } = await create({ name: "uploader", expiresInDays: 1 });
    expect((await upload(token.token)).status).toBe(201);
    const used = (await list()).find((row) => row.id === token.id)!;
    expect(Date.now() - Date.parse(used.lastUsedAt)).toBeLessThan(60_000);

    // A day later: past its expiry (set in the database, as time would).
    const db = await getDb();
    const expiredAt = new Date(Date.now() - 2 * DAY_MS);
    await db.apiToken.update({ where: { id: token.id }, data: { expiresAt: expiredAt, lastUsedAt: null } });
    const refused = await upload(token.token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as Json).error.message).toBe(
      `This project token expired on ${expiredAt.toISOString()}: ask a maintainer of the project for a new one (Settings → Tokens, or npm run token).`,
    );
    // A refused token's last use is not set; the list says it expired.
    expect((await list()).find((row) => row.id === token.id)).toMatchObject({ lastUsedAt: null, status: "expired", expiresAt: expiredAt.toISOString() });

    // A secret nobody holds, and a revoked (even if expired) token: the same refusal, which says nothing of expiry.
    const unknown = await upload(`bt_${"A".repeat(32)}`);
    const unknownMessage = ((await unknown.json()) as Json).error.message as string;
    expect(unknown.status).toBe(401);
    expect(unknownMessage).toMatch(/^The token is not valid \(unknown or revoked\)\./);
    expect((await call(revokeToken, `/api/v1/projects/${slug}/tokens/${token.id}`, { project: slug, id: token.id }, { method: "DELETE" })).status).toBe(204);
    const revoked = await upload(token.token);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as Json).error.message).toBe(unknownMessage);
    expect((await list()).find((row) => row.id === token.id)).toMatchObject({ status: "revoked" });
  });
});
