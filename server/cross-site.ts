import { getEnv } from "./env";

/**
 * Cross-site request forgery: a page of another site can make a signed-in browser POST to this server
 * (a form, a fetch without CORS), and the browser sends the session cookie along. SameSite=Lax keeps the
 * cookie off most of those, but not off every one (a sibling subdomain is "same site"; old browsers; a
 * top-level form POST within two minutes of the cookie in some), and signing out needs no cookie at all.
 * So every write a browser's cookie can authorize — the sign-in form and sign-out button
 * (app/api/auth/session) and every tRPC mutation (server/api/trpc.ts) — is refused when the browser says
 * it comes from elsewhere:
 * - an `Origin` header that is not this server's own origin (the string "null" included: a sandboxed
 *   frame, a redirect across origins), or
 * - `Sec-Fetch-Site: cross-site`.
 * A request with neither header (curl, CI, an in-process call) is not a browser's forgery and passes.
 *
 * "This server's own origin" is BENCHTRACK_PUBLIC_URL's origin when set, or any scheme on the host the
 * request was sent to (its Host header, or a reverse proxy's X-Forwarded-Host): a page on another host
 * cannot choose either, and a proxy that ends TLS without saying so (X-Forwarded-Proto) leaves the
 * server unable to tell http from https.
 *
 * The REST API (app/api/v1) needs no such check: its writes are authorized by a bearer token in the
 * Authorization header only, never by a cookie, and another site cannot make a browser send that header.
 */
export function describeCrossSiteRequest(headers: Headers): string | null {
  if (headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site")
    return "This request came from another site (Sec-Fetch-Site: cross-site)";
  const origin = headers.get("origin");
  if (origin === null || isOwnOrigin(origin.trim(), headers)) return null;
  return `This request came from another site (Origin: ${origin.slice(0, 200)})`;
}

function isOwnOrigin(origin: string, headers: Headers): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // An origin is a scheme, a host and a port, nothing more.
  if (url.origin !== origin || (url.protocol !== "http:" && url.protocol !== "https:")) return false;
  const configured = getEnv().BENCHTRACK_PUBLIC_URL;
  if (configured && originOf(configured) === url.origin) return true;
  const hosts = [headers.get("host"), ...(headers.get("x-forwarded-host")?.split(",") ?? [])];
  return hosts.some((host) => host !== null && host.trim() !== "" && hostAs(url.protocol, host.trim()) === url.host);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** A Host header read as a URL of `protocol` reads its host (lowercase, that scheme's default port dropped), or null. */
function hostAs(protocol: string, host: string): string | null {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return null;
  }
}
