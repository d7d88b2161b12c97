import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { prepareProjectExport } from "@/server/services/transfer";
import { uniqueSlug } from "@/server/testing/databases";
import { runQueuedJobsNow } from "@/server/testing/jobs";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintProjectToken } from "@/server/testing/seed";
import type { SeededProject } from "@/server/testing/transfer-seed";
import { seedTransferProject } from "@/server/testing/transfer-seed";
import { GET as exportProject } from "../export/route";
import { GET as listRuns, POST as uploadRun } from "../runs/route";
import { POST as importProject } from "./route";

const ADMIN = { kind: "admin" } as const;

// A project's export and import through the REST API, on the embedded database and (with DATABASE_URL)
// PostgreSQL: the export carries everything and no secret; read back into an emptied project it gives
// the same export again; a second import creates nothing; hostile files are refused naming the line,
// with nothing written.

const LINE_CAP = 2 * 1024 * 1024;
const IMPORT_CAP = 8 * 1024 * 1024;
setUpRouteTestDatabase({ BENCHTRACK_MAX_IMPORT_LINE_CHARS: String(LINE_CAP), BENCHTRACK_MAX_IMPORT_BYTES: String(IMPORT_CAP) });

type Line = Record<string, unknown> & { kind: string };

async function exportOf(slug: string, token?: string | null): Promise<Response> {
  return call(exportProject, `/api/v1/projects/${slug}/export`, { project: slug }, { token });
}

async function exportLines(slug: string): Promise<Line[]> {
  const response = await exportOf(slug);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/x-ndjson");
  const text = await response.text();
  expect(text.endsWith("\n")).toBe(true);
  return text.trimEnd().split("\n").map((line) => JSON.parse(line) as Line);
}

async function importText(slug: string, body: BodyInit, headers: Record<string, string> = {}) {
  const response = await call(importProject, `/api/v1/projects/${slug}/import`, { project: slug }, { method: "POST", body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string; details: { path: string }[] } } };
}

