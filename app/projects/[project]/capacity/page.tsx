import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { CapacityPage } from "@/components/capacity/capacity-page";
import {
  DEFAULT_CAPACITY_VIEW,
  capacityQueryInput,
  parseCapacityView,
  serializeCapacityView,
} from "@/components/capacity/capacity-view";
import { EmptyState } from "@/components/ui/empty-state";
import { HydrateClient, getQueryClient, trpc } from "@/server/api/server";
import { AGGREGATE_URL_NAME, endpointDisplayName } from "@/server/domain/run";
import { pagePaths } from "@/server/domain/urls";

// Live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Params = Promise<{ project: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { endpoint } = parseCapacityView(await searchParams);
  return { title: `${endpoint === AGGREGATE_URL_NAME ? endpointDisplayName(null) : endpoint} · capacity` };
}

// /projects/{p}/capacity?endpoint=… — an endpoint's capacity curve(s) (the run aggregate without one).
export default async function CapacityRoute({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const projectSlug = decodeURIComponent((await params).project);
  const view = parseCapacityView(await searchParams);
  try {
    // fetchQuery (not prefetchQuery) so an unknown endpoint is a 404 and a bad selector is said here.
    await getQueryClient().fetchQuery(trpc.capacity.get.queryOptions(capacityQueryInput(projectSlug, view)));
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    if (error instanceof TRPCError && (error.code === "BAD_REQUEST" || error.code === "PAYLOAD_TOO_LARGE")) {
      const withoutCurves = serializeCapacityView({
        ...DEFAULT_CAPACITY_VIEW,
        endpoint: view.endpoint,
        protocol: view.protocol,
      });
      return (
        <EmptyState title="These curves cannot be drawn">
          <p>{error.message}</p>
          <Link href={pagePaths.capacity(projectSlug, withoutCurves)} className="text-accent hover:underline">
            Show the whole series
          </Link>
        </EmptyState>
      );
    }
    throw error;
  }
  return (
    <HydrateClient>
      <Suspense fallback={<p className="text-text-muted text-sm">Loading capacity…</p>}>
        <CapacityPage projectSlug={projectSlug} />
      </Suspense>
    </HydrateClient>
  );
}
