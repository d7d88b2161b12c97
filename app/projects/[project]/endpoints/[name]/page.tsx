import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { EndpointTrends } from "@/components/trends/endpoint-trends";
import { parseTrendView, trendsQueryInput } from "@/components/trends/trend-view";
import { HydrateClient, getQueryClient, trpc } from "@/server/api/server";
import { AGGREGATE_URL_NAME, endpointDisplayName } from "@/server/domain/run";

// Live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Params = Promise<{ project: string; name: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A URL segment as the name it encodes (`encodeURIComponent(name)`); a malformed escape is taken literally. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { name } = await params;
  const endpoint = decodeSegment(name);
  return { title: `${endpoint === AGGREGATE_URL_NAME ? endpointDisplayName(null) : endpoint} · trends` };
}

// /projects/{p}/endpoints/{name} — an endpoint's trends ("_all": the run aggregate).
export default async function EndpointTrendsPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const { project, name } = await params;
  const projectSlug = decodeSegment(project);
  const endpoint = decodeSegment(name);
  const input = trendsQueryInput(projectSlug, endpoint, parseTrendView(await searchParams));
  try {
    // fetchQuery (not prefetchQuery) so an unknown endpoint is a 404, not an empty page.
    await getQueryClient().fetchQuery(trpc.endpoint.trends.queryOptions(input));
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return (
    <HydrateClient>
      <Suspense fallback={<p className="text-text-muted text-sm">Loading trends…</p>}>
        <EndpointTrends projectSlug={projectSlug} endpoint={endpoint} />
      </Suspense>
    </HydrateClient>
  );
}