const asText = (lines: readonly Line[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;

/** An export without what differs between two exports of the same data: the time, and endpoint ids (each database numbers its own). */
function comparable(lines: readonly Line[]): unknown[] {
  const endpointNames = new Map<unknown, string>();
  for (const line of lines) if (line.kind === "endpoint") endpointNames.set(line.id, `${String(line.name)}|${String(line.protocol)}`);
  const named = (id: unknown) => (id === null ? null : endpointNames.get(id));
  return lines
    .map((line) => {
      if (line.kind === "header") return { ...line, exportedAt: "(time)" };
      // The project imported into is its own row: its settings are the file's, its id and times its own.
      if (line.kind === "project") return { ...line, id: "(project)", createdAt: "(time)", updatedAt: "(time)" };
      if (line.kind === "endpoint") return { ...line, id: named(line.id) };
      if (line.kind === "change") return { ...line, endpointId: named(line.endpointId) };
      if (line.kind === "run") {
        const rows = (key: string) => (line[key] as Record<string, unknown>[]).map((row) => ({ ...row, endpointId: named(row.endpointId) }));
        return { ...line, results: rows("results"), metrics: rows("metrics") };
      }
      return line;
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

async function countRows(slug: string) {
  const db = await getDb();
  const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  const where = { projectId: project.id };
  return {
    runs: await db.run.count({ where }),
    endpoints: await db.endpoint.count({ where }),
    results: await db.result.count({ where }),
    incidents: await db.incident.count({ where }),
    annotations: await db.annotation.count({ where }),
  };
}

describe("export and import of a project", () => {
  const slug = uniqueSlug("transfer");
  let seeded: SeededProject;
  let original: Line[];

  beforeAll(async () => {
    seeded = await seedTransferProject(slug);
    // Who may read it: private, with a grant by email and one by group.
    const db = await getDb();
    const project = await db.project.update({ where: { slug }, data: { visibility: "private" }, select: { id: true } });
    await db.projectMember.createMany({
      data: [
        { projectId: project.id, kind: "email", subject: "ada@example.com", role: "maintainer", grantedBy: "admin token" },
        { projectId: project.id, kind: "group", subject: "perf-team", role: "viewer", grantedBy: "Ada Lovelace <ada@example.com>" },
      ],
    });
    original = await exportLines(slug);
  }, 120_000);

  it("exports every kind of row, the raw uploads, and no secret; admin only", async () => {
    const kinds = new Map<string, number>();
    for (const line of original) kinds.set(line.kind, (kinds.get(line.kind) ?? 0) + 1);
    expect(original[0]).toMatchObject({ kind: "header", format: "benchtrack-export", version: 1, scope: "project", project: slug });
    expect(original.at(-1)).toEqual({ kind: "end", projects: 1, runs: kinds.get("run"), lines: original.length - 1 });
    const runCount = seeded.k6Runs.length + 1 + seeded.steppedRuns.length;
    expect(kinds.get("run")).toBe(runCount);
    expect(kinds.get("raw")).toBe(runCount);
    for (const kind of ["project", "endpoint", "annotation", "pin", "incident", "change"]) expect(kinds.get(kind), kind).toBeGreaterThanOrEqual(1);
    expect(kinds.has("token") || kinds.has("shareLink")).toBe(false);
    const project = original.find((line) => line.kind === "project")!;
    expect(project).not.toHaveProperty("webhookSecret");
    expect(project.slaPolicy).toMatchObject({ targets: [{ metric: "p95" }] });
    expect(project).toMatchObject({
      visibility: "private",
      members: [
        { kind: "email", subject: "ada@example.com", role: "maintainer", grantedBy: "admin token" },
        { kind: "group", subject: "perf-team", role: "viewer", grantedBy: "Ada Lovelace <ada@example.com>" },
      ],
    });
    const incident = original.find((line) => line.kind === "incident")!;
    expect((incident.events as unknown[]).length).toBeGreaterThanOrEqual(1);
    const k6 = original.find((line) => line.kind === "run" && line.id === seeded.k6Runs[0])!;
    expect(k6).toMatchObject({ tool: "k6", gitBranch: "main", round: 1, idempotencyKey: "k6-a1b2c3d4e5f6-1", label: "checkout" });

    const token = await mintProjectToken(slug);
    expect((await exportOf(slug, token)).status).toBe(403);
    expect((await exportOf(slug, null)).status).toBe(401);
    expect((await exportOf("no-such-project")).status).toBe(404);
  });

  it("reads one snapshot: a run stored while the export runs is not in it", async () => {
    const { write } = await prepareProjectExport(await getDb(), ADMIN, slug);
    const kinds: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const header = new Promise<void>((resolve) => (started = resolve));
    const exported = write(async (line) => {
      kinds.push(line.kind);
      if (line.kind === "header") {
        started();
        await released;
      }
    });
    await header;
    // On PostgreSQL the upload commits while the export's snapshot is open; on the embedded database it
    // waits for the export's transaction. Either way the export does not see it.
    const document = { schema: "benchtrack/v1", tool: "loadgen", label: "late", endpoints: [{ name: "GET /late", requests: 1, failures: 0, latency: { unit: "ms", p95: 1 } }] };
    const late = call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: JSON.stringify(document) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await exported;
    expect((await late).status).toBe(201);
    expect(kinds.filter((kind) => kind === "run").length).toBe(original.filter((line) => line.kind === "run").length);
    expect((await exportLines(slug)).filter((line) => line.kind === "run").length).toBe(kinds.filter((kind) => kind === "run").length + 1);
  });

  describe("read back into the emptied project", () => {
    beforeAll(async () => {
      const db = await getDb();
      await db.project.delete({ where: { slug } });
      await createProjectThroughApi(slug);
    });

    const refusals: [string, () => BodyInit, number, RegExp][] = [
      ["a truncated last line", () => asText(original).slice(0, -40), 400, /^line \d+$/],
      ["a file cut at a line break (no end line)", () => asText(original.slice(0, -1)), 400, /^line \d+$/],
      ["a wrong kind late in the file", () => asText([...original.slice(0, -1), { kind: "runz", id: "x" }, original.at(-1)!]), 400, /^line \d+: kind$/],
      [
        "a bad number deep in a run",
        () => {
          const lines = original.map((line) => ({ ...line }));
          const index = lines.findLastIndex((line) => line.kind === "run");
          const results = (lines[index]!.results as Record<string, unknown>[]).map((row) => ({ ...row }));
          results[0]!.p95Ms = "fast";
          lines[index] = { ...lines[index]!, results };
          return asText(lines);
        },
        400,
        /^line \d+: results\[0\]\.p95Ms$/,
      ],
      ["a file from a newer format version", () => asText([{ ...original[0]!, version: 2 }, ...original.slice(1)]), 400, /^line 1: version$/],
      ["a server backup", () => asText([{ ...original[0]!, scope: "server" }, ...original.slice(1)]), 400, /^line 1: scope$/],
      ["a blank line before the end line (which counts every line)", () => `${JSON.stringify(original[0])}\n\n${asText(original.slice(1))}`, 400, /^line 2$/],
      [
        "a line over the cap",
        () => asText([...original.slice(0, 3), { kind: "annotation", text: "x".repeat(LINE_CAP + 10) }, ...original.slice(3)]),
        413,
        /^line 4$/,
      ],
    ];

    it.each(refusals)("refuses %s naming the line, writing nothing", async (_name, body, status, path) => {
      const { status: got, body: answer } = await importText(slug, body());
      expect(got, JSON.stringify(answer)).toBe(status);
      expect(answer.error!.details[0]!.path).toMatch(path);
      expect(await countRows(slug)).toEqual({ runs: 0, endpoints: 0, results: 0, incidents: 0, annotations: 0 });
    });

    it("refuses a gzip bomb past the import limit (413), writing nothing", async () => {
      // Newlines after the end line are passed over (before it, the first one is refused at once).
      const bomb = gzipSync(Buffer.concat([Buffer.from(asText(original)), Buffer.alloc(IMPORT_CAP * 2, "\n")]));
      const { status, body } = await importText(slug, new Uint8Array(bomb), { "Content-Encoding": "gzip" });
      expect(status, JSON.stringify(body)).toBe(413);
      expect(await countRows(slug)).toEqual({ runs: 0, endpoints: 0, results: 0, incidents: 0, annotations: 0 });
    });

    it("imports the file (gzip too) to the same export; a second import creates nothing", async () => {
      const first = await importText(slug, new Uint8Array(gzipSync(asText(original))), { "Content-Encoding": "gzip" });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const runCount = original.filter((line) => line.kind === "run").length;
      expect(first.body).toMatchObject({ project: slug, lines: original.length, runs: { inFile: runCount, created: runCount, alreadyPresent: 0 } });
      expect(comparable(await exportLines(slug))).toEqual(comparable(original));
      // Its access came with it: private (the project was made with the server's default), both grants.
      expect(first.body.created).toMatchObject({ member: 2 });
      const db = await getDb();
      const imported = await db.project.findUniqueOrThrow({ where: { slug }, include: { members: { orderBy: { subject: "asc" } } } });
      expect(imported.visibility).toBe("private");
      expect(imported.members.map(({ kind, subject, role }) => ({ kind, subject, role }))).toEqual([
        { kind: "email", subject: "ada@example.com", role: "maintainer" },
        { kind: "group", subject: "perf-team", role: "viewer" },
      ]);

      const before = await countRows(slug);
      const second = await importText(slug, asText(original));
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ runs: { inFile: runCount, created: 0, alreadyPresent: runCount } });
      expect(Object.values(second.body.created as Record<string, number>).every((count) => count === 0)).toBe(true);
      expect(await countRows(slug)).toEqual(before);
      expect(await db.projectMember.count({ where: { project: { slug } } })).toBe(2);

      // The rollups follow: the import marked the weeks pending and queued their refresh, which runs clean.
      const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true, historyVersion: true } });
      expect(project.historyVersion).toBeGreaterThan(0);
      expect((await runQueuedJobsNow()).failed).toBe(0);
      expect(await db.trendRollupPending.count({ where: { projectId: project.id } })).toBe(0);
      expect(await db.trendRollup.count({ where: { projectId: project.id } })).toBeGreaterThan(0);

      // The run list (newest first) reads the imported runs.
      const runs = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug });
      expect(runs.status).toBe(200);
    });

    it("refuses the same runs into another project (409), writing nothing", async () => {
      const other = uniqueSlug("transfer-other");
      await createProjectThroughApi(other);
      const { status, body } = await importText(other, asText(original));
      expect(status, JSON.stringify(body)).toBe(409);
      expect(body.error!.details[0]!.path).toMatch(/^line \d+: id$/);
      expect(await countRows(other)).toEqual({ runs: 0, endpoints: 0, results: 0, incidents: 0, annotations: 0 });
    });
  });
});
