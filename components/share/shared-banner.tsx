"use client";

import { usePathname } from "next/navigation";
import { formatUtcTimestamp } from "@/components/runs/display";
import { pagePaths } from "@/server/domain/urls";
import { useSharedView } from "./share-context";

/**
 * In place of a project's tabs on a page opened through a share link: what the link opens and until
 * when, the way back to its page, and sign-in for the rest (the tabs would only lead outside the link).
 */
export function SharedBanner() {
  const share = useSharedView();
  const pathname = usePathname();
  if (share === null) return null;
  const what = share.kind === "compare" ? "one comparison and its runs" : "one run";
  const onSharedPage = pathname === share.page.split("?")[0];
  return (
    <div
      role="note"
      className="mb-5 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-accent/40 bg-accent/5 px-3 py-2 text-sm"
      data-testid="shared-banner"
    >
      <span>
        <span className="font-medium">Shared link</span>: {what}, open until {formatUtcTimestamp(share.expiresAt.toISOString())}.
      </span>
      {!onSharedPage && (
        <a href={share.page} className="text-accent underline" data-testid="shared-banner-back">
          Back to the shared {share.kind === "compare" ? "comparison" : "run"}
        </a>
      )}
      <a href={pagePaths.signIn(pathname)} className="text-text-muted underline hover:text-text">
        Sign in to see the rest
      </a>
    </div>
  );
}
