import { describe, expect, it } from "vitest";
import { checkAgainstOpenApi } from "./openapi-responses";

const settings = {
  slug: "listings",
  name: "Listings",
  description: null,
  defaultBranch: "main",
  repoUrl: null,
  minEffectPct: 5,
  alpha: 0.01,
  gateMetric: "auto",
  rawRetentionDays: null,
  retentionDays: null,
  retentionKeepRuns: null,
  visibility: null,
  effectiveVisibility: "public",
  isDemo: false,
  createdAt: "2026-11-22T10:00:00.000Z",
};

describe("checkAgainstOpenApi", () => {
  it("accepts an answer the document describes", async () => {
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", Response.json(settings))).toBeNull();
    expect(await checkAgainstOpenApi("DELETE", "/api/v1/projects/listings/tokens/t1", new Response(null, { status: 204 }))).toBeNull();
  });

  it("names a field of the wrong type, a missing one, or one the document does not have", async () => {
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", Response.json({ ...settings, alpha: "0.05" }))).toMatch(/\/alpha must be number/);
    const { name: _name, ...withoutName } = settings;
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", Response.json(withoutName))).toMatch(/must have required property 'name'/);
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", Response.json({ ...settings, secret: 1 }))).toMatch(/additional properties/);
  });

  it("refuses an undocumented status, content type or path, and an error answer that is not the envelope", async () => {
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", Response.json(settings, { status: 418 }))).toMatch(/status 418 is not documented/);
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", new Response("hi", { headers: { "content-type": "text/plain" } }))).toMatch(/content type "text\/plain"/);
    expect(await checkAgainstOpenApi("GET", "/api/v1/nowhere", Response.json({}))).toMatch(/no such path/);
    expect(await checkAgainstOpenApi("GET", "/api/v1/projects/listings", Response.json({ message: "no" }, { status: 404 }))).toMatch(/required property 'error'/);
  });
});
