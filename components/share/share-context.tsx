"use client";

import Link from "next/link";
import { createContext, useContext } from "react";
import type { ComponentProps, ReactNode } from "react";
import type { RouterOutputs } from "@/server/api/root";
import { readTargetOfPage, shareCovers, withShareParam } from "@/server/domain/share";

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

/** The origin hrefs are read against: only their path and query matter. */
const ANY_ORIGIN = "http://share.invalid";

/**
 * Whether `href` opens on this page: always, unless the page was opened through a share link whose
 * scope does not cover it (server/domain/share.ts:shareCovers, the rule the server holds the link to).
 */
export function useOpensHere(): (href: string) => boolean {
  const share = useSharedView();
  return (href) => share === null || shareCovers(share.scope, readTargetOfPage(new URL(href, ANY_ORIGIN)));
}

/** An href as this page links it: through its share link, carrying the token; otherwise as it is. */
export function useShareHref(): (href: string) => string {
  const share = useSharedView();
  return (href) => (share === null ? href : withShareParam(href, share.token));
}

/**
 * next/link, kept inside a share link: on a shared page the href carries the token and nothing is
 * prefetched; a link outside the share link's scope (the project's other pages, the site's) is its text
 * alone, as it would only lead to the page that refuses it. Elsewhere, next/link as is.
 */
export function ScopedLink({ href, prefetch, ...props }: Omit<ComponentProps<typeof Link>, "href"> & { href: string }) {
  const share = useSharedView();
  const opensHere = useOpensHere();
  if (share === null) return <Link href={href} prefetch={prefetch} {...props} />;
  if (!opensHere(href)) {
    const { children, className, title, id } = props;
    // Its text, without what made it look like a link.
    const plain = className
      ?.split(/\s+/)
      .filter((name) => !/^(hover:|text-accent$|underline)/.test(name))
      .join(" ");
    return (
      <span className={plain} title={title} id={id} data-outside-share="">
        {children}
      </span>
    );
  }
  return <Link href={withShareParam(href, share.token)} prefetch={false} {...props} />;
}

/**
 * Its children only where `href` opens (everywhere but a shared page whose link does not cover it), or,
 * without `href`, only on a page not opened through a share link: for controls that lead nowhere a
 * share link opens ("Compare with…", "Set SLA targets").
 */
export function OutsideShareHidden({ href, children }: { href?: string; children: ReactNode }) {
  const share = useSharedView();
  const opensHere = useOpensHere();
  if (share !== null && (href === undefined || !opensHere(href))) return null;
  return <>{children}</>;
}
