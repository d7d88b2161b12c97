import type { Metadata } from "next";
import { Suspense } from "react";
import { EndpointTrends } from "@/components/trends/endpoint-trends";
import { parseTrendView, trendsQueryInput } from "@/components/trends/trend-view";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";
import { AGGREGATE_URL_NAME, endpointDisplayName } from "@/server/domain/run";

// Live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string; name: string }>;

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { name: endpoint } = (await readPageUrl(props)).params;
  return { title: `${endpoint === AGGREGATE_URL_NAME ? endpointDisplayName(null) : endpoint} · trends` };
}

// /projects/{p}/endpoints/{name} — an endpoint's trends ("_all": the run aggregate).
export default async function EndpointTrendsPage(props: Props) {
  const { params, search } = await readPageUrl(props);
  // Fetched (not only prefetched) so an unknown endpoint is a 404, not an empty page.
  await fetchPageQuery(trpc.endpoint.trends.queryOptions(trendsQueryInput(params.project, params.name, parseTrendView(search))));
  return (
    <HydrateClient>
      <Suspense fallback={<p className="text-text-muted text-sm">Loading trends…</p>}>
        <EndpointTrends projectSlug={params.project} endpoint={params.name} />
      </Suspense>
    </HydrateClient>
  );
}
