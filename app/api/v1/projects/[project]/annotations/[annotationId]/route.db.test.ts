import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { uniqueSlug } from "@/server/testing/databases";
import { call, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintScopedToken } from "@/server/testing/seed";
import { GET as listAnnotations, POST as annotate } from "../../runs/[id]/annotations/route";
import { DELETE as deleteAnnotation } from "./route";

setUpRouteTestDatabase();

/** A project with one run; returns the run's id. */
async function seedProject(slug: string): Promise<string> {
  await createProjectThroughApi(slug);
  const db = await getDb();
  const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  const run = await db.run.create({
    data: { projectId: project.id, tool: "k6", format: "k6-summary", startedAt: new Date("2025-11-01T09:00:00Z") },
    select: { id: true },
  });
  return run.id;
}

describe("DELETE an annotation", () => {
  const slug = uniqueSlug("notes-del");
  let runId: string;
  let projectToken: string;

  beforeAll(async () => {
    runId = await seedProject(slug);
    // Reads only: deleting an annotation is the "mark" action (triagers, tokens with the upload or triage scope).
    projectToken = await mintScopedToken(slug, ["read"]);
  });

  const annotateRun = async (text: string) => {
    const path = `/api/v1/projects/${slug}/runs/${runId}/annotations`;
    const response = await call(
      annotate,
      path,
      { project: slug, id: runId },
      { method: "POST", body: JSON.stringify({ text }) },
    );
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string };
  };
  const texts = async () => {
    const path = `/api/v1/projects/${slug}/runs/${runId}/annotations`;
    const { annotations } = await (await call(listAnnotations, path, { project: slug, id: runId })).json();
    return annotations.map((annotation: { text: string }) => annotation.text);
  };
  const remove = (annotationId: string, token?: string | null, project = slug) =>
    call(
      deleteAnnotation,
      `/api/v1/projects/${project}/annotations/${annotationId}`,
      { project, annotationId },
      { method: "DELETE", token },
    );

  it("needs the mark action: refused without a token and to a token that only reads", async () => {
    const { id } = await annotateRun("keep me");
    expect((await remove(id, null)).status).toBe(401);
    expect((await remove(id, projectToken)).status).toBe(403);
    expect(await texts()).toEqual(["keep me"]);
  });

  it("answers 204 with no body, then 404; the other annotations stay", async () => {
    const { id } = await annotateRun("to delete");
    const deleted = await remove(id);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await remove(id)).status).toBe(404);
    expect(await texts()).toEqual(["keep me"]);
  });

  it("cannot delete another project's annotation, nor in an unknown project", async () => {
    const { id } = await annotateRun("mine");
    const otherSlug = uniqueSlug("notes-other");
    await seedProject(otherSlug);
    expect((await remove(id, undefined, otherSlug)).status).toBe(404);
    expect((await remove(id, undefined, uniqueSlug("nope"))).status).toBe(404);
    expect(await texts()).toEqual(["keep me", "mine"]);
  });
});
