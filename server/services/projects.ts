import type { PrismaClient } from "../generated/prisma/client";

/** Projects for the home page, most recently active first, with their run counts. */
export async function listProjects(db: PrismaClient) {
  const projects = await db.project.findMany({
    select: {
      id: true,
      slug: true,
      name: true,
      description: true,
      isDemo: true,
      createdAt: true,
      _count: { select: { runs: true } },
    },
    orderBy: [{ updatedAt: "desc" }, { slug: "asc" }],
  });
  return projects.map(({ _count, ...project }) => ({ ...project, runCount: _count.runs }));
}

export async function findProject(db: PrismaClient, slug: string) {
  return db.project.findUnique({ where: { slug } });
}

export async function createProject(
  db: PrismaClient,
  input: { slug: string; name?: string; description?: string; defaultBranch?: string; repoUrl?: string },
) {
  return db.project.create({
    data: {
      slug: input.slug,
      name: input.name ?? input.slug,
      description: input.description,
      defaultBranch: input.defaultBranch,
      repoUrl: input.repoUrl,
    },
  });
}
