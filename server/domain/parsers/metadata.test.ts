import { describe, expect, it } from "vitest";
import { applyRunMetadata, parseMetadataQuery } from "./metadata";
import { readFixtureJson } from "./fixtures/read-fixture";
import { parseGhz } from "./ghz/ghz";
import { errorOf } from "./fixtures/input-error-of";

describe("parseMetadataQuery", () => {
  it("reads every metadata parameter and attr.<key>, ignoring the others", () => {
    const query = new URLSearchParams(
      "format=k6&label=baseline&round=2&branch=main&commit=9f1c2e7&pr=42&build_url=https%3A%2F%2Fci.example%2F1&started_at=2026-11-22T10:00:00Z&attr.db=postgres15&attr.region=eu",
    );
    expect(parseMetadataQuery(query)).toEqual({
      label: "baseline",
      round: 2,
      branch: "main",
      commit: "9f1c2e7",
      pr: 42,
      build_url: "https://ci.example/1",
      started_at: "2026-11-22T10:00:00Z",
      attributes: { db: "postgres15", region: "eu" },
    });
    expect(parseMetadataQuery(new URLSearchParams())).toEqual({});
  });

  it.each([
    ["round=two", "query.round"],
    ["round=-1", "query.round"],
    ["round=", "query.round"],
    ["pr=1e3", "query.pr"],
    ["pr=0", "query.pr"],
    ["started_at=yesterday", "query.started_at"],
    ["build_url=not-a-url", "query.build_url"],
    ["commit=release-42", "query.commit"],
    ["commit=9f1c2e", "query.commit"],
    ["base_commit=HEAD~1", "query.base_commit"],
    ["attr.=x", "query.attr."],
    ["config.=x", "query.config."],
    ["config.vus=many", "query.config.vus"],
    ["config.rate=0", "query.config.rate"],
    ["config.concurrency=-4", "query.config.concurrency"],
  ])("rejects %s at %s", (query, path) => {
    const error = errorOf(() => parseMetadataQuery(new URLSearchParams(query)));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(path);
  });
});

describe("config.<key> metadata", () => {
  it("reads load settings from the query, numbers as numbers", () => {
    expect(parseMetadataQuery(new URLSearchParams("config.vus=50&config.rate=12.5&config.profile=ramp-up&config.duration=30s"))).toEqual({
      config: { vus: 50, rate: 12.5, profile: "ramp-up", duration: "30s" },
    });
  });

  it("sets the run's load level over what the file states, keeping the rest", () => {
    const run = parseGhz(readFixtureJson("ghz/baseline/round1/GetListing.json"));
    expect(run.environment.config).toMatchObject({ concurrency: 10, rps: 100 });
    const applied = applyRunMetadata(run, parseMetadataQuery(new URLSearchParams("config.concurrency=40")));
    expect(applied.environment.config).toEqual({ ...run.environment.config, concurrency: 40 });
  });
});

describe("applyRunMetadata", () => {
  it("overrides what the file says and merges attributes", () => {
    const run = parseGhz(readFixtureJson("ghz/baseline/round1/GetListing.json"));
    const applied = applyRunMetadata(run, { label: "baseline", round: 1, branch: "main", pr: 7, started_at: "2026-01-01T00:00:00Z", attributes: { variant: "override", db: "pg" } });
    expect(applied.label).toBe("baseline");
    expect(applied.startedAt).toBe("2026-01-01T00:00:00Z");
    expect(applied.environment.git).toMatchObject({ branch: "main", pullRequest: 7, commit: null });
    expect(applied.environment.attributes).toEqual({ ...run.environment.attributes, variant: "override", db: "pg" });
    expect(run.label).toBeNull(); // the input is not changed
  });
});
