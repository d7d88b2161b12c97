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
