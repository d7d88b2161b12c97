import { getDb } from "@/server/db";
import { SESSION_COOKIE } from "@/server/domain/share";
import { clientAddress } from "@/server/http/auth";
import { safeNextPath, signInRole } from "@/server/services/auth";
import { checkAuthFailures, recordAuthFailure } from "@/server/services/rate-limits";
import { SESSION_TTL_SECONDS, sealSession } from "@/server/services/sessions";

/**
 * POST /api/auth/session — the sign-in form (token, next) and the sign-out button (action=sign-out).
 * Signing in sets the session cookie (httpOnly, SameSite=Lax, Secure over HTTPS, 7 days) and goes to
 * `next`; a wrong token goes back to the form with `error`. Answers are 303 redirects: this is a form
 * target, not an API.
 */
export async function POST(request: Request) {
  const form = await request.formData().catch(() => null);
  const field = (name: string) => {
    const value = form?.get(name);
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

function redirect(location: string, setCookie?: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (setCookie) headers.set("Set-Cookie", setCookie);
  return new Response(null, { status: 303, headers });
}
