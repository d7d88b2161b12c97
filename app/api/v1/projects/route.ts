import { getDb } from "@/server/db";
import { authenticate, requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { createProject } from "@/server/services/project-settings";
import { listProjects } from "@/server/services/projects";

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
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  const project = await createProject(db, principal, body);
  return Response.json(
    { slug: project.slug, name: project.name, description: project.description, defaultBranch: project.defaultBranch },
    { status: 201 },
  );
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
