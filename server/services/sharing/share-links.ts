import { parseRunSelector } from "../../domain/compare/selector";
import { SHARE_PARAM, withShareParam } from "../../domain/share";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import type { PrismaClient } from "../../generated/prisma/client";
import { createShareLinkSchema } from "../../schemas/share-links";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { compareProjectRuns, resolveComparisonRuns } from "../compare";
import { notFound } from "../platform";
import type { AuditActor } from "../audit";
import { actorOf, recordAudit } from "../audit";
import { requireProject } from "../projects";
import type { ReadDb } from "../../db";
import type { ShareScope, StoredShareScope } from "../access";
import { SHARE_ID_PATTERN, newShareId, readShareLink } from "../access";

/**
 * Minting a share link: the admin or a token of the project (CI mints one for its PR comment) names one
 * comparison or one run; the link opens that page until it expires, even on a private server — a
 * comparison's link also opens the run pages, raw uploads and JSON of its runs, a run's link its raw
 * upload and JSON (services/access/auth.ts:shareCovers decides).
 *
 * A comparison is pinned when minted: its selectors (`label:nightly`, `branch:main`, `last`) become the
 * run ids they stand for now, so the reader sees what the sharer saw, and the link names the runs it opens.
 * The link is stored (share_links): its URL carries only a random id of 22 characters, and Settings
 * lists and revokes it (share-link-admin.ts).
 */
export async function createShareLink(db: PrismaClient, principal: Principal, slug: string, body: unknown, baseUrl: string) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "share");
  const input = createShareLinkSchema.parse(body);
  const ttlSeconds = input.expiresInDays * 24 * 3600;
  const minted: ShareMinting = { ttlSeconds, baseUrl, createdBy: minterName(principal), audit: { ...actorOf(principal), projectSlug: project.slug } };
  if (input.run !== undefined) {
    const run = await db.run.findFirst({ where: { id: input.run, projectId: project.id }, select: { id: true } });
    if (!run) throw notFound(`Run "${input.run}"`);
    return shareLinkFor(db, project, { kind: "run", project: project.slug, runId: run.id }, minted);
  }
  const { base, head, tool, last } = input.compare!;
  const pinned = await resolveComparisonRuns(db, project.id, { base, head, tool, last });
  // A side given as run ids is pinned already and keeps its spelling (the page it was shared from names it so).
  const pin = (typed: string, ids: string[]) => (parseRunSelector(typed, "side").kind === "ids" && last === null ? typed.trim() : ids.join(","));
  const scope: ShareScope = { kind: "compare", project: project.slug, base: pin(base, pinned.base), head: pin(head, pinned.head), tool };
  return shareLinkFor(db, project, scope, minted);
}

/** Who minted a link, as Settings lists it: the admin, a person by name or email, or the project token by its name. */
function minterName(principal: Principal): string {
  if (principal.kind === "project-token") return `token ${principal.name}`;
  if (principal.kind === "user") return actorOf(principal).actor;
  return "admin";
}

/**
 * A share link with what the page's Copy Markdown gives for it: for a comparison, its Markdown with
 * every link carrying the new token (the dashboard's Share button and Copy buttons on a private server).
 */
