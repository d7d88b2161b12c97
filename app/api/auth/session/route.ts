import { describeCrossSiteRequest } from "@/server/cross-site";
import { getDb } from "@/server/db";
import { SESSION_COOKIE } from "@/server/domain/share";
import { clientAddress } from "@/server/http/auth";
import { readLimitedText } from "@/server/http/body-limit";
import { safeNextPath, signInRole } from "@/server/services/access";
import { ServiceError } from "@/server/services/platform";
import { checkAuthFailures, recordAuthFailure } from "@/server/services/platform";
import { SESSION_TTL_SECONDS, sealSession } from "@/server/services/access";

/**
 * The most a form may send: a token, `next` (a page's path and query) and `action` fit in a few kB;
 * 16 KiB leaves room for a long comparison's query. Read with the cap as bytes arrive, so an anonymous
 * client cannot make the server hold more.
 */
const SESSION_FORM_MAX_BYTES = 16 * 1024;

/**
 * POST /api/auth/session — the sign-in form (token, next) and the sign-out button (action=sign-out).
 * Signing in sets the session cookie (httpOnly, SameSite=Lax, Secure over HTTPS, 7 days) and goes to
 * `next` (a path of this site only: services/access/auth.ts:safeNextPath); a wrong token goes back to the form
 * with `error`. Answers are 303 redirects: this is a form target, not an API. Two plain-text refusals:
 * 403 for a request another site sent (its Origin, or Sec-Fetch-Site: cross-site: server/cross-site.ts),
 * signing out included, and 413 for a body over SESSION_FORM_MAX_BYTES (no form of this site comes near).
 */
export async function POST(request: Request) {
  const crossSite = describeCrossSiteRequest(request.headers);
  if (crossSite !== null)
    return refuse(403, `${crossSite}: signing in and out is only done from this site's own pages.`);
  const form = await readForm(request);
  if (form === "too-large")
    return refuse(413, `The form exceeds ${SESSION_FORM_MAX_BYTES.toLocaleString("en-US")} bytes.`);
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : null;
  };
  const next = safeNextPath(field("next"));
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const cookie = (value: string, maxAge: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;

  if (field("action") === "sign-out") {
    return redirect("/sign-in?signed-out=1", cookie("", 0));
  }
  const db = await getDb();
  const address = clientAddress(request);
  // Guessing tokens here counts against the same failed-authentication limit as the API (429 over it).
  try {
    await checkAuthFailures(db, address);
  } catch {
    return redirect(`/sign-in?${new URLSearchParams({ error: "too-many", next })}`);
  }
  const role = await signInRole(db, field("token") ?? "").catch(() => null);
  if (role === null) {
    await recordAuthFailure(db, address);
    return redirect(`/sign-in?${new URLSearchParams({ error: "1", next })}`);
  }
  return redirect(next, cookie(await sealSession(role), SESSION_TTL_SECONDS));
}

/**
 * The form's fields, read within the cap: URL-encoded (what the pages send) or multipart. Any other body,
 * or one that does not parse, is an empty form (no token: back to sign-in).
 */
async function readForm(request: Request): Promise<{ get(name: string): FormDataEntryValue | null } | "too-large"> {
  let text: string;
  try {
    text = await readLimitedText(request, SESSION_FORM_MAX_BYTES);
  } catch (error) {
    if (error instanceof ServiceError && error.code === "payload_too_large") return "too-large";
    // The client broke off: nothing to sign in with.
    return new URLSearchParams();
  }
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/x-www-form-urlencoded") return new URLSearchParams(text);
  if (mediaType === "multipart/form-data") {
    return new Response(text, { headers: { "content-type": contentType } })
      .formData()
      .catch(() => new URLSearchParams());
  }
  return new URLSearchParams();
}

function refuse(status: 403 | 413, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function redirect(location: string, setCookie?: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (setCookie) headers.set("Set-Cookie", setCookie);
  return new Response(null, { status: 303, headers });
}
