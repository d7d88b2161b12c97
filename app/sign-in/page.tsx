import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { OIDC_REFUSALS, isOidcRefusal } from "@/server/domain/access/oidc";
import { SESSION_FORM_ACTION, oidcSignInPath } from "@/server/domain/urls";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";

export const metadata: Metadata = { title: "Sign in" };

// /sign-in — with an identity provider configured (BENCHTRACK_OIDC_ISSUER), people sign in with it (the
// first button); a token signs a browser in too: the read token, the admin token (which also unlocks
// admin actions) or a project token. A refused sign-in comes back here with ?error=<code>, said in a
// sentence (server/domain/access/oidc.ts: OIDC_REFUSALS).
export default async function SignInPage(props: PageProps) {
  const { search } = await readPageUrl(props);
  const next = search.get("next") ?? "/";
  const error = search.get("error");
  const session = await fetchPageQuery(trpc.session.get.queryOptions());
  const tokenWords = session.private
    ? "This Benchtrack is private. Enter the read token, the admin token (it also unlocks admin actions) or a project token."
    : "Enter the admin token to change settings, pin baselines and triage regressions from the dashboard.";
  return (
    <div className="mx-auto max-w-md space-y-4 pt-8">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      {error && (
        <p role="alert" className="rounded-md border border-bad/40 bg-bad/10 px-3 py-2 text-sm text-bad">
          {isOidcRefusal(error)
            ? OIDC_REFUSALS[error]
            : error === "too-many"
              ? "Too many wrong tokens from this address: wait a minute and try again."
              : "That token is not valid (unknown or revoked)."}
        </p>
      )}
      {search.get("signed-out") && (
        <p role="status" className="text-sm text-text-muted">
          You are signed out.
        </p>
      )}
      {session.user && (
        <p role="status" className="text-sm text-text-muted">
          You are signed in as {session.user.name ?? session.user.email ?? "a person of your identity provider"}
          {session.user.name && session.user.email ? ` (${session.user.email})` : ""}.
        </p>
      )}
      {session.oidc && (
        <Card>
          <div className="space-y-3">
            <p className="text-sm text-text-muted">
              {session.private ? "This Benchtrack is private. " : ""}Sign in with your team&apos;s account; the browser stays signed in for 7 days.
            </p>
            {/* A plain link: the start route redirects to the provider (a GET, so no form is needed). */}
            <a
              href={oidcSignInPath(next)}
              className="block w-full rounded-md bg-accent px-3 py-2 text-center text-sm font-medium text-accent-text hover:opacity-90"
            >
              Sign in with {session.oidc.name}
            </a>
          </div>
        </Card>
      )}
      {session.oidc && <h2 className="pt-2 text-sm font-medium text-text-muted">Sign in with a token</h2>}
      {!session.oidc && <p className="text-sm text-text-muted">{tokenWords} The browser stays signed in for 7 days.</p>}
      <Card>
        <form method="post" action={SESSION_FORM_ACTION} className="space-y-3">
          <input type="hidden" name="next" value={next} />
          {session.oidc && <p className="text-sm text-text-muted">{tokenWords}</p>}
          <label className="block text-sm">
            <span className="mb-1 block text-text-muted">Token</span>
            <input
              type="password"
              name="token"
              required
              autoComplete="current-password"
              className="w-full rounded-md border border-border bg-surface px-3 py-2 font-mono text-sm text-text"
            />
          </label>
          <button
            type="submit"
            className={
              session.oidc
                ? "rounded-md border border-border px-3 py-1.5 text-sm font-medium text-text hover:bg-surface-muted"
                : "rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text hover:opacity-90"
            }
          >
            {session.oidc ? "Sign in with the token" : "Sign in"}
          </button>
        </form>
      </Card>
    </div>
  );
}
