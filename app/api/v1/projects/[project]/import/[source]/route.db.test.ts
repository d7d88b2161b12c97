import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { getDatabase } from "@/server/db";
import { stripDataJsPrefix } from "@/server/domain/parsers/github-action-benchmark";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintProjectToken } from "@/server/testing/seed";
import { GET as getRun } from "../../runs/[id]/route";
import { GET as listRuns, POST as uploadRun } from "../../runs/route";
import { PUT as putWebhook } from "../../webhook/route";
import { POST as importHistory } from "./route";

// History imports through the API (real handlers, the database the environment names: PGlite, or
// PostgreSQL with DATABASE_URL), on real github-action-benchmark gh-pages files (their README says where
// each was found), and a BMF upload judged by the CI gate in the direction of its measure.

setUpRouteTestDatabase();

type Json = Record<string, any>;

const EXAMPLES = path.resolve(import.meta.dirname, "../../../../../../../server/domain/parsers/github-action-benchmark/examples");
const example = (name: string) => readFileSync(path.join(EXAMPLES, name), "utf8");

async function post(slug: string, source: string, body: string, options: { token?: string | null; query?: Record<string, string> } = {}) {
  return call(importHistory, `/api/v1/projects/${slug}/import/${source}`, { project: slug, source }, { method: "POST", body, ...options });
}

async function runsOf(slug: string): Promise<Json[]> {
  const response = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug });
  expect(response.status).toBe(200);
  return ((await response.json()) as { runs: Json[] }).runs;
}

