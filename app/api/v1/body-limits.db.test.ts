import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi } from "@/server/testing/seed";
import { POST as trpcPost } from "@/app/api/trpc/[trpc]/route";
import { PATCH as patchIncidents } from "./projects/[project]/incidents/route";
import { PATCH as patchProject } from "./projects/[project]/route";
import { POST as createShareLink } from "./projects/[project]/share-links/route";
import { PUT as putSla } from "./projects/[project]/sla/route";
import { POST as createProject } from "./projects/route";

// Limits before work (issue 36): a write with no token is refused before a byte of its body is read,
// and every JSON body is read with a cap as it streams — no request can make the server hold hundreds
// of megabytes. On the embedded database and (with DATABASE_URL) PostgreSQL.

setUpRouteTestDatabase();

/** A body of `totalBytes` of JSON-ish text, produced as it is pulled; `pulled()` says how much was. */
function endlessBody(totalBytes: number, chunkBytes = 64 * 1024) {
  let pulled = 0;
  const chunk = new TextEncoder().encode("[" + "1,".repeat(chunkBytes / 2 - 1) + "1");
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe("JSON bodies on write routes", () => {
  it("an anonymous 400 MB PATCH of incidents is refused (401) having read nothing of it", async () => {
    const slug = uniqueSlug("limits");
    await createProjectThroughApi(slug);
    const body = endlessBody(400 * 1024 * 1024);
    const response = await call(patchIncidents, `/api/v1/projects/${slug}/incidents`, { project: slug }, { method: "PATCH", body: body.stream, token: null });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/needs a token/);
    // A stream may have one chunk buffered ahead by the runtime; nothing like the body was read.
    expect(body.pulled()).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it("an anonymous 300 MB share-link POST and project POST are refused (401) before the body", async () => {
    const slug = uniqueSlug("limits");
    await createProjectThroughApi(slug);
    for (const [handler, path, params] of [
      [createShareLink, `/api/v1/projects/${slug}/share-links`, { project: slug }],
      [createProject, "/api/v1/projects", {}],
    ] as const) {
      const body = endlessBody(300 * 1024 * 1024);
      const response = await call(handler as typeof createShareLink, path, params as { project: string }, { method: "POST", body: body.stream, token: null });
      expect(response.status).toBe(401);
      expect(body.pulled()).toBeLessThanOrEqual(2 * 64 * 1024);
    }
  });

  it("with the admin token, a body past the route's cap is cut off as it streams: 413 naming the limit", async () => {
    const slug = uniqueSlug("limits");
    await createProjectThroughApi(slug);
    const body = endlessBody(400 * 1024 * 1024);
    const response = await call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, { method: "PATCH", body: body.stream });
    expect(response.status).toBe(413);
    const { error } = (await response.json()) as { error: { message: string; details: { path: string }[] } };
    expect(error.message).toMatch(/limit of 65,536 bytes/);
    expect(error.details[0]!.path).toBe("body");
    expect(body.pulled()).toBeLessThanOrEqual(65_536 + 3 * 64 * 1024);

    // A declared Content-Length past the cap is refused without reading.
    const declared = await call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, {
      method: "PATCH",
      body: JSON.stringify({ description: "x".repeat(70_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(declared.status).toBe(413);

    // The SLA route takes a larger policy (targets per endpoint), and still has a cap.
    const targets = Array.from({ length: 1000 }, (_, index) => ({ metric: "p95", op: "<=", threshold: 50 + index, unit: "ms", scope: { endpoint: `GET /api/item/${index}` } }));
    const sla = await call(putSla, `/api/v1/projects/${slug}/sla`, { project: slug }, { method: "PUT", body: JSON.stringify({ targets }) });
    expect(sla.status).not.toBe(413);
    const hugeSla = endlessBody(10 * 1024 * 1024);
    const refused = await call(putSla, `/api/v1/projects/${slug}/sla`, { project: slug }, { method: "PUT", body: hugeSla.stream });
    expect(refused.status).toBe(413);
    expect(hugeSla.pulled()).toBeLessThanOrEqual(1024 * 1024 + 3 * 64 * 1024);
  });

  it("REST bodies follow tRPC's text rules: a lone surrogate or invalid UTF-8 is a 400 naming the body, never stored as U+FFFD", async () => {
    const slug = uniqueSlug("limits");
    await createProjectThroughApi(slug);
    const surrogate = await call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, {
      method: "PATCH",
      body: '{"description":"before \\ud800 after"}',
    });
    expect(surrogate.status).toBe(400);
    const { error } = (await surrogate.json()) as { error: { details: { path: string; message: string }[] } };
    expect(error.details[0]).toMatchObject({ path: "body.description" });
    expect(error.details[0]!.message).toMatch(/lone UTF-16 surrogate/);

    const invalidUtf8 = await call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, {
      method: "PATCH",
      body: Buffer.concat([Buffer.from('{"description":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    });
    expect(invalidUtf8.status).toBe(400);
    expect(((await invalidUtf8.json()) as { error: { message: string } }).error.message).toMatch(/not valid UTF-8/);
  });
});

describe("tRPC bodies", () => {
  it("a body past 1 MiB is refused (413) as it streams, before tRPC parses it", async () => {
    const body = endlessBody(200 * 1024 * 1024);
    const request = new Request("http://localhost/api/trpc/projects.create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    const response = await trpcPost(request);
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(1024 * 1024 + 3 * 64 * 1024);
  });
});
