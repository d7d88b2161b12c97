import { getDb } from "@/server/db";
import { authenticate, requireAdmin, requireRead } from "@/server/http/auth";
import { ApiError } from "@/server/http/errors";
import { apiRoute, readJsonBody } from "@/server/http/route";
import { createProjectSchema } from "@/server/http/schemas";
import { createProject, findProject, listProjects } from "@/server/services/projects";

// GET /api/v1/projects — list projects
export const GET = apiRoute(async (request) => {
  const db = await getDb();
  await requireRead(request, db);
  const projects = await listProjects(db);
  return Response.json({
    projects: projects.map((project) => ({
      slug: project.slug,
      name: project.name,
      description: project.description,
      runCount: project.runCount,
      createdAt: project.createdAt.toISOString(),
    })),
  });
});

// POST /api/v1/projects — create a project (admin)
export const POST = apiRoute(async (request) => {
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const input = createProjectSchema.parse(await readJsonBody(request));
  if (await findProject(db, input.slug)) {
    throw new ApiError("conflict", `Project "${input.slug}" already exists`, [{ path: "slug", message: "taken" }]);
  }
  const project = await createProject(db, input);
  return Response.json(
    { slug: project.slug, name: project.name, description: project.description, defaultBranch: project.defaultBranch },
    { status: 201 },
  );
});
