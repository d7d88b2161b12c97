import { describe, expect, it } from "vitest";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { POST as uploadRun } from "./route";
import { fixtureText, type Json } from "./uploads.fixture";

// ?endpoint= on an upload, on the database the environment names (CI runs this file on the embedded
// database and on PostgreSQL): it names a single-target report's one endpoint, and is refused on a report
// of several endpoints, as an unknown ?format= is, each refusal naming its query path.

setUpRouteTestDatabase();

describe("every fixture uploads with plain curl (or multipart) and reads back with its own numbers", () => {
  it("names a single-target report's endpoint with ?endpoint=", async () => {
    const slug = uniqueSlug("named");
    const response = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      {
        method: "POST",
        body: fixtureText("hey/baseline/round1/hey.txt"),
        query: { endpoint: "GetListing" },
      },
    );
    const json = (await response.json()) as Json;
    expect(response.status).toBe(201);
    expect(json.endpoints).toEqual(["GetListing"]);
    expect(json.run.endpoints[0].requests).toBe(json.run.aggregate.requests);
    expect(json.run.endpoints[0].latency).toEqual(json.run.aggregate.latency);
  });

  it("refuses ?endpoint= on a report of several endpoints, and an unknown ?format=, with their paths", async () => {
    const slug = uniqueSlug("refused");
    const several = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      {
        method: "POST",
        body: fixtureText("artillery/baseline/round1/report.json"),
        query: { endpoint: "GetListing" },
      },
    );
    expect(several.status).toBe(400);
    expect(((await several.json()) as Json).error.details[0].path).toBe("query.endpoint");
    const unknown = await call(
      uploadRun,
      `/api/v1/projects/${slug}/runs`,
      { project: slug },
      {
        method: "POST",
        body: fixtureText("wrk/baseline/round1/wrk.txt"),
        query: { format: "gatling" },
      },
    );
    expect(unknown.status).toBe(400);
    const error = ((await unknown.json()) as Json).error;
    expect(error.details[0].path).toBe("query.format");
    expect(error.message).toContain("wrk");
    expect(error.message).toContain("/docs/api");
  });
});
