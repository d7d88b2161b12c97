import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { ThemeScript } from "@/components/layout/theme-script";
import { SessionProvider } from "@/components/providers/session-provider";
import { TRPCReactProvider } from "@/components/providers/trpc-provider";
import { fetchPageQuery, trpc } from "@/server/api/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Benchtrack", template: "%s · Benchtrack" },
  description: "Load-test and benchmark history: percentile trends, comparisons, SLA grades, regressions.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // A forged or expired cookie grants nothing (and offers no sign-out of a session that is not one).
  const { role } = await fetchPageQuery(trpc.session.get.queryOptions());
  return (
    // The theme script changes <html>'s class before hydration, by design.
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript />
      </head>
      <body className="min-h-screen antialiased">
        <SessionProvider role={role}>
          <TRPCReactProvider>
            <SiteHeader signedIn={role !== null} />
            <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
          </TRPCReactProvider>
        </SessionProvider>
      </body>
    </html>
  );
}