describe("POST /api/v1/projects/:p/import/github-action-benchmark", () => {
  it("imports a real data.js history as runs with their commits and dates, in date order, seen by the history and trends; again, it creates nothing", async () => {
    const slug = uniqueSlug("import-gab");
    await createProjectThroughApi(slug);
    const token = await mintProjectToken(slug, "ci");

    const response = await post(slug, "github-action-benchmark", example("azure-storage-fuse.data.js"), { token });
    expect(response.status, await response.clone().text()).toBe(201);
    const answer = (await response.json()) as Json;
    expect({ created: answer.created, skipped: answer.skipped }).toEqual({ created: 2, skipped: 0 });
    expect(answer.runs.map((run: Json) => [run.path, run.commit, run.startedAt, run.label, run.status])).toEqual([
      ['entries["Benchmark"][0]', "03e72e47d37985e5c28051c0ff17bdc0c7315e74", new Date(1741427855161).toISOString(), "Benchmark", "created"],
      ['entries["Benchmark"][1]', "79978157a7cb7035566f743a8c86becadf2dec81", new Date(1741634186238).toISOString(), "Benchmark", "created"],
    ]);

    // The run list, newest first, has both on the default branch with their commits and the entries' dates.
    const listed = await runsOf(slug);
    expect(listed.map((run) => [run.git.commit, run.git.branch, run.startedAt, run.tool, run.format])).toEqual([
      ["79978157a7cb7035566f743a8c86becadf2dec81", "main", new Date(1741634186238).toISOString(), "github-action-benchmark", "custom-bigger-is-better"],
      ["03e72e47d37985e5c28051c0ff17bdc0c7315e74", "main", new Date(1741427855161).toISOString(), "github-action-benchmark", "custom-bigger-is-better"],
    ]);
    // The run page's document says where it came from.
    const stored = (await (await call(getRun, `/api/v1/projects/${slug}/runs/${answer.runs[1].id}`, { project: slug, id: answer.runs[1].id })).json()) as Json;
    expect(stored.environment.attributes).toMatchObject({
      imported_from: "github-action-benchmark data.js of https://github.com/Azure/azure-storage-fuse",
      "github-action-benchmark.tool": "customBiggerIsBetter",
      commit_url: "https://github.com/Azure/azure-storage-fuse/commit/79978157a7cb7035566f743a8c86becadf2dec81",
    });
    const write = stored.endpoints.find((endpoint: Json) => endpoint.name === "sequential_write");
    expect(write.metrics["MiB/s"]).toMatchObject({ value: 1879.4534505208333, better: "higher" });

    // The history page and the benchmark's trend read them, in date order.
    const { prisma } = await getDatabase();
    const caller = createCaller({ db: prisma });
    const history = await caller.history.list({ project: slug, filters: { label: "Benchmark", attributes: {} } });
    expect(history.runs.map((run) => run.id)).toEqual([answer.runs[1].id, answer.runs[0].id]);
    const trend = await caller.endpoint.trends({ project: slug, endpoint: "sequential_write", label: "Benchmark" });
    expect(trend.points.map((point) => point.runId)).toEqual([answer.runs[0].id, answer.runs[1].id]);

    // The jobs an upload queues ran (rollups, detection): no webhook is queued for old history.
    await runQueuedJobsNow();
    expect(await prisma.webhookDelivery.count({ where: { project: { slug } } })).toBe(0);

    // The same file again (as data.json, without the prefix): nothing new.
    const again = await post(slug, "github-action-benchmark", stripDataJsPrefix(example("azure-storage-fuse.data.js")), { token });
    expect(again.status).toBe(200);
    const replay = (await again.json()) as Json;
    expect({ created: replay.created, skipped: replay.skipped }).toEqual({ created: 0, skipped: 2 });
    expect(replay.runs.map((run: Json) => run.id)).toEqual(answer.runs.map((run: Json) => run.id));
    expect(await runsOf(slug)).toHaveLength(2);

    // One audit entry for the import that stored runs, naming the token and the counts (none for the replay).
    const audit = await prisma.auditEntry.findMany({ where: { projectSlug: slug, action: "history.import" }, select: { actor: true, detail: true } });
    expect(audit).toEqual([{ actor: 'project token "ci"', detail: { source: "github-action-benchmark", created: 2, skipped: 0 } }]);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("refuses a malformed file with a 400 naming the path, and writes nothing (not even its valid entries)", async () => {
    const slug = uniqueSlug("import-bad");
    await createProjectThroughApi(slug);
    const data = JSON.parse(stripDataJsPrefix(example("go-conventionalcommit.data.js")));
    data.entries["Rust Benchmark"] = JSON.parse(stripDataJsPrefix(example("azure-storage-fuse.data.js"))).entries.Benchmark;
    data.entries["Rust Benchmark"][1].benches[0].value = "fast";
    const response = await post(slug, "github-action-benchmark", `window.BENCHMARK_DATA = ${JSON.stringify(data, null, 2)}`);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: Json }).error;
    expect(error.details[0].path).toBe('entries["Rust Benchmark"][1].benches[0].value');
    expect(error.message).toContain('entries["Rust Benchmark"][1].benches[0].value');
    expect(await runsOf(slug)).toEqual([]);

    const notJson = await post(slug, "github-action-benchmark", "window.BENCHMARK_DATA = {");
    expect(notJson.status).toBe(400);
    expect(await runsOf(slug)).toEqual([]);
  });

  it("is refused to another project's token (403), without a token (401), for an unknown source (404) or project (404), past the size cap (413)", async () => {
    const slug = uniqueSlug("import-auth");
    const other = uniqueSlug("import-other");
    await createProjectThroughApi(slug);
    await createProjectThroughApi(other);
    const otherToken = await mintProjectToken(other);
    const body = example("go-conventionalcommit.data.js");
    expect((await post(slug, "github-action-benchmark", body, { token: otherToken })).status).toBe(403);
    expect((await post(slug, "github-action-benchmark", body, { token: null })).status).toBe(401);
    expect((await post(slug, "codspeed", body)).status).toBe(404);
    expect((await post(uniqueSlug("import-none"), "github-action-benchmark", body)).status).toBe(404);
    expect(await runsOf(slug)).toEqual([]);
    const huge = `window.BENCHMARK_DATA = {"entries": {"x": [${" ".repeat(51 * 1024 * 1024)}]}}`;
    expect((await post(slug, "github-action-benchmark", huge)).status).toBe(413);
  });

  it("puts the runs on ?branch= and ?testbed=, and keeps go's ns/op as each benchmark's time per operation", async () => {
    const slug = uniqueSlug("import-go");
    await createProjectThroughApi(slug);
    const response = await post(slug, "github-action-benchmark", example("go-conventionalcommit.data.js"), { query: { branch: "gh-pages-history", testbed: "gha-ubuntu" } });
    expect(response.status).toBe(201);
    const [run] = await runsOf(slug);
    expect(run!.git.branch).toBe("gh-pages-history");
    const stored = (await (await call(getRun, `/api/v1/projects/${slug}/runs/${run!.id}`, { project: slug, id: run!.id })).json()) as Json;
    expect(stored.environment.testbed).toBe("gha-ubuntu");
    expect(stored.endpoints.find((endpoint: Json) => endpoint.name === "BenchmarkNewRawMessage__subject_and_long_body").latency.mean).toBeCloseTo(5833e-6, 12);
  });
});

