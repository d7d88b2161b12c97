import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../../playwright.config";
import { fixture, ghzRound, uniqueSlug } from "../helpers";

/**
 * The REST API over real HTTP, as curl in CI calls it: the in-process route tests cover the cases in
 * depth on both databases; these check what only a real server shows (compression on the wire,
 * multipart framing, headers, content types, status codes end to end).
 */
const admin = { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test("a gzip-encoded k6 NDJSON stream uploads, reads back, and its raw bytes come back as sent", async ({ request }) => {
  const slug = uniqueSlug("api-ndjson");
  const points = fixture("k6/baseline/short-ndjson/points.ndjson");
  const uploaded = await request.post(`/api/v1/projects/${slug}/runs?label=baseline&branch=main`, {
    data: gzipSync(points),
    headers: { ...admin, "Content-Encoding": "gzip", "Content-Type": "application/x-ndjson" },
  });
  expect(uploaded.status()).toBe(201);
  const answer = await uploaded.json();
  // A first run of its series: nothing to compare with, which the gate says rather than PASS.
  expect(answer).toMatchObject({ project: slug, format: "k6-ndjson", outcome: "inconclusive", inconclusive: { kind: "too-little-history" } });
  expect(answer.url).toMatch(new RegExp(`/projects/${slug}/runs/${answer.id}$`));

  const run = await request.get(`/api/v1/projects/${slug}/runs/${answer.id}`);
  expect(run.status()).toBe(200);
  expect(await run.json()).toMatchObject({ id: answer.id, label: "baseline", format: "k6-ndjson" });

  const raw = await request.get(`/api/v1/projects/${slug}/runs/${answer.id}/raw`, { headers: { "Accept-Encoding": "identity" } });
  expect(raw.status()).toBe(200);
  expect(Buffer.compare(await raw.body(), points)).toBe(0);
});

test("five ghz reports as multipart make one run with five endpoints", async ({ request }) => {
  const slug = uniqueSlug("api-ghz");
  const multipart = Object.fromEntries(
    Object.entries(ghzRound("baseline", 1)).map(([name, buffer]) => [name, { name, mimeType: "application/json", buffer }]),
  );
  const response = await request.post(`/api/v1/projects/${slug}/runs?format=ghz`, { multipart, headers: admin });
  expect(response.status()).toBe(201);
  expect((await response.json()).endpoints).toHaveLength(5);
});

test("a retry with the same Idempotency-Key answers 200 with the first run", async ({ request }) => {
  const slug = uniqueSlug("api-retry");
  const send = () =>
    request.post(`/api/v1/projects/${slug}/runs?label=baseline`, {
      data: fixture("k6/baseline/round1/summary.json"),
      headers: { ...admin, "Idempotency-Key": "ci-build-41" },
    });
  const first = await send();
  expect(first.status()).toBe(201);
  const retry = await send();
  expect(retry.status()).toBe(200);
  expect((await retry.json()).id).toBe((await first.json()).id);
});

test("errors are the JSON envelope with the status, the code and the path at fault", async ({ request }) => {
  const slug = uniqueSlug("api-errors");
  const anonymous = await request.post(`/api/v1/projects/${slug}/runs`, { data: "{}" });
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error).toMatchObject({ code: "unauthorized" });

  const broken = await request.post(`/api/v1/projects/${slug}/runs?format=benchtrack`, {
    data: JSON.stringify({ schema: "benchtrack/v1", endpoints: [{ name: "GetListing", requests: "many" }] }),
    headers: { ...admin, "Content-Type": "application/json" },
  });
  expect(broken.status()).toBeGreaterThanOrEqual(400);
  expect(broken.status()).toBeLessThan(500);
  const envelope = (await broken.json()).error;
  expect(envelope.details.map((detail: { path: string }) => detail.path)).toContain("endpoints[0].requests");

  const missing = await request.get(`/api/v1/projects/${slug}/runs/nope`);
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe("not_found");
});

test("a comparison answers as a pull-request comment with Accept: text/markdown", async ({ request }) => {
  const slug = uniqueSlug("api-compare");
  for (const [variant, label] of [["baseline", "baseline"], ["managedasync", "ManagedAsync"]] as const) {
    for (const round of [1, 2, 3] as const) {
      const response = await request.post(`/api/v1/projects/${slug}/runs?format=k6&label=${label}&round=${round}`, {
        data: fixture(`k6/${variant}/round${round}/summary.json`),
        headers: admin,
      });
      expect(response.status()).toBe(201);
    }
  }
  const markdown = await request.get(`/api/v1/projects/${slug}/compare?base=label:baseline&head=label:ManagedAsync`, {
    headers: { Accept: "text/markdown" },
  });
  expect(markdown.status()).toBe(200);
  expect(markdown.headers()["content-type"]).toContain("text/markdown");
  expect(await markdown.text()).toMatch(/^### /);

  const badge = await request.get(`/api/v1/projects/${slug}/badge.svg`);
  expect(badge.status()).toBe(200);
  expect(badge.headers()["content-type"]).toContain("image/svg+xml");
});

test("the OpenAPI document and the upload format's JSON Schema are served", async ({ request }) => {
  const openapi = await request.get("/api/v1/openapi.json");
  expect(openapi.status()).toBe(200);
  const document = await openapi.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/v1/projects/{project}/runs");

  const schema = await request.get("/api/v1/schema/run.json");
  expect(schema.status()).toBe(200);
  expect((await schema.json()).$schema).toContain("json-schema.org");
});