export async function createShareLinkWithMarkdown(db: PrismaClient, principal: Principal, slug: string, body: unknown, baseUrl: string) {
  const link = await createShareLink(db, principal, slug, body, baseUrl);
  if (link.scope !== "compare") return { ...link, markdown: null };
  const url = new URL(link.page);
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
export function pageOfScope(scope: ShareScope): string {
  return scope.kind === "run"
    ? pagePaths.run(scope.project, scope.runId)
    : pagePaths.compare(scope.project, { base: scope.base, head: scope.head, ...(scope.tool !== null && { tool: scope.tool }) });
}

/** What a minted link is: how long it opens its page, the server's base URL for its address, who minted it. */
export interface ShareMinting {
  ttlSeconds: number;
  baseUrl: string;
  /** "admin", "token <name>", a person, or "CI gate" for the links of a private server's PR comment. */
  createdBy: string;
  /** Who asked, for the `share.create` audit entry of a new link (none for the CI gate's links, which no one asked for). */
  audit?: AuditActor & { projectSlug: string };
}

/** What an audit entry keeps of a share link's id (the id itself opens the page): its first 6 characters. */
export function shareIdHint(id: string): string {
  return `${id.slice(0, 6)}…`;
}

/** The longest a link minted again may have been minted before and still be handed out in place of a new one. */
const REUSE_WINDOW_MS = 24 * 3600 * 1000;

/**
 * The link for a scope, stored, valid for `ttlSeconds`. The same scope minted again by the same minter
 * with the same lifetime within a day (half the lifetime for a short one) gets the link it got then,
 * still open and not revoked, rather than a new row: the Copy link button mints on every click, and
 * every verdict of a private server mints its PR comment's links. Its expiry is then that link's,
 * earlier than asked by less than the window.
 */
export async function shareLinkFor(db: PrismaClient, project: { id: string }, scope: ShareScope, minting: ShareMinting, now = new Date()) {
  const ttlMs = Math.max(1, Math.round(minting.ttlSeconds)) * 1000;
  const expiresAt = new Date(now.getTime() + ttlMs);
  const stored = storedScopeOf(scope);
  const reused = await db.shareLink.findFirst({
    where: {
      projectId: project.id,
      createdBy: minting.createdBy,
      revokedAt: null,
      scope: { equals: stored },
      expiresAt: { lte: expiresAt, gt: new Date(expiresAt.getTime() - Math.min(REUSE_WINDOW_MS, ttlMs / 2)) },
    },
    orderBy: { expiresAt: "desc" },
    select: { id: true, expiresAt: true },
  });
  const link =
    reused ??
    (await db.$transaction(async (tx) => {
      const created = await tx.shareLink.create({
        data: { id: newShareId(), projectId: project.id, scope: stored, createdBy: minting.createdBy, expiresAt },
        select: { id: true, expiresAt: true },
      });
      const { audit } = minting;
      if (audit) {
        // The link's id opens its page: the entry keeps only its first characters, to tell links apart.
        await recordAudit(tx, {
          actor: audit.actor,
          actorUserId: audit.actorUserId,
          action: "share.create",
          projectSlug: audit.projectSlug,
          targetId: null,
          detail: { link: shareIdHint(created.id), ...stored, expiresAt: created.expiresAt.toISOString() },
        });
      }
      return created;
    }));
  return {
    url: absoluteUrl(minting.baseUrl, pagePaths.shortShare(link.id)),
    page: withShareParam(absoluteUrl(minting.baseUrl, pageOfScope(scope)), link.id),
    expiresAt: link.expiresAt.toISOString(),
    scope: scope.kind,
  };
}

/**
 * Where a short link (`/s/{id}`) leads: the page its link opens, carrying it, with the view state the
 * short link was given (`/s/{id}?test=student` from a PR comment) kept; or, for a link that opens
 * nothing, the page that says why (expired, revoked, not valid).
 */
export async function shortLinkTarget(db: ReadDb, id: string, query: URLSearchParams): Promise<string> {
  const link = await readShareLink(db, id);
  if (link.status !== "open") return pagePaths.shareRefused(link.status, SHARE_ID_PATTERN.test(id) ? id : "", "/");
  const page = pageOfScope(link.scope);
  const own = new URLSearchParams(page.split("?")[1] ?? "");
  const kept = new URLSearchParams([...query].filter(([name]) => name !== SHARE_PARAM && !own.has(name))).toString();
  return withShareParam(kept === "" ? page : `${page}${page.includes("?") ? "&" : "?"}${kept}`, link.token);
}

/** What a link's row keeps of its scope: the project is the row's own. */
function storedScopeOf(scope: ShareScope): StoredShareScope {
  return scope.kind === "run" ? { kind: "run", runId: scope.runId } : { kind: "compare", base: scope.base, head: scope.head, tool: scope.tool };
}

/**
 * What a share token opens, for its holder: the shared page (a path carrying the token), its project,
 * what it is and until when, and the token as links carry it; or why it opens nothing (expired, revoked,
 * invalid). The dashboard's banner on a shared page and the page that refuses what lies outside a link read it.
 */
export async function describeShareLink(db: ReadDb, token: string | null | undefined) {
  const link = await readShareLink(db, token);
  if (link.status !== "open") return { status: link.status };
  const { scope, expiresAt } = link;
  return { status: link.status, kind: scope.kind, project: scope.project, scope, page: withShareParam(pageOfScope(scope), link.token), expiresAt, token: link.token };
}
