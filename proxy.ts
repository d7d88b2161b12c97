import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { SESSION_COOKIE, SHARE_HEADER, SHARE_PARAM } from "@/server/domain/share";
import { pagePaths } from "@/server/domain/urls";
import { isPrivate, readTargetOfPage, shareCovers } from "@/server/services/auth";
import { sessionRoleOf, shareScopeOf } from "@/server/services/sessions";

/**
 * In front of every page of a private server (BENCHTRACK_READ_TOKEN set): a browser with no valid
 * session goes to /sign-in, and comes back after. This is convenience, not the lock: every tRPC
 * procedure, image and REST read checks access itself (server/services/auth.ts), so a request that
 * slips past here still gets no data. A share link (`?share=`) is passed on as a header for the
 * page's in-process tRPC calls, which hold it to its comparison (with its runs) or run. A share link
 * on a page it does not open, or one that expired or was tampered with, leads to a page that says so
 * (app/share-link/page.tsx), not to a bare sign-in.
 */
export async function proxy(request: NextRequest) {
  if (!isPrivate()) return NextResponse.next();
  const share = request.nextUrl.searchParams.get(SHARE_PARAM);
  const scope = share === null ? null : await shareScopeOf(share);
  if (share !== null && scope !== null && shareCovers(scope, readTargetOfPage(new URL(request.url)))) {
    const headers = new Headers(request.headers);
    headers.set(SHARE_HEADER, share);
    return NextResponse.next({ request: { headers } });
  }
  if (request.headers.has("authorization") || (await sessionRoleOf(request.cookies.get(SESSION_COOKIE)?.value)) !== null) {
    return NextResponse.next();
  }
  const next = withoutShare(request.nextUrl);
  const refusal = share === null ? pagePaths.signIn(next) : pagePaths.shareRefused(scope === null ? "invalid" : "outside", share, next);
  return NextResponse.redirect(new URL(refusal, request.url), 303);
}

/** The page's path and query without its share token: where signing in leads back to. */
function withoutShare(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(SHARE_PARAM);
  const query = params.toString();
  return `${url.pathname}${query === "" ? "" : `?${query}`}`;
}

export const config = {
  // Pages only: the APIs answer 401 themselves, sign-in and the share-link refusal must stay reachable, and assets are public.
  matcher: ["/((?!api/|_next/|sign-in|share-link|favicon\\.ico|.*\\.(?:svg|png|ico|css|js|map|txt)$).*)"],
};
