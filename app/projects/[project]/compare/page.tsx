import type { Metadata } from "next";
import { headers } from "next/headers";
import { ComparePicker } from "@/components/compare/compare-picker";
import { CompareView } from "@/components/compare/compare-view";
import { AGGREGATE_KEY } from "@/components/compare/shape";
import { HydrateClient, getQueryClient, trpc } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readQuery(search: Record<string, string | string[] | undefined>) {
  const lastText = first(search.last);
  const last = lastText && /^\d+$/.test(lastText) ? Math.min(Math.max(Number(lastText), 1), 50) : null;
  return {
    base: first(search.base)?.trim() ?? "",
    head: first(search.head)?.trim() ?? "",
    last,
    test: first(search.test) === "mann-whitney" ? ("mann-whitney" as const) : ("welch" as const),
  };
}

function canonicalSearch(query: ReturnType<typeof readQuery>): URLSearchParams {
  const params = new URLSearchParams({ base: query.base, head: query.head });
  if (query.last !== null) params.set("last", String(query.last));
  if (query.test !== "welch") params.set("test", query.test);
  return params;
}

export async function generateMetadata({
  params,
  searchParams,
}: {
  params: Promise<{ project: string }>;
  searchParams: SearchParams;
}): Promise<Metadata> {
  const { project } = await params;
  const query = readQuery(await searchParams);
  if (!query.base || !query.head) return { title: `Compare · ${decodeURIComponent(project)}` };
  const baseUrl = publicBaseUrl(await headers());
  const image = `${baseUrl}/projects/${project}/compare/og?${canonicalSearch(query)}`;
  const title = `${query.base} vs ${query.head} · ${decodeURIComponent(project)}`;
  return {
    title,
    openGraph: { title, description: "Benchtrack before/after comparison", images: [{ url: image, width: 1200, height: 630 }] },
    twitter: { card: "summary_large_image", title, images: [image] },
  };
}

export default async function ComparePage({
  params,
  searchParams,
}: {
  params: Promise<{ project: string }>;
  searchParams: SearchParams;
}) {
  const { project: encoded } = await params;
  const project = decodeURIComponent(encoded);
  const search = await searchParams;
  const query = readQuery(search);
  const queryClient = getQueryClient();

  if (!query.base || !query.head) {
    const choices = await queryClient.fetchQuery(trpc.compare.choices.queryOptions({ project }));
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold">Compare</h1>
        <ComparePicker project={project} labels={choices.labels} branches={choices.branches} />
      </div>
    );
  }

  const baseUrl = publicBaseUrl(await headers());
  const search_ = canonicalSearch(query);
  const pageUrl = `${baseUrl}/projects/${encodeURIComponent(project)}/compare?${search_}`;
  const apiUrl = `/api/v1/projects/${encodeURIComponent(project)}/compare?${search_}`;
  await queryClient.prefetchQuery(trpc.compare.get.queryOptions({ project, ...query, pageUrl }));
  const show = first(search.show) === "all" ? "all" : "changed";
  const view = { show, metric: first(search.metric) ?? "p95", endpoint: first(search.endpoint) ?? AGGREGATE_KEY } as const;

  return (
    <HydrateClient>
      <h1 className="mb-4 text-xl font-semibold">Compare</h1>
      <CompareView project={project} input={query} pageUrl={pageUrl} apiUrl={apiUrl} view={view} />
    </HydrateClient>
  );
}
