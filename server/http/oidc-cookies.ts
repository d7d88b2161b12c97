import { SESSION_COOKIE } from "../domain/share";
import { OIDC_TRANSACTION_COOKIE, OIDC_TRANSACTION_TTL_SECONDS, SESSION_TTL_SECONDS } from "../services/access";

/**
 * The cookies of signing in with the identity provider, as Set-Cookie values: the transaction (state,
 * nonce, PKCE verifier, next; sealed) lives 10 minutes on the sign-in routes' path only; the session is
 * the one signing in with a token leaves. Both httpOnly and SameSite=Lax (the provider's redirect back is a
 * top-level navigation, which Lax lets through), Secure over HTTPS.
 */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}

const TRANSACTION_PATH = "/api/auth/oidc";

export function transactionCookie(value: string, secure: boolean): string {
  return cookie(OIDC_TRANSACTION_COOKIE, value, TRANSACTION_PATH, OIDC_TRANSACTION_TTL_SECONDS, secure);
}

export function clearedTransactionCookie(secure: boolean): string {
  return cookie(OIDC_TRANSACTION_COOKIE, "", TRANSACTION_PATH, 0, secure);
}

export function sessionCookie(value: string, secure: boolean): string {
  return cookie(SESSION_COOKIE, value, "/", SESSION_TTL_SECONDS, secure);
}

function cookie(name: string, value: string, path: string, maxAge: number, secure: boolean): string {
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

/** The sign-in page telling why signing in was refused (server/domain/access/oidc.ts: OIDC_REFUSALS). */
export function signInRefusedPath(refusal: string, next: string): string {
  return `/sign-in?${new URLSearchParams(next === "/" ? { error: refusal } : { error: refusal, next })}`;
}

/** A 303 redirect that is never cached, with the cookies given. */
export function redirectWithCookies(location: string, cookies: string[]): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const value of cookies) headers.append("Set-Cookie", value);
  return new Response(null, { status: 303, headers });
}
