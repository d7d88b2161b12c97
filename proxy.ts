import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { NONCE_HEADER, contentSecurityPolicy } from "@/server/domain/content-security-policy";
import { SESSION_COOKIE, SHARE_HEADER, SHARE_PARAM } from "@/server/domain/share";
import { pagePaths } from "@/server/domain/urls";
import { getDb } from "@/server/db";
import { MAX_SHARE_TOKEN_LENGTH, readsForAnyone, readShareLink, readTargetOfPage, shareCovers } from "@/server/services/access";
import type { ShareLinkState } from "@/server/services/access";
import { sessionRoleOf } from "@/server/services/access";

/**
 * In front of every page, on every server:
 * 1. The Content-Security-Policy, with a nonce drawn for this response alone
 *    (server/domain/content-security-policy.ts). It goes on the request too: Next.js reads the nonce
 *    there and puts it on its own scripts; the root layout reads NONCE_HEADER for the theme script.
 * 2. On the page of a private project (its own visibility, or the server's default: private when
 *    BENCHTRACK_READ_TOKEN is set), a browser with no valid session goes to /sign-in, and comes back after;
 *    so does one on the home page of a private-default server where no project is public. Pages of public
 *    projects open to anyone (services/access/project-access.ts:readsForAnyone reads the visibility).
 *    This is convenience, not the lock: every tRPC procedure, image and REST read checks access itself
 *    (server/services/access/project-access.ts), so a request that slips past here still gets no data. A share link (`?share=`) is passed on as a header for the page's in-process tRPC calls, which
 *    hold it to its comparison (with its runs) or run. A share link on a page it does not open, or one
 *    that expired, was revoked or is not a link of this server, leads to a page that says so
 *    (app/share-link/page.tsx), not to a bare sign-in. /sign-in and /share-link themselves stay open.
 *    A stored link is looked up in the database (share_links): the proxy runs in the server's process
 *    (Next.js requires it in), so it shares the app's one connection (server/db.ts keeps it on globalThis).
 */
export async function proxy(request: NextRequest) {
  const nonce = createNonce();
  const policy = contentSecurityPolicy({ nonce, isDev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  headers.set(NONCE_HEADER, nonce);
  const pass = () => withPolicy(NextResponse.next({ request: { headers } }), policy);

  if (OPEN_PAGES.has(request.nextUrl.pathname) || request.nextUrl.pathname.startsWith(SHORT_SHARE_PREFIX)) return pass();
  // The database unreachable: the page decides (its reads answer 503 as every page's do).
  if ((await readsForAnyoneOrNull(projectOfPage(request.nextUrl.pathname))) !== false) return pass();
  const share = request.nextUrl.searchParams.get(SHARE_PARAM);
  const link = share === null ? null : await readShareLinkOrNull(share);
  // The database unreachable: the page decides (its reads answer 503 as every page's do).
  if (share !== null && link === null) return pass();
  if (link?.status === "open" && shareCovers(link.scope, readTargetOfPage(new URL(request.url)))) {
    headers.set(SHARE_HEADER, link.token);
    return pass();
  }
  if (request.headers.has("authorization") || (await sessionRoleOf(request.cookies.get(SESSION_COOKIE)?.value)) !== null) {
    return pass();
  }
  const next = withoutShare(request.nextUrl);
  const refusal =
    share === null || link === null
      ? pagePaths.signIn(next)
      : pagePaths.shareRefused(link.status === "open" ? "outside" : link.status, share.length > MAX_SHARE_TOKEN_LENGTH ? "" : share, next);
  return withPolicy(NextResponse.redirect(new URL(refusal, request.url), 303), policy);
}

async function readsForAnyoneOrNull(projectSlug: string | null): Promise<boolean | null> {
  try {
    return await readsForAnyone(await getDb(), projectSlug);
  } catch {
    return null;
  }
}

/** The project a page belongs to (`/projects/:slug/…`), or null. */
function projectOfPage(pathname: string): string | null {
  const [first, slug] = pathname.split("/").filter(Boolean);
  if (first !== "projects" || slug === undefined) return null;
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

async function readShareLinkOrNull(share: string): Promise<ShareLinkState | null> {
  try {
    return await readShareLink(await getDb(), share);
  } catch {
    return null;
  }
}

/** The pages shown to anyone whatever the visibility: signing in, and what a share link that opens nothing says. */
const OPEN_PAGES = new Set(["/sign-in", "/share-link"]);
/** A share link's short address (app/s/[id]/route.ts): it only redirects, to a page this proxy then checks. */
const SHORT_SHARE_PREFIX = "/s/";

/** A fresh nonce: 128 random bits, base64 (what CSP's nonce-source accepts). */
function createNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

function withPolicy(response: NextResponse, policy: string): NextResponse {
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

/** The page's path and query without its share token: where signing in leads back to. */
function withoutShare(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(SHARE_PARAM);
  const query = params.toString();
  return `${url.pathname}${query === "" ? "" : `?${query}`}`;
}

export const config = {
  // Every path but those that are not pages: the APIs (they answer 401 themselves, carry no page, and
  // an upload's body must not be buffered for a proxy), Next's own files (/_next/static, /_next/image)
  // and the icons, public on any server. Every page path passes, whatever it ends with: a run id or a
  // slug may end in ".png" (a path the proxy skipped rendered with no session, and answered 500).
  // next.config.js gives the skipped paths the policy with no nonce.
  matcher: ["/((?!api/|_next/|favicon\\.ico$|icon\\.svg$|metrics$).*)"],
};
