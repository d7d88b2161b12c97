import "server-only";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { FetchQueryOptions, QueryKey } from "@tanstack/react-query";
import { TRPCError } from "@trpc/server";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import type { ReactNode } from "react";
import { makeQueryClient } from "./query-client";
import { appRouter } from "./root";
import { createTRPCContext } from "./trpc";

/**
 * tRPC for server components: procedures are called in-process (no HTTP hop), their results
 * prefetched into a per-request QueryClient and handed to the browser by <HydrateClient>, so pages
 * paint with data on the first response.
 */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: async () => createTRPCContext({ headers: await headers() }),
  router: appRouter,
  queryClient: getQueryClient,
});

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

/**
 * A page's query, called in-process: a missing project (or a malformed slug or cursor in the URL)
 * renders the page's 404, anything else propagates to the error page.
 */
export async function fetchPageQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<TData> {
  try {
    return await getQueryClient().fetchQuery(options);
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
}