describe("change-point detection over an imported history", () => {
  it("records the step in old history (a regression and its incident) as uploads in date order would, and sends no webhook for it", async () => {
    const slug = uniqueSlug("import-step");
    await createProjectThroughApi(slug);
    const hook = await call(putWebhook, `/api/v1/projects/${slug}/webhook`, { project: slug }, { method: "PUT", body: JSON.stringify({ url: "https://hooks.example.com/x" }) });
    expect(hook.status).toBe(200);
    // A test input, not an example file: 30 nightly entries of one suite, the parse time doubling at the 16th.
    const day = 86_400_000;
    const entries = Array.from({ length: 30 }, (_, index) => ({
      commit: { id: (0xabc0000 + index).toString(16).padStart(12, "0"), message: `commit ${index}`, timestamp: new Date(Date.UTC(2025, 0, 1) + index * day).toISOString() },
      date: Date.UTC(2025, 0, 1, 3) + index * day,
      tool: "customSmallerIsBetter",
      benches: [{ name: "parse", unit: "ms", value: (index < 15 ? 10 : 20) + ((index * 7) % 5) * 0.05 }],
    }));
    const response = await post(slug, "github-action-benchmark", `window.BENCHMARK_DATA = ${JSON.stringify({ lastUpdate: 0, repoUrl: "https://example.com/x", entries: { Nightly: entries } })}`);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as Json;

    await runQueuedJobsNow();
    const { prisma } = await getDatabase();
    const project = await prisma.project.findUniqueOrThrow({ where: { slug } });
    const regressions = await prisma.change.findMany({ where: { projectId: project.id, kind: "regression" }, select: { firstRunId: true } });
    expect(regressions.map((change) => change.firstRunId)).toEqual([answer.runs[15].id]);
    expect(await prisma.incident.count({ where: { projectId: project.id } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { projectId: project.id } })).toBe(0);
  });
});

