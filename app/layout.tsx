import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { ThemeScript } from "@/components/layout/theme-script";
import { SessionProvider } from "@/components/providers/session-provider";
import { ShareProvider } from "@/components/share/share-context";
import { TRPCReactProvider } from "@/components/providers/trpc-provider";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { NONCE_HEADER } from "@/server/domain/content-security-policy";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Benchtrack", template: "%s · Benchtrack" },
  description: "Load-test and benchmark history: percentile trends, comparisons, SLA grades, regressions.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // A forged or expired cookie grants nothing (and offers no sign-out of a session that is not one).
  // Without a session on a private server, `share` is the share link the page was opened with.
  const { role, user, share, private: isPrivate } = await fetchPageQuery(trpc.session.get.queryOptions());
  // The page's Content-Security-Policy runs no inline script without this response's nonce (proxy.ts).
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // The theme script changes <html>'s class before hydration, by design.
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript nonce={nonce} />
      </head>
      <body className="min-h-screen antialiased">
        <SessionProvider role={role} user={user} isPrivate={isPrivate}>
          <ShareProvider share={share}>
            <TRPCReactProvider>
              <SiteHeader
                signedIn={role !== null}
                user={user}
                shared={share !== null}
                admin={role === "admin" || user?.serverAdmin === true}
              />
              <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
            </TRPCReactProvider>
          </ShareProvider>
        </SessionProvider>
      </body>
    </html>
  );
}
