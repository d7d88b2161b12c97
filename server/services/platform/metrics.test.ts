import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getMetrics, recordCacheLookups, renderMetrics, statusClassOf } from "./metrics";

// The metric names are an interface: the Grafana dashboard and docs/operations.md are built on them.
const registered = async () => (await getMetrics().registry.getMetricsAsJSON()).map((metric) => metric.name);
const SUFFIXES = /_(bucket|count|sum)$/;

describe("the metrics' names", () => {
  it.each(["docs/grafana-dashboard.json", "docs/operations.md"])("%s names only metrics the server exports", async (file) => {
    const text = readFileSync(path.resolve(import.meta.dirname, "../../..", file), "utf8");
    const names = new Set(await registered());
    const used = [...new Set(text.match(/\bbenchtrack_[a-z0-9_]+\b(?!\*)/g) ?? [])].filter((name) => !name.endsWith("_"));
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((name) => !names.has(name) && !names.has(name.replace(SUFFIXES, "")))).toEqual([]);
  });

  it("is one registry per process, whatever module instance asks", async () => {
    expect(getMetrics()).toBe((globalThis as unknown as { benchtrackMetrics: unknown }).benchtrackMetrics);
    recordCacheLookups("test-cache", 2, 1);
    const { text, contentType } = await renderMetrics();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^benchtrack_cache_requests_total\{cache="test-cache",result="hit"\} [1-9]/m);
    expect(text).toMatch(/^benchtrack_cache_requests_total\{cache="test-cache",result="miss"\} [1-9]/m);
  });

  it("classes statuses", () => {
    expect([201, 404, 413, 503].map(statusClassOf)).toEqual(["2xx", "4xx", "4xx", "5xx"]);
  });
});
