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
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { HydrateClient, trpc, tryPageQuery } from "@/server/api/server";
import { AGGREGATE_URL_NAME, endpointDisplayName } from "@/server/domain/run";
import { pagePaths } from "@/server/domain/urls";

// Live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { endpoint } = parseCapacityView((await readPageUrl(props)).search);
  return { title: `${endpoint === AGGREGATE_URL_NAME ? endpointDisplayName(null) : endpoint} · capacity` };
}

// /projects/{p}/capacity?endpoint=… — an endpoint's capacity curve(s) (the run aggregate without one).
export default async function CapacityRoute(props: Props) {
  const { params, search } = await readPageUrl(props);
  const projectSlug = params.project;
  const view = parseCapacityView(search);
  // Fetched (not only prefetched) so an unknown endpoint is a 404 and a bad selector is said here.
  const outcome = await tryPageQuery(trpc.capacity.get.queryOptions(capacityQueryInput(projectSlug, view)));
  if (!outcome.ok && outcome.reason === "missing") notFound();
  if (!outcome.ok) {
    const withoutCurves = serializeCapacityView({ ...DEFAULT_CAPACITY_VIEW, endpoint: view.endpoint, protocol: view.protocol });
    return (
      <EmptyState title="These curves cannot be drawn">
        <p>{outcome.message}</p>
        <Link href={pagePaths.capacity(projectSlug, withoutCurves)} className="text-accent hover:underline">
          Show the whole series
        </Link>
      </EmptyState>
    );
  }
  return (
    <HydrateClient>
      <Suspense fallback={<p className="text-text-muted text-sm">Loading capacity…</p>}>
        <CapacityPage projectSlug={projectSlug} />
      </Suspense>
    </HydrateClient>
  );
}
