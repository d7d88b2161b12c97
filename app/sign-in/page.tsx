import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { SESSION_FORM_ACTION } from "@/server/domain/urls";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";

export const metadata: Metadata = { title: "Sign in" };

// /sign-in — a private Benchtrack (BENCHTRACK_READ_TOKEN set) asks for a token once per browser: the read
// token, the admin token (which also unlocks admin actions) or a project token. On any server, the admin
// token signs a browser in for admin actions (the Settings page posts here too).
export default async function SignInPage(props: PageProps) {
  const { search } = await readPageUrl(props);
  const next = search.get("next") ?? "/";
  const session = await fetchPageQuery(trpc.session.get.queryOptions());
  return (
    <div className="mx-auto max-w-md space-y-4 pt-8">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="text-sm text-text-muted">
        {session.private
          ? "This Benchtrack is private. Enter the read token, the admin token (it also unlocks admin actions) or a project token."
          : "Enter the admin token to change settings, pin baselines and triage regressions from the dashboard."}{" "}
        The browser stays signed in for 7 days.
      </p>
      {search.get("error") && (
        <p role="alert" className="rounded-md border border-bad/40 bg-bad/10 px-3 py-2 text-sm text-bad">
          {search.get("error") === "too-many"
            ? "Too many wrong tokens from this address: wait a minute and try again."
            : "That token is not valid (unknown or revoked)."}
        </p>
      )}
      {search.get("signed-out") && (
        <p role="status" className="text-sm text-text-muted">
          You are signed out.
        </p>
      )}
      <Card>
        <form method="post" action={SESSION_FORM_ACTION} className="space-y-3">
          <input type="hidden" name="next" value={next} />
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
          <button type="submit" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text hover:opacity-90">
            Sign in
          </button>
        </form>
      </Card>
    </div>
  );
}