describe("POST /api/v1/projects/:p/import/bencher", () => {
  const results = { "sort 1000": { latency: { value: 88000, lower_value: 87420, upper_value: 88880 } } };
  const line = (commit: string, date: string, extra: object = {}) => JSON.stringify({ commit, date, results, ...extra });

  it("imports NDJSON lines of BMF runs with their commits, dates and testbeds, once", async () => {
    const slug = uniqueSlug("import-bencher");
    await createProjectThroughApi(slug);
    const body = [line("a1b2c3d4e5f6", "2025-01-02T03:04:05Z", { testbed: "ubuntu-latest" }), line("b1b2c3d4e5f6", "2025-01-01T03:04:05Z", { testbed: "ubuntu-latest" })].join("\n");
    const response = await post(slug, "bencher", body, { query: { label: "bencher" } });
    expect(response.status, await response.clone().text()).toBe(201);
    const answer = (await response.json()) as Json;
    expect(answer.runs.map((run: Json) => [run.path, run.commit])).toEqual([
      ["line 2", "b1b2c3d4e5f6"],
      ["line 1", "a1b2c3d4e5f6"],
    ]);
    expect((await runsOf(slug)).map((run) => [run.tool, run.format, run.label])).toEqual([
      ["bencher", "bencher-bmf", "bencher"],
      ["bencher", "bencher-bmf", "bencher"],
    ]);
    const again = (await (await post(slug, "bencher", body, { query: { label: "bencher" } })).json()) as Json;
    expect({ created: again.created, skipped: again.skipped }).toEqual({ created: 0, skipped: 2 });
    const bad = await post(slug, "bencher", `${line("c1b2c3d4e5f6", "2025-01-03T03:04:05Z")}\n{"commit": "c2b2c3d4e5f6", "date": "2025-01-04T00:00:00Z", "results": {"sort": {"latency": {}}}}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Json }).error.details[0].path).toBe("line 2: results.sort.latency.value");
    expect(await runsOf(slug)).toHaveLength(2);
  });
});

describe("a BMF upload judged by the CI gate in its measure's direction", () => {
  async function upload(slug: string, bmf: object, commit: string) {
    const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: JSON.stringify(bmf), query: { branch: "main", commit, label: "bmf" } });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as Json;
  }
  // Eight runs of main, throughput within ±1% (a quiet series).
  const HISTORY = [1000, 1008, 995, 1003, 998, 1006, 992, 1001];
  const throughput = (value: number) => ({ parse: { throughput: { value } }, steady: { throughput: { value: 5000 } } });

  it("fails a throughput that fell by half (bigger is better), and does not fail one that doubled", async () => {
    const falling = uniqueSlug("bmf-falling");
    const rising = uniqueSlug("bmf-rising");
    for (const [index, value] of HISTORY.entries()) {
      const first = await upload(falling, throughput(value), `aa${index}bbccdd`);
      expect(first.format).toBe("bencher-bmf");
      await upload(rising, throughput(value), `aa${index}bbccdd`);
    }
    const fell = await upload(falling, throughput(500), "ffeeddccbb");
    expect(fell.outcome, fell.reasons.join("\n")).toBe("fail");
    expect(fell.comparison.regressions.map((regression: Json) => regression.endpoint)).toEqual(["parse"]);
    const rose = await upload(rising, throughput(2000), "ffeeddccbb");
    expect(rose.outcome, rose.reasons.join("\n")).not.toBe("fail");
    expect(rose.comparison.regressions).toEqual([]);
  });

  it("fails a customBiggerIsBetter MiB/s that fell (no time per operation: gated on its one directed metric)", async () => {
    const slug = uniqueSlug("custom-bigger");
    // The benches of the real azure-storage-fuse entries, their MiB/s as written, then the same run at half the bandwidth.
    const [first, second] = JSON.parse(stripDataJsPrefix(example("azure-storage-fuse.data.js"))).entries.Benchmark.map((entry: Json) => entry.benches as Json[]);
    const send = async (benches: Json[], commit: string) => {
      const response = await call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
        method: "POST",
        body: JSON.stringify(benches),
        query: { branch: "main", commit, label: "Benchmark", format: "customBiggerIsBetter" },
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return (await response.json()) as Json;
    };
    for (let index = 0; index < 8; index++) await send(index % 2 === 0 ? first! : second!, `ab${index}cdef01`);
    const halved = first!.map((bench: Json) => (bench.name === "sequential_write" ? { ...bench, value: bench.value / 2 } : bench));
    const answer = await send(halved, "ffeeddccbb");
    expect(answer.format).toBe("custom-bigger-is-better");
    expect(answer.outcome, answer.reasons.join("\n")).toBe("fail");
    expect(answer.comparison.regressions.map((regression: Json) => [regression.endpoint, regression.metric])).toEqual([["sequential_write", "metrics.MiB/s"]]);
  });
});
