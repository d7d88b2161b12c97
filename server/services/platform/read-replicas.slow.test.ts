import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getProject, PATCH as patchProject } from "@/app/api/v1/projects/[project]/route";
import { GET as getRun } from "@/app/api/v1/projects/[project]/runs/[id]/route";
import { GET as listRuns, POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { POST as createProject } from "@/app/api/v1/projects/route";
import { GET as trpcGet, POST as trpcPost } from "@/app/api/trpc/[trpc]/route";
import { createCaller } from "../../api/root";
import { getDatabase } from "../../db";
import type { Database } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { uniqueSlug } from "../../testing/databases";
import { call, setUpRouteTestDatabase, TEST_ADMIN_TOKEN } from "../../testing/rest-client";
import { startStreamingReplica } from "../../testing/streaming-replica";
import type { StreamingReplica } from "../../testing/streaming-replica";
import { chooseReader, WAL_POSITION_COOKIE, WAL_POSITION_HEADER } from "./read-replicas";

/**
 * DATABASE_READ_URL against a real streaming replica of the PostgreSQL server DATABASE_URL names
 * (pg_basebackup into a temporary cluster on another port, removed at the end). Pausing the replica's
 * replay makes its lag as long as a test needs: what a read then shows says where it was served.
 */
const primaryUrl = process.env.DATABASE_URL?.trim();
if (!primaryUrl) console.info("read-replicas.slow.test.ts: skipped: DATABASE_URL is not set (the embedded database has no replicas)");

describe.skipIf(!primaryUrl)("reads from a streaming replica (DATABASE_READ_URL)", () => {
  let replica: StreamingReplica;
  let database: Database;
  const slug = uniqueSlug("replica");
  const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  const upload = (name: string) =>
    call(uploadRun, `/api/v1/projects/${slug}/runs`, { project: slug }, {
      method: "POST",
      ...json({ schema: "benchtrack/v1", label: "replica", endpoints: [{ name, requests: 10, latency: { p95: 12 } }] }),
    });
  const readName = async (headers: Record<string, string> = {}) =>
    ((await (await call(getProject, `/api/v1/projects/${slug}`, { project: slug }, { headers })).json()) as { name: string }).name;
  const runCount = async (headers: Record<string, string> = {}) =>
    ((await (await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug }, { query: { limit: "100" }, headers })).json()) as { runs: unknown[] }).runs
      .length;

  beforeAll(async () => {
    replica = await startStreamingReplica(primaryUrl!);
    process.env.DATABASE_READ_URL = replica.url();
  }, 600_000);
  setUpRouteTestDatabase();
  beforeAll(async () => {
    database = await getDatabase();
    expect(database.readers).toHaveLength(1);
    expect((await call(createProject, "/api/v1/projects", {}, { method: "POST", ...json({ slug, name: "Before" }) })).status).toBe(201);
    await replica.catchUp();
  });
  afterAll(async () => {
    await replica?.resumeReplay().catch(() => undefined);
    await replica?.stop();
  }, 120_000);

  it("a reader is a hot standby that refuses writes; the primary is not", async () => {
    const reader = await chooseReader(database);
    expect(reader).not.toBe(database.prisma);
    expect(await reader.$queryRaw<{ standby: boolean }[]>`SELECT pg_is_in_recovery() AS standby`).toEqual([{ standby: true }]);
    expect(await database.prisma.$queryRaw<{ standby: boolean }[]>`SELECT pg_is_in_recovery() AS standby`).toEqual([{ standby: false }]);
    // ReadDb has no create: only a cast reaches it, and the replica refuses it.
    await expect((reader as PrismaClient).project.create({ data: { slug: uniqueSlug("nope"), name: "nope" } })).rejects.toThrow(/read-only/);
  });

  describe("with the replica's replay paused (a lagging replica)", () => {
    beforeAll(async () => {
      await replica.pauseReplay();
    });
    afterAll(async () => {
      await replica.resumeReplay();
      await replica.catchUp();
    });

    it("REST GETs and the pages' tRPC reads are served from the replica: a change on the primary is not there yet", async () => {
      await database.prisma.project.update({ where: { slug }, data: { name: "Changed on the primary" } });
      expect(await readName()).toBe("Before");
      const caller = createCaller({ db: database.prisma, authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      expect((await caller.project.get({ project: slug })).name).toBe("Before");
      await database.prisma.project.update({ where: { slug }, data: { name: "Before" } });
    });

    it("a write answers with the primary's WAL position; reads that bring it back (header or cookie) see the write", async () => {
      const patched = await call(patchProject, `/api/v1/projects/${slug}`, { project: slug }, { method: "PATCH", ...json({ name: "After" }) });
      expect(patched.status).toBe(200);
      const position = patched.headers.get(WAL_POSITION_HEADER);
      expect(position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      expect(patched.headers.get("set-cookie")).toContain(`${WAL_POSITION_COOKIE}=${encodeURIComponent(position!)}`);
      expect(await readName({ [WAL_POSITION_HEADER]: position! })).toBe("After");
      expect(await readName({ cookie: `${WAL_POSITION_COOKIE}=${encodeURIComponent(position!)}` })).toBe("After");
      const caller = createCaller({ db: database.prisma, walPosition: position });
      expect((await caller.project.get({ project: slug })).name).toBe("After");
      // Without it, the lagging replica answers.
      expect(await readName()).toBe("Before");
    });

    it("a dashboard mutation (tRPC over HTTP) hands the browser the cookie its next page reads bring back", async () => {
      const request = new Request("http://localhost/api/trpc/settings.update", {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ json: { project: slug, name: "Renamed in the dashboard" } }),
      });
      const response = await trpcPost(request);
      expect(response.status).toBe(200);
      const cookie = /benchtrack_wal=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
      expect(cookie).toBeDefined();
      const read = (headers: Record<string, string>) =>
        trpcGet(new Request(`http://localhost/api/trpc/project.get?input=${encodeURIComponent(JSON.stringify({ json: { project: slug } }))}`, { headers }));
      const nameOf = async (answer: Response) => ((await answer.json()) as { result: { data: { json: { name: string } } } }).result.data.json.name;
      expect(await nameOf(await read({ cookie: cookie! }))).toBe("Renamed in the dashboard");
      expect(await nameOf(await read({}))).not.toBe("Renamed in the dashboard");
    });

    it("an upload followed at once by a GET of its run answers 200 (a miss on the replica is asked again on the primary)", async () => {
      const before = await runCount();
      const uploaded = await upload("GetListing");
      expect(uploaded.status).toBe(201);
      const { id } = (await uploaded.json()) as { id: string };
      const read = await call(getRun, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id });
      expect(read.status).toBe(200);
      const caller = createCaller({ db: database.prisma });
      expect(JSON.stringify(await caller.run.get({ project: slug, id }))).toContain(id);
      // The list is not a miss: the replica's is stale until it replays, the uploader's (with the position) is not.
      expect(await runCount()).toBe(before);
      expect(await runCount({ [WAL_POSITION_HEADER]: uploaded.headers.get(WAL_POSITION_HEADER)! })).toBe(before + 1);
    });
  });

  it("32 concurrent readers while uploads continue: no read fails, every run is there at once for its uploader, none is lost", async () => {
    const uploads = 40;
    const readers = 32;
    const before = await runCount();
    const lagsMs: number[] = [];
    const failures: string[] = [];
    let reads = 0;
    let uploading = true;
    const uploader = (async () => {
      const ids: string[] = [];
      for (let index = 0; index < uploads; index++) {
        const uploaded = await upload(`Endpoint${index % 4}`);
        if (uploaded.status !== 201) failures.push(`upload ${index}: ${uploaded.status}`);
        const { id } = (await uploaded.json()) as { id: string };
        const read = await call(getRun, `/api/v1/projects/${slug}/runs/${id}`, { project: slug, id });
        if (read.status !== 200) failures.push(`GET of run ${id} right after its upload: ${read.status}`);
        ids.push(id);
      }
      uploading = false;
      return ids;
    })();
    const reader = async () => {
      while (uploading) {
        const response = await call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug }, { query: { limit: "20" } });
        if (response.status !== 200) failures.push(`list: ${response.status}`);
        await response.arrayBuffer();
        reads++;
      }
    };
    const lagProbe = async () => {
      while (uploading) lagsMs.push(await replica.catchUp());
    };
    const [ids] = await Promise.all([uploader, lagProbe(), ...Array.from({ length: readers }, reader)]);
    expect(failures).toEqual([]);
    expect(new Set(ids).size).toBe(uploads);
    expect(reads).toBeGreaterThan(readers);
    await replica.catchUp();
    expect(await runCount()).toBe(before + uploads);
    console.info(`${reads} reads by ${readers} readers during ${uploads} uploads; replica lag up to ${Math.round(Math.max(...lagsMs))} ms`);
  });
});
