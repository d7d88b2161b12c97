import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { encodeCursor } from "../../domain/run-cursor";
import { hasActiveFilters, historySearch, parseHistorySearchParams } from "../../schemas/history";
import { listRunFilterOptions, listRunHistory, toRunFilters } from "./run-history";

describe("parseHistorySearchParams", () => {
  it("reads every filter and the cursor from the URL", () => {
    const cursor = encodeCursor({ startedAt: new Date("2026-11-05T10:00:00Z"), id: "run1" });
    const parsed = parseHistorySearchParams(
      new URLSearchParams(
        `branch=main&label=baseline&tool=k6&from=2026-11-01&to=2026-11-30&attr.db=postgres15&attr.region=eu&cursor=${cursor}`,
      ),
    );
    expect(parsed.filters).toEqual({
      branch: "main",
      label: "baseline",
      tool: "k6",
      from: "2026-11-01",
      to: "2026-11-30",
      attributes: { db: "postgres15", region: "eu" },
    });
    expect(parsed.cursor).toBe(cursor);
    expect(parsed.notices).toEqual([]);
    expect(parsed.shouldRedirect).toBe(false);
  });

  it("accepts Next's searchParams record, arrays included", () => {
    const parsed = parseHistorySearchParams({ label: "baseline", "attr.db": ["pg14", "pg15"], unknown: "x" });
    // A repeated attribute keeps the last value, like URLSearchParams.set would.
    expect(parsed.filters).toEqual({ label: "baseline", attributes: { db: "pg15" } });
  });

  it("folds the form's key=value attribute input into attr.<key> and asks for a redirect to the clean URL", () => {
    const parsed = parseHistorySearchParams(new URLSearchParams("branch=&label=baseline&tool=&from=&to=&attr=db%3Dpostgres%3D15"));
    expect(parsed.filters).toEqual({ label: "baseline", attributes: { db: "postgres=15" } });
    expect(parsed.shouldRedirect).toBe(true);
    expect(parsed.canonical).toBe("?label=baseline&attr.db=postgres%3D15");
  });

  it("drops bad values with a notice instead of failing, and then does not redirect", () => {
    const parsed = parseHistorySearchParams(
      new URLSearchParams("from=2026-02-31&to=yesterday&attr=nokey&cursor=garbage&label=baseline"),
    );
    expect(parsed.filters).toEqual({ label: "baseline", attributes: {} });
    expect(parsed.cursor).toBeNull();
    expect(parsed.notices).toHaveLength(4);
    expect(parsed.notices.join("\n")).toMatch(/from=2026-02-31 ignored: not a calendar date/);
    expect(parsed.notices.join("\n")).toMatch(/write it as key=value/);
    expect(parsed.shouldRedirect).toBe(false);
  });

  it("round-trips through historySearch, in one canonical order", () => {
    const search = historySearch({ tool: "ghz", label: "a b", attributes: { z: "1", a: "2" }, from: "2026-01-01" }, "c1");
    expect(search).toBe("?label=a+b&tool=ghz&from=2026-01-01&attr.a=2&attr.z=1&cursor=c1");
    expect(historySearch({ attributes: {} })).toBe("");
    const parsed = parseHistorySearchParams(new URLSearchParams(search.slice(1)));
    expect(parsed.filters).toEqual({ tool: "ghz", label: "a b", attributes: { a: "2", z: "1" }, from: "2026-01-01" });
    expect(parsed.canonical).toBe(search.replace("&cursor=c1", ""));
  });
});

describe("toRunFilters", () => {
  it("reads from/to as whole UTC days, to inclusive", () => {
    expect(toRunFilters({ from: "2026-11-01", to: "2026-11-30", attributes: {} })).toEqual({
      startedFrom: new Date("2026-11-01T00:00:00Z"),
      startedBefore: new Date("2026-12-01T00:00:00Z"),
    });
    expect(toRunFilters({ branch: "main", attributes: { db: "pg" } })).toEqual({ branch: "main", attributes: { db: "pg" } });
    expect(hasActiveFilters({ attributes: {} })).toBe(false);
    expect(hasActiveFilters({ attributes: { db: "pg" } })).toBe(true);
  });
});

interface SeedRun {
  label: string;
  round?: number;
  branch: string;
  startedAt: string;
  tool?: string;
  attributes?: Record<string, string>;
}

async function seedRun(database: Database, slug: string, run: SeedRun) {
  const outcome = await ingestTestRun(database.prisma, slug, {
    schema: "benchtrack/v1",
    tool: run.tool ?? "k6",
    label: run.label,
    round: run.round,
    startedAt: run.startedAt,
    durationSeconds: 30,
    environment: { git: { branch: run.branch, commit: "9f1c2e7aa" }, attributes: run.attributes ?? {} },
    endpoints: [{ name: "GET /a", requests: 100, failures: 1, throughput: 3.3, latency: { unit: "ms", p50: 1, p95: 2, p99: 3 } }],
  });
  return outcome.run.id;
}

