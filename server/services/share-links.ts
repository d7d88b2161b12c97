import { SHARE_PARAM } from "../domain/share";
import { absoluteUrl, pagePaths } from "../domain/urls";
import type { PrismaClient } from "../generated/prisma/client";
import { createShareLinkSchema } from "../schemas/share-links";
import type { Principal } from "./auth";
import { requireUploadTo } from "./auth";
import { notFound } from "./errors";
import { requireProject } from "./projects";
import type { ShareScope } from "./sessions";
import { sealShare } from "./sessions";

/**
 * Minting a share link: the admin or a token of the project (CI mints one for its PR comment) names one
 * comparison or one run; the link opens that page, and only that page, until it expires, even on a
 * private server (services/auth.ts:shareCovers).
 */
export async function createShareLink(db: PrismaClient, principal: Principal, slug: string, body: unknown, baseUrl: string) {
  const project = await requireProject(db, slug);
  requireUploadTo(principal, project.id);
  const input = createShareLinkSchema.parse(body);
  if (input.run !== undefined) {
    const run = await db.run.findFirst({ where: { id: input.run, projectId: project.id }, select: { id: true } });
    if (!run) throw notFound(`Run "${input.run}"`);
  }
  const scope: ShareScope =
    input.run !== undefined
      ? { kind: "run", project: project.slug, runId: input.run }
      : { kind: "compare", project: project.slug, base: input.compare!.base, head: input.compare!.head, tool: input.compare!.tool };
  return shareLinkFor(scope, input.expiresInDays * 24 * 3600, baseUrl);
}

/** The link for a scope, valid for `ttlSeconds`. */
export async function shareLinkFor(scope: ShareScope, ttlSeconds: number, baseUrl: string) {
  const { token, expiresAt } = await sealShare(scope, ttlSeconds);
  const page =
    scope.kind === "run"
      ? pagePaths.run(scope.project, scope.runId)
      : pagePaths.compare(scope.project, { base: scope.base, head: scope.head, ...(scope.tool !== null && { tool: scope.tool }) });
  const url = new URL(absoluteUrl(baseUrl, page));
  url.searchParams.set(SHARE_PARAM, token);
  return { url: url.toString(), expiresAt: expiresAt.toISOString(), scope: scope.kind };
}
