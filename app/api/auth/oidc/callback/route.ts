import { getDb } from "@/server/db";
import { observed } from "@/server/http/observe";
import {
  clearedTransactionCookie,
  isSecureRequest,
  redirectWithCookies,
  sessionCookie,
  signInRefusedPath,
} from "@/server/http/oidc-cookies";
import { publicBaseUrl } from "@/server/public-url";
import { OIDC_TRANSACTION_COOKIE, completeOidcSignIn } from "@/server/services/access";

// GET /api/auth/oidc/callback — where the identity provider sends the browser back: the answer is
// checked against this browser's attempt (services/access/oidc-sign-in.ts), the attempt's cookie is
// deleted whatever happens (an answer is used once), and the browser is signed in and sent to `next`,
// or sent to /sign-in?error=<code>, which says why in a sentence. Its query (the code, the state) is
// never logged (server/http/observe.ts).
export const GET = observed("/api/auth/oidc/callback", async (request: Request) => {
  const url = new URL(request.url);
  const secure = isSecureRequest(request);
  const completed = await completeOidcSignIn(await getDb(), {
    query: url.searchParams,
    transaction: cookieOf(request.headers, OIDC_TRANSACTION_COOKIE),
    baseUrl: publicBaseUrl(request.headers),
  });
  if ("refusal" in completed)
    return redirectWithCookies(signInRefusedPath(completed.refusal, completed.next), [
      clearedTransactionCookie(secure),
    ]);
  return redirectWithCookies(completed.next, [
    clearedTransactionCookie(secure),
    sessionCookie(completed.session, secure),
  ]);
});

function cookieOf(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}
