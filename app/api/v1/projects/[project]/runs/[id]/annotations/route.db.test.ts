import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintProjectToken, mintScopedToken } from "@/server/testing/seed";
import { GET as listAnnotations, POST as annotate } from "./route";

setUpRouteTestDatabase();

/** A project with two runs, created through the API and the database. */
async function seedProject(slug: string) {
  await createProjectThroughApi(slug);
  const db = await getDb();
  const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  const runs = await Promise.all(
    [1, 2].map((day) =>
      db.run.create({
        data: { projectId: project.id, tool: "k6", format: "k6-summary", startedAt: new Date(Date.UTC(2025, 10, day)) },
        select: { id: true },
      }),
    ),
  );
  return { projectId: project.id, runIds: runs.map((run) => run.id) };
}

describe("run annotations", () => {
  const slug = uniqueSlug("notes");
  let runId: string;
  let otherRunId: string;
  let projectToken: string;

  beforeAll(async () => {
    const seeded = await seedProject(slug);
    [runId, otherRunId] = seeded.runIds as [string, string];
    projectToken = await mintProjectToken(slug);
  });

  const path = (id: string) => `/api/v1/projects/${slug}/runs/${id}/annotations`;
  const list = async (id: string, token?: string | null) =>
    call(listAnnotations, path(id), { project: slug, id }, { token });
  const post = (id: string, body: unknown, token?: string | null) =>
    call(
      annotate,
      path(id),
      { project: slug, id },
      { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), token },
    );

  it("adds annotations (admin) and lists them per run, oldest first; reading is open", async () => {
    const first = await post(runId, { text: "  deployed v2.3  " });
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(created).toEqual({
      id: expect.any(String),
      runId,
      // A note on a run is at the run's start.
      at: expect.stringMatching(/Z$/),
      kind: "note",
      text: "deployed v2.3",
      createdAt: expect.stringMatching(/Z$/),
    });
    expect((await post(runId, { text: "GC tuned: <b>G1</b> & ZGC" })).status).toBe(201);
    expect((await post(otherRunId, { text: "other run" })).status).toBe(201);

    const response = await list(runId, null);
    expect(response.status).toBe(200);
    const { annotations } = await response.json();
    expect(annotations.map((annotation: { text: string }) => annotation.text)).toEqual([
      "deployed v2.3",
      "GC tuned: <b>G1</b> & ZGC",
    ]);
    expect(annotations[0]).toEqual(created);
  });

  it("needs the mark action to annotate: refused without a token and to a token that only reads; a new (upload) token may", async () => {
    expect((await post(runId, { text: "x" }, null)).status).toBe(401);
    expect((await post(runId, { text: "x" }, await mintScopedToken(slug, ["read"]))).status).toBe(403);
    expect((await post(runId, { text: "marked by CI" }, projectToken)).status).toBe(201);
  });

  it("validates the text: 1 to 500 characters after trimming", async () => {
    for (const body of [
      { text: "" },
      { text: "   " },
      { text: "a".repeat(501) },
      {},
      { text: 5 },
      { text: "ok", extra: true },
    ]) {
      const response = await post(runId, body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const tooLong = await (await post(runId, { text: "a".repeat(501) })).json();
    expect(tooLong.error.details[0].path).toBe("text");
    expect((await post(runId, "not json")).status).toBe(400);
    expect((await post(runId, { text: "a".repeat(500) })).status).toBe(201);
  });

  it("answers 404 for an unknown run or project", async () => {
    expect((await list("no-such-run")).status).toBe(404);
    expect((await post("no-such-run", { text: "x" })).status).toBe(404);
    const other = uniqueSlug("nope");
    const response = await call(listAnnotations, `/api/v1/projects/${other}/runs/${runId}/annotations`, {
      project: other,
      id: runId,
    });
    expect(response.status).toBe(404);
  });

  it("a run of another project is not found through this one", async () => {
    const otherSlug = uniqueSlug("notes-other");
    const other = await seedProject(otherSlug);
    const foreignRun = other.runIds[0]!;
    expect((await list(foreignRun)).status).toBe(404);
    expect((await post(foreignRun, { text: "sneaky" })).status).toBe(404);
  });
});
