import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { ThemeScript } from "@/components/layout/theme-script";
import { TRPCReactProvider } from "@/components/providers/trpc-provider";
import { SESSION_COOKIE } from "@/server/domain/share";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Benchtrack", template: "%s · Benchtrack" },
  description: "Load-test and benchmark history: percentile trends, comparisons, SLA grades, regressions.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const signedIn = (await cookies()).has(SESSION_COOKIE);
  return (
    // The theme script changes <html>'s class before hydration, by design.
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript />
      </head>
      <body className="min-h-screen antialiased">
        <TRPCReactProvider>
          <SiteHeader signedIn={signedIn} />
          <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
