import { headers } from "next/headers";
import { ProjectOverview } from "@/components/projects/project-overview";
import type { PageProps } from "@/server/api/page-url";
import { projectPageTitle, readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

// Live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string }>;

export const generateMetadata = projectPageTitle();

/**
 * `/projects/{p}`: a server component end to end (nothing here needs the browser but the sparklines),
 * fed by the project.overview procedure, called in-process.
 */
export default async function ProjectOverviewPage(props: Props) {
  const { params } = await readPageUrl(props);
  const overview = await fetchPageQuery(trpc.project.overview.queryOptions({ project: params.project }));
  return <ProjectOverview overview={overview} baseUrl={publicBaseUrl(await headers())} now={overview.generatedAt.getTime()} />;
}
