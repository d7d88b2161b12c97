import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { fixture, runCount, upload } from "./uploads.fixture";

// Uploads at once and uploads again: concurrent first uploads to a new project all land, and an
// Idempotency-Key makes a retry (or eight at once) store one run. On the embedded database and, with
// DATABASE_URL, PostgreSQL.

setUpRouteTestDatabase();

describe("concurrency", () => {
  it("eight concurrent first uploads to a new project all land", async () => {
    const slug = uniqueSlug("race");
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, round) =>
        upload(slug, fixture("k6/baseline/round1/summary.json"), { query: { round: String(round + 1) } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect(await runCount(slug)).toBe(8);
  });
});

describe("idempotency", () => {
  it("a retry returns the first run with 200; the same key with another body is 409", async () => {
    const slug = uniqueSlug("idem");
    const headers = { "idempotency-key": "build-42" };
    const first = await upload(slug, fixture("k6/baseline/round1/summary.json"), { headers });
    const retry = await upload(slug, fixture("k6/baseline/round1/summary.json"), { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(200);
    expect(retry.json.id).toBe(first.json.id);
    const conflict = await upload(slug, fixture("k6/baseline/round2/summary.json"), { headers });
    expect(conflict.status).toBe(409);
    expect(await runCount(slug)).toBe(1);
  });

  it("eight concurrent retries with one key store one run", async () => {
    const slug = uniqueSlug("idem-race");
    await upload(slug, fixture("k6/baseline/round3/summary.json"));
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        upload(slug, fixture("k6/baseline/round1/summary.json"), { headers: { "idempotency-key": "same" } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.json.id)).size).toBe(1);
    expect(await runCount(slug)).toBe(2);
  });
});
