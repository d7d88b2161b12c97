"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState } from "react";
import type { ReactNode } from "react";
import type { AppRouter } from "@/server/api/root";
import { makeQueryClient } from "@/server/api/query-client";
import { wireTransformer } from "@/server/api/wire-json";
import { SHARE_HEADER, SHARE_PARAM } from "@/server/domain/share";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

let browserQueryClient: QueryClient | undefined;

function getQueryClient() {
  // On the server, a new client per request; in the browser, one for the page's lifetime.
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: "/api/trpc",
          transformer: wireTransformer,
          // The share link the page was opened with, if any (a private server lets it read that one
          // comparison or run). A signed-in session (read or admin) travels by itself, as a cookie.
          headers() {
            const share = new URLSearchParams(window.location.search).get(SHARE_PARAM);
            return share ? { [SHARE_HEADER]: share } : {};
          },
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
