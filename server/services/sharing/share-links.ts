import { parseRunSelector } from "../../domain/compare/selector";
import { SHARE_PARAM, withShareParam } from "../../domain/share";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import type { PrismaClient } from "../../generated/prisma/client";
import { createShareLinkSchema } from "../../schemas/share-links";
import type { Principal } from "../access";
import { requireUploadTo } from "../access";
import { compareProjectRuns, resolveComparisonRuns } from "../compare";
import { notFound } from "../platform";
import { requireProject } from "../projects";
import type { ShareScope } from "../access";
import { sealShare, shareGrantOf } from "../access";

/**
 * Minting a share link: the admin or a token of the project (CI mints one for its PR comment) names one
 * comparison or one run; the link opens that page until it expires, even on a private server — a
 * comparison's link also opens the run pages, raw uploads and JSON of its runs, a run's link its raw
 * upload and JSON (services/access/auth.ts:shareCovers decides).
 *
 * A comparison is pinned when minted: its selectors (`label:nightly`, `branch:main`, `last`) become the
 * run ids they stand for now, so the reader sees what the sharer saw, and the link names the runs it opens.
 */
export async function createShareLink(db: PrismaClient, principal: Principal, slug: string, body: unknown, baseUrl: string) {
  const project = await requireProject(db, slug);
  requireUploadTo(principal, project.id);
  const input = createShareLinkSchema.parse(body);
  const ttlSeconds = input.expiresInDays * 24 * 3600;
  if (input.run !== undefined) {
    const run = await db.run.findFirst({ where: { id: input.run, projectId: project.id }, select: { id: true } });
    if (!run) throw notFound(`Run "${input.run}"`);
    return shareLinkFor({ kind: "run", project: project.slug, runId: run.id }, ttlSeconds, baseUrl);
  }
  const { base, head, tool, last } = input.compare!;
  const pinned = await resolveComparisonRuns(db, project.id, { base, head, tool, last });
  // A side given as run ids is pinned already and keeps its spelling (the page it was shared from names it so).
  const pin = (typed: string, ids: string[]) => (parseRunSelector(typed, "side").kind === "ids" && last === null ? typed.trim() : ids.join(","));
  const scope: ShareScope = { kind: "compare", project: project.slug, base: pin(base, pinned.base), head: pin(head, pinned.head), tool };
  return shareLinkFor(scope, ttlSeconds, baseUrl);
}

/**
 * A share link with what the page's Copy Markdown gives for it: for a comparison, its Markdown with
 * every link carrying the new token (the dashboard's Share button and Copy buttons on a private server).
 */
export async function createShareLinkWithMarkdown(db: PrismaClient, principal: Principal, slug: string, body: unknown, baseUrl: string) {
  const link = await createShareLink(db, principal, slug, body, baseUrl);
  if (link.scope !== "compare") return { ...link, markdown: null };
  const url = new URL(link.url);
  const comparison = await compareProjectRuns(
    db,
    slug,
    { base: url.searchParams.get("base")!, head: url.searchParams.get("head")!, tool: url.searchParams.get("tool"), last: null, test: "welch" },
    baseUrl,
    { share: url.searchParams.get(SHARE_PARAM) },
  );
  return { ...link, markdown: comparison.markdown };
}

/** The page a scope opens, relative to the server. */
function pageOfScope(scope: ShareScope): string {
  return scope.kind === "run"
    ? pagePaths.run(scope.project, scope.runId)
    : pagePaths.compare(scope.project, { base: scope.base, head: scope.head, ...(scope.tool !== null && { tool: scope.tool }) });
}

/** The link for a scope, valid for `ttlSeconds`. */
export async function shareLinkFor(scope: ShareScope, ttlSeconds: number, baseUrl: string) {
  const { token, expiresAt } = await sealShare(scope, ttlSeconds);
  return { url: withShareParam(absoluteUrl(baseUrl, pageOfScope(scope)), token), expiresAt: expiresAt.toISOString(), scope: scope.kind };
}

/**
 * What a share token opens, for its holder: the shared page (a path carrying the token), its project,
 * what it is and until when; null for a forged, tampered or expired token. The dashboard's banner on a
 * shared page and the page that refuses what lies outside a link read it.
 */
export async function describeShareLink(token: string | null | undefined) {
  const grant = await shareGrantOf(token);
  if (!grant) return null;
  const { scope, expiresAt } = grant;
  return { kind: scope.kind, project: scope.project, page: withShareParam(pageOfScope(scope), token!), expiresAt };
}
