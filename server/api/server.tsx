import "server-only";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { cache } from "react";
import type { ReactNode } from "react";
import { makeQueryClient } from "@/components/providers/query-client";
import { appRouter } from "./root";
import { createTRPCContext } from "./trpc";

/**
 * tRPC for server components: procedures are called in-process (no HTTP hop), their results
 * prefetched into a per-request QueryClient and handed to the browser by <HydrateClient>, so pages
 * paint with data on the first response.
 */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: createTRPCContext,
  router: appRouter,
  queryClient: getQueryClient,
});

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
