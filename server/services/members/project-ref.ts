import type { ReadDb } from "../../db";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectRef } from "../access";
import { PROJECT_REF_SELECT } from "../access";
import { notFound } from "../platform";

/** The project as access needs it, or 404 naming it. */
export async function requireProjectRef(db: PrismaClient | ReadDb | Prisma.TransactionClient, slug: string): Promise<ProjectRef> {
  const project = await (db as PrismaClient).project.findUnique({ where: { slug }, select: PROJECT_REF_SELECT });
  if (project === null) throw notFound(`Project "${slug}"`, [{ path: "project", message: "no such project" }]);
  return project;
}
