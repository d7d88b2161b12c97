import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ProjectOverview } from "@/components/projects/project-overview";
import { getQueryClient, trpc } from "@/server/api/server";
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
  const slug = decodeURIComponent(project);
  const overview = await getQueryClient()
    .fetchQuery(trpc.project.overview.queryOptions({ project: slug }))
    .catch((error: unknown) => {
      if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
      throw error;
    });
  const baseUrl = publicBaseUrl(await headers());
  return <ProjectOverview overview={overview} baseUrl={baseUrl} now={overview.generatedAt.getTime()} />;
}
