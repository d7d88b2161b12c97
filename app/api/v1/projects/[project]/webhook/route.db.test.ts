import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintProjectToken } from "@/server/testing/seed";
import { GET as getWebhook, PUT as putWebhook } from "./route";

setUpRouteTestDatabase();

describe("project webhook settings and delivery log", () => {
  const slug = uniqueSlug("webhook");
  const path = `/api/v1/projects/${slug}/webhook`;
  let projectToken: string;

  beforeAll(async () => {
    await createProjectThroughApi(slug);
    projectToken = await mintProjectToken(slug);
  });

  const get = (token?: string | null) => call(getWebhook, path, { project: slug }, { token });
  const put = (body: unknown, token?: string | null) =>
    call(
      putWebhook,
      path,
      { project: slug },
      { method: "PUT", body: typeof body === "string" ? body : JSON.stringify(body), token },
    );

  it("starts with no URL, JSON per event, no secret and an empty log", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: null, format: "json", digest: "off", secret: null, deliveries: [] });
  });

  it("is admin only, both ways: the URL may carry a secret", async () => {
    expect((await get(null)).status).toBe(401);
    expect((await get(projectToken)).status).toBe(403);
    expect((await put({ url: "https://hooks.example.com/x" }, null)).status).toBe(401);
    expect((await put({ url: "https://hooks.example.com/x" }, projectToken)).status).toBe(403);
  });

  it("sets the URL (which makes a signing secret), then the format and digest alone, then turns webhooks off with null", async () => {
    const url = "https://hooks.slack.com/services/T000/B000/secretPathPart0123";
    const set = await put({ url });
    expect(set.status).toBe(200);
    const settings = await set.json();
    expect(settings).toEqual({ url, format: "json", digest: "off", secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), deliveries: [] });
    expect((await (await get()).json()).url).toBe(url);
    const db = await getDb();
    expect((await db.project.findUnique({ where: { slug }, select: { webhookUrl: true } }))?.webhookUrl).toBe(url);

    // Fields left out stay as they are; the secret is kept.
    const slack = await (await put({ format: "slack", digest: "daily" })).json();
    expect(slack).toMatchObject({ url, format: "slack", digest: "daily", secret: settings.secret });
    const own = await (await put({ secret: "my-own-signing-secret-42" })).json();
    expect(own).toMatchObject({ url, format: "slack", secret: "my-own-signing-secret-42" });

    const off = await put({ url: null });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ url: null, format: "slack", digest: "daily", secret: "my-own-signing-secret-42" });
  });

  it("refuses an unknown format or digest, a short secret, and an empty change, naming the field", async () => {
    for (const [body, path] of [
      [{ format: "discord" }, "format"],
      [{ digest: "hourly" }, "digest"],
      [{ secret: "short" }, "secret"],
      [{ secret: "has spaces in it, twenty+" }, "secret"],
    ] as const) {
      const response = await put(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error.details[0].path).toBe(path);
    }
    const empty = await put({});
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.details[0].message).toMatch(/at least one of url, format, digest, secret/);
  });

  it("accepts only http(s) URLs up to 1024 characters, and says which field is wrong", async () => {
    for (const url of [
      "ftp://example.com/hook",
      "javascript:alert(1)",
      "not a url",
      `https://example.com/${"a".repeat(1024)}`,
      42,
    ]) {
      const response = await put({ url });
      expect(response.status, String(url)).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe("bad_request");
      expect(body.error.details[0].path).toBe("url");
    }
    expect((await put({ url: null, extra: 1 })).status).toBe(400);
    const notJson = await put("{url:");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.details[0].path).toBe("body");
  });

  it("refuses URLs that point at this machine, the private network or a metadata service (SSRF)", async () => {
    for (const url of [
      "http://127.0.0.1:5432",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/hook",
      "http://0x7f000001/hook",
      "http://10.0.0.5:8080/hook",
      "http://localhost:3000/hook",
      "http://[::ffff:192.168.1.1]/",
      "http://[fd00:ec2::254]/",
    ]) {
      const response = await put({ url });
      expect({ url, status: response.status }).toEqual({ url, status: 400 });
      expect((await response.json()).error.details[0]).toMatchObject({ path: "url", message: expect.stringMatching(/loopback, private|this machine/) });
    }
  });

  it("lists the last 50 deliveries, newest first", async () => {
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    const start = Date.parse("2025-11-01T00:00:00Z");
    await db.webhookDelivery.createMany({
      data: Array.from({ length: 55 }, (_, index) => ({
        projectId: project.id,
        event: "incident.opened",
        format: "json" as const,
        url: "https://hooks.example.com/x",
        payload: { index },
        attempts: index % 3 === 0 ? 3 : 1,
        lastStatus: index % 3 === 0 ? 503 : 200,
        lastError: index % 3 === 0 ? "HTTP 503: upstream trouble" : null,
        deliveredAt: index % 3 === 0 ? null : new Date(start + index * 60_000 + 500),
        createdAt: new Date(start + index * 60_000),
      })),
    });
    const body = await (await get()).json();
    expect(body.deliveries).toHaveLength(50);
    expect(body.deliveries[0]).toEqual({
      id: expect.any(String),
      event: "incident.opened",
      format: "json",
      incidentId: null,
      incidentNumber: null,
      regressionId: null,
      digestDay: null,
      url: "https://hooks.example.com/x",
      attempts: 3,
      lastStatus: 503,
      lastError: "HTTP 503: upstream trouble",
      deliveredAt: null,
      createdAt: new Date(start + 54 * 60_000).toISOString(),
    });
    expect(body.deliveries[1]).toMatchObject({
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      deliveredAt: new Date(start + 53 * 60_000 + 500).toISOString(),
    });
    expect(body.deliveries[49].createdAt).toBe(new Date(start + 5 * 60_000).toISOString());
    expect(body.deliveries[0]).not.toHaveProperty("payload");
  });

  it("answers 404 for an unknown project", async () => {
    const other = uniqueSlug("nope");
    expect((await call(getWebhook, `/api/v1/projects/${other}/webhook`, { project: other })).status).toBe(404);
  });
});
