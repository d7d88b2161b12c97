import type { Metadata } from "next";
import { headers } from "next/headers";
import { ProjectOverview } from "@/components/projects/project-overview";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

// Live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ project: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { project } = await params;
  return { title: decodeURIComponent(project) };
}

/**
 * `/projects/{p}`: a server component end to end (nothing here needs the browser but the sparklines),
 * fed by the project.overview procedure, called in-process.
 */
export default async function ProjectOverviewPage({ params }: Props) {
  const { project } = await params;
  const overview = await fetchPageQuery(trpc.project.overview.queryOptions({ project: decodeURIComponent(project) }));
  return <ProjectOverview overview={overview} baseUrl={publicBaseUrl(await headers())} now={overview.generatedAt.getTime()} />;
}
