import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { formatUtcTimestamp } from "@/components/runs/display";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { SHARE_PARAM } from "@/server/domain/share";
import { pagePaths } from "@/server/domain/urls";

export const metadata: Metadata = { title: "Outside the share link", robots: { index: false } };

const BUTTON = "rounded-md border border-border bg-surface px-3 py-1.5 text-sm text-text hover:bg-surface-muted";
const PRIMARY = "rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text hover:opacity-90";

// /share-link — where a private server (proxy.ts) sends a share link opened on a page it does not open,
// or one that expired, was revoked or is not valid: it says which, links back to what the link does
// open, and offers to sign in for the rest. It shows nothing of the project but what the link itself names.
const REFUSALS = {
  expired: "This share link has expired",
  revoked: "This share link was revoked",
  invalid: "This share link is not valid",
} as const;

export default async function ShareLinkRefusedPage(props: PageProps) {
  const { search } = await readPageUrl(props);
  // Only shown and handed to sign-in, which keeps its redirect on this site (services/access/auth.ts:safeNextPath).
  const next = (search.get("next") ?? "/").slice(0, 2048);
  // A token with control characters is no link of any server (and no text a query may carry): none.
  const given = search.get(SHARE_PARAM) ?? "";
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  const token = /[\u0000-\u001f\u007f]/.test(given) ? "" : given;
  const link = token === "" ? null : await fetchPageQuery(trpc.share.describe.queryOptions({ token: token.slice(0, 16_384) }));
  const grant = link?.status === "open" ? link : null;
  const what = grant?.kind === "compare" ? "comparison" : "run";
  return (
    <div className="mx-auto max-w-xl space-y-4 pt-8" data-testid="share-refused">
      {grant ? (
        <>
          <h1 className="text-2xl font-semibold tracking-tight">This page is outside the share link</h1>
          <p className="text-sm">
            The link you opened shares one {what} of <strong>{grant.project}</strong>
            {grant.kind === "compare" ? " and the pages of its runs (their raw uploads and JSON too)" : " (its raw upload and JSON too)"}, until{" "}
            {formatUtcTimestamp(grant.expiresAt.toISOString())}. Sign in to see the rest.
          </p>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-semibold tracking-tight">{REFUSALS[link === null || link.status === "open" ? "invalid" : link.status]}</h1>
          <p className="text-sm">
            A share link opens its page until the date it was minted with, and stops working when the project&apos;s admin revokes it,
            when it is altered, or (for a link minted before links were stored) when the server&apos;s tokens change. Ask whoever
            shared it for a new one, or sign in.
          </p>
        </>
      )}
      <Card>
        <p className="mb-3 text-xs break-all text-text-muted">
          Asked for: <code>{next}</code>
        </p>
        <div className="flex flex-wrap gap-2">
          {grant && (
            <a href={grant.page} className={BUTTON} data-testid="share-refused-back">
              Back to the shared {what}
            </a>
          )}
          <a href={pagePaths.signIn(next)} className={PRIMARY} data-testid="share-refused-sign-in">
            Sign in to see it
          </a>
        </div>
      </Card>
    </div>
  );
}
