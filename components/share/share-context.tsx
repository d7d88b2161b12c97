"use client";

import Link from "next/link";
import { createContext, useContext } from "react";
import type { ComponentProps, ReactNode } from "react";
import type { RouterOutputs } from "@/server/api/root";
import { withShareParam } from "@/server/domain/share";

/**
 * The share link this page was opened with, on a private server by a browser with no session (the root
 * layout reads it from session.get); null otherwise. Its links then carry the token: the server decides
 * what it opens (services/access/auth.ts:shareCovers), and a page outside it says so (app/share-link).
 */
export type SharedView = NonNullable<RouterOutputs["session"]["get"]["share"]>;

const ShareContext = createContext<SharedView | null>(null);

export function ShareProvider({ share, children }: { share: SharedView | null; children: ReactNode }) {
  return <ShareContext.Provider value={share}>{children}</ShareContext.Provider>;
}

export function useSharedView(): SharedView | null {
  return useContext(ShareContext);
}

/** An href as this page links it: through its share link, carrying the token; otherwise as it is. */
export function useShareHref(): (href: string) => string {
  const share = useSharedView();
  return (href) => (share === null ? href : withShareParam(href, share.token));
}

/**
 * next/link, kept inside a share link: on a shared page the href carries the token and nothing is
 * prefetched (a page outside the link would only answer with the refusal page); elsewhere, next/link as is.
 */
export function ScopedLink({ href, prefetch, ...props }: Omit<ComponentProps<typeof Link>, "href"> & { href: string }) {
  const share = useSharedView();
  if (share === null) return <Link href={href} prefetch={prefetch} {...props} />;
  return <Link href={withShareParam(href, share.token)} prefetch={false} {...props} />;
}
