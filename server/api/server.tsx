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

/** Why a page's query has nothing to show: the URL names nothing that exists, or asks what cannot be asked. */
export interface PageQueryMiss {
  ok: false;
  /** "missing": NOT_FOUND; "invalid": a value in the URL the server refuses (BAD_REQUEST, PAYLOAD_TOO_LARGE). */
  reason: "missing" | "invalid";
  message: string;
}

/**
 * A page's query, called in-process, for a page that says itself why it has nothing to show (the
 * comparison, the capacity curves, a run's title): its data, or the miss; any other error propagates
 * to the error page. The request's QueryClient keeps the answer for generateMetadata and HydrateClient.
 */
export async function tryPageQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<{ ok: true; data: TData } | PageQueryMiss> {
  try {
    return { ok: true, data: await getQueryClient().fetchQuery(options) };
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") return { ok: false, reason: "missing", message: error.message };
    if (error instanceof TRPCError && (error.code === "BAD_REQUEST" || error.code === "PAYLOAD_TOO_LARGE")) {
      return { ok: false, reason: "invalid", message: error.message };
    }
    throw error;
  }
}

/**
 * A page's query, called in-process: a missing project (or a malformed slug, selector or cursor in the
 * URL) renders the page's 404, anything else propagates to the error page.
 */
export async function fetchPageQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<TData> {
  const outcome = await tryPageQuery(options);
  if (!outcome.ok) notFound();
  return outcome.data;
}
