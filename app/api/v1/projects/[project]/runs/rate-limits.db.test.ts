import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { newTokenSecret } from "@/server/services/access";
import { uniqueSlug } from "@/server/testing/databases";
import { seedProjectWithToken } from "@/server/testing/trpc-callers";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { GET as listRuns, POST as uploadRun } from "./route";

// Rate limits (issue "Access control … rate limits"): counted in PostgreSQL (embedded or server), so
// replicas share them; over a limit the answer is 429 with Retry-After. Small limits are set here,
// before the environment is first read (vitest.config.ts turns them off for every other file).
process.env.BENCHTRACK_RATE_UPLOADS_PER_MINUTE = "3";
process.env.BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE = "2";
process.env.BENCHTRACK_RATE_READS_PER_MINUTE = "5";

setUpRouteTestDatabase();

/**
 * A second upload token of the project. The tests never use the admin token: its counter is one row
 * that other test files on the same database also bump, so its count in this minute is not this file's.
 */
async function secondToken(slug: string): Promise<string> {
  const db = await getDb();
  const { token, prefix, tokenHash } = newTokenSecret();
  await db.apiToken.create({ data: { project: { connect: { slug } }, name: "second", prefix, tokenHash } });
  return token;
}

/** Each test from its own client address, well inside one minute's window. */
async function freshAddress(): Promise<string> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
  return `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
}

const body = (hour: number) =>
  JSON.stringify({
    schema: "benchtrack/v1",
    startedAt: new Date(Date.UTC(2026, 0, 1, hour)).toISOString(),
    endpoints: [{ name: "GetListing", requests: 100, latency: { unit: "ms", p95: 2 } }],
  });

describe("rate limits", () => {
  it("stop a token's uploads past the limit with 429 and Retry-After; another token goes on", async () => {
    const address = await freshAddress();
    const { slug, uploadToken } = await seedProjectWithToken(await getDb(), "limited");
    const post = (hour: number, token: string, from = address) =>
      call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
        method: "POST",
        body: body(hour),
        token,
        headers: { "x-forwarded-for": `203.0.113.9, ${from}` },
      });
    for (const hour of [1, 2, 3]) expect((await post(hour, uploadToken)).status).toBe(201);
    const refused = await post(4, uploadToken);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "too_many_requests",
      message: expect.stringMatching(/^Too many uploads: at most 3 a minute/),
    });
    // Another token, from another address, is counted on its own.
    expect((await post(5, await secondToken(slug), await freshAddress())).status).toBe(201);
  });

  it("stop guessing: past the failed-authentication limit even the right token waits", async () => {
    const address = await freshAddress();
    const { slug, uploadToken } = await seedProjectWithToken(await getDb(), "guess");
    const post = (token: string, from = address) =>
      call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
        method: "POST",
        body: body(1),
        token,
        headers: { "x-forwarded-for": from },
      });
    expect((await post("guess-number-one-0123")).status).toBe(401);
    expect((await post("guess-number-two-0123")).status).toBe(401);
    const waited = await post(uploadToken);
    expect(waited.status).toBe(429);
    expect(waited.headers.get("retry-after")).not.toBeNull();
    // Another address is not affected.
    expect((await post(uploadToken, await freshAddress())).status).toBe(201);
  });

  it("stop a flood of reads from one address", async () => {
    const address = await freshAddress();
    const slug = uniqueSlug("reads");
    const statuses: number[] = [];
    for (let index = 0; index < 7; index++) {
      const response = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug }, { headers: { "x-forwarded-for": address } });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
  });
});