describe.each(testDatabaseTargets())("run history on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("history");
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    const runs: (SeedRun & { key: string })[] = [
      { key: "b1", label: "baseline", round: 1, branch: "main", startedAt: "2026-11-01T10:00:00Z", attributes: { db: "postgres15" } },
      { key: "b2", label: "baseline", round: 2, branch: "main", startedAt: "2026-11-02T10:00:00Z", attributes: { db: "postgres16" } },
      { key: "m1", label: "ManagedAsync", round: 1, branch: "feature/async", startedAt: "2026-11-03T10:00:00Z", attributes: { db: "postgres15", region: "eu" } },
      { key: "m2", label: "ManagedAsync", round: 2, branch: "feature/async", startedAt: "2026-11-30T23:59:00Z", tool: "ghz" },
      { key: "l1", label: "baseline", branch: "main", startedAt: "2026-12-01T00:00:00Z", tool: "locust" },
    ];
    for (const { key, ...run } of runs) ids[key] = await seedRun(database, slug, run);
  });

  afterAll(async () => {
    await database.close();
  });

  const roundsOf = (page: Awaited<ReturnType<typeof listRunHistory>>) => page?.runs.map((run) => `${run.label}#${run.round}`);

  it("lists newest first with the aggregate and the project's repoUrl", async () => {
    const page = await listRunHistory(database.prisma, slug, { filters: { attributes: {} } });
    expect(page?.runs.map((run) => run.id)).toEqual([ids.l1, ids.m2, ids.m1, ids.b2, ids.b1]);
    expect(page?.runs[0]?.aggregate).toMatchObject({ requests: 100, p95Ms: 2 });
    expect(page?.project).toEqual({ slug, name: slug, repoUrl: null });
    expect(page?.nextCursor).toBeNull();
  });

  it("filters by label, branch, tool, date range (UTC days, to inclusive) and attributes", async () => {
    const list = (filters: Parameters<typeof listRunHistory>[2]["filters"]) => listRunHistory(database.prisma, slug, { filters });
    expect(roundsOf(await list({ label: "baseline", attributes: {} }))).toEqual(["baseline#null", "baseline#2", "baseline#1"]);
    expect(roundsOf(await list({ branch: "feature/async", attributes: {} }))).toEqual(["ManagedAsync#2", "ManagedAsync#1"]);
    expect(roundsOf(await list({ tool: "ghz", attributes: {} }))).toEqual(["ManagedAsync#2"]);
    expect(roundsOf(await list({ from: "2026-11-02", to: "2026-11-30", attributes: {} }))).toEqual([
      "ManagedAsync#2",
      "ManagedAsync#1",
      "baseline#2",
    ]);
    expect(roundsOf(await list({ attributes: { db: "postgres15" } }))).toEqual(["ManagedAsync#1", "baseline#1"]);
    expect(roundsOf(await list({ attributes: { db: "postgres15", region: "eu" } }))).toEqual(["ManagedAsync#1"]);
    expect(roundsOf(await list({ label: "baseline", attributes: { region: "eu" } }))).toEqual([]);
  });

  it("pages with keyset cursors under filters", async () => {
    const filters = { branch: "main", attributes: {} };
    const first = await listRunHistory(database.prisma, slug, { filters, limit: 2 });
    expect(first?.nextCursor).not.toBeNull();
    const second = await listRunHistory(database.prisma, slug, { filters, limit: 2, cursor: first?.nextCursor });
    expect([...(first?.runs ?? []), ...(second?.runs ?? [])].map((run) => run.id)).toEqual([ids.l1, ids.b2, ids.b1]);
    expect(second?.nextCursor).toBeNull();
  });

  it("offers the distinct branches, labels and tools of the project only", async () => {
    await seedRun(database, uniqueSlug("other"), { label: "other-label", branch: "other-branch", startedAt: "2026-11-01T00:00:00Z" });
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    expect(await listRunFilterOptions(database.prisma, project.id)).toEqual({
      branches: ["feature/async", "main"],
      labels: ["baseline", "ManagedAsync"],
      tools: ["ghz", "k6", "locust"],
    });
  });

  it("serves both through the history router, and 404s an unknown project", async () => {
    const caller = createCaller({ db: database.prisma });
    const page = await caller.history.list({ project: slug, filters: { label: "ManagedAsync", attributes: {} } });
    expect(page.runs).toHaveLength(2);
    expect((await caller.history.filterOptions({ project: slug })).tools).toContain("locust");
    await expect(caller.history.list({ project: "no-such-project", filters: { attributes: {} } })).rejects.toThrow(/not found/);
    await expect(caller.history.list({ project: slug, filters: { attributes: {} }, cursor: "bad" })).rejects.toThrow(/cursor/);
  });
});
