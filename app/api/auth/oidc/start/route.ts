import { observed } from "@/server/http/observe";
import { isSecureRequest, redirectWithCookies, signInRefusedPath, transactionCookie } from "@/server/http/oidc-cookies";
import { publicBaseUrl } from "@/server/public-url";
import { beginOidcSignIn } from "@/server/services/access";

// GET /api/auth/oidc/start?next= — sign in with the identity provider: keeps the attempt (state, nonce,
// PKCE verifier, next) in a sealed 10-minute cookie and sends the browser to the provider; without a
// provider configured, or one that cannot be reached, back to /sign-in saying so.
export const GET = observed("/api/auth/oidc/start", async (request: Request) => {
  const url = new URL(request.url);
  const started = await beginOidcSignIn({
    next: url.searchParams.get("next"),
    baseUrl: publicBaseUrl(request.headers),
  });
  if ("refusal" in started) return redirectWithCookies(signInRefusedPath(started.refusal, started.next), []);
  return redirectWithCookies(started.location, [transactionCookie(started.transaction, isSecureRequest(request))]);
});
