import { accessRoute, otherMethods } from "@/server/http/route";
import { readableProjectsWhere } from "@/server/services/access";
import { createProject } from "@/server/services/projects";
import { listProjects } from "@/server/services/projects";

// GET /api/v1/projects — list the projects the caller may read (public ones, and the private ones it may)
export const GET = accessRoute({ access: "read" }, async ({ db, principal }) => {
  const projects = await listProjects(db, readableProjectsWhere(principal));
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
export const POST = accessRoute({ access: "write" }, async ({ db, principal, readBody }) => {
  const project = await createProject(db, principal, await readBody());
  return Response.json(
    { slug: project.slug, name: project.name, description: project.description, defaultBranch: project.defaultBranch },
    { status: 201 },
  );
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
