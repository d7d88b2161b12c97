import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { seedProjectWithToken } from "@/server/testing/trpc-callers";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as createToken } from "../tokens/route";
import { POST as uploadRun } from "./route";

// A server started with no admin token (`next start` directly, BENCHTRACK_ADMIN_TOKEN unset): the
// curl a newcomer copies sends `Bearer $BENCHTRACK_ADMIN_TOKEN` from a shell where it is empty, or a
// token this server cannot know. Each refusal stays a 401 and says the server has no admin token and
// how to give it one, rather than only that the header is malformed or the token unknown.
setUpRouteTestDatabase({ BENCHTRACK_ADMIN_TOKEN: "" });

const body = JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "GetListing", requests: 10, latency: { unit: "ms", p95: 2 } }] });

async function upload(slug: string, token: string | null) {
  const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body, token });
  return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error?.message };
}

// With the embedded database `npm start` would make one; with DATABASE_URL (shared by replicas) it would not.
const NO_ADMIN_TOKEN = process.env.DATABASE_URL
  ? /This server has no admin token configured: set BENCHTRACK_ADMIN_TOKEN \(16 characters or more\) in its environment and restart it\./
  : /This server has no admin token configured: start it with `npm start`, which makes one .*or set BENCHTRACK_ADMIN_TOKEN/;

describe("a server with no admin token", () => {
  it("answers an empty Bearer header (an unset shell variable) with 401, saying so and that it has no admin token", async () => {
    const answer = await upload(uniqueSlug("empty-bearer"), "");
    expect(answer.status).toBe(401);
    expect(answer.message).toMatch(/holds no token after "Bearer" \(was the variable meant to hold it empty/);
    expect(answer.message).toMatch(NO_ADMIN_TOKEN);
  });

  it("answers a token it cannot know with 401 naming the missing admin token; no token at all, the same", async () => {
    const unknown = await upload(uniqueSlug("unknown-token"), "a-token-copied-from-another-server");
    expect(unknown.status).toBe(401);
    expect(unknown.message).toMatch(/^The token is not valid \(unknown or revoked\)\. /);
    expect(unknown.message).toMatch(NO_ADMIN_TOKEN);

    const anonymous = await upload(uniqueSlug("anonymous"), null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.message).toMatch(/^Uploading needs a token/);
    expect(anonymous.message).toMatch(NO_ADMIN_TOKEN);
  });

  it("still takes a project token's upload (201), and refuses it an admin call with 403, not 401", async () => {
    const { slug, uploadToken } = await seedProjectWithToken(await getDb(), "project-token");
    expect((await upload(slug, uploadToken)).status).toBe(201);
    const minted = await call(createToken, `/api/v1/projects/${slug}/tokens`, { project: slug }, { method: "POST", token: uploadToken });
    expect(minted.status).toBe(403);
  });
});
