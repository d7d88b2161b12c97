import { headers } from "next/headers";
import { ProjectList } from "@/components/projects/project-list";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

// Lists live data: never prerender at build time.
export const dynamic = "force-dynamic";

export default async function HomePage() {
  await fetchPageQuery(trpc.project.list.queryOptions());
  const baseUrl = publicBaseUrl(await headers());
  return (
    <HydrateClient>
      <h1 className="mb-4 text-xl font-semibold">Projects</h1>
      <ProjectList baseUrl={baseUrl} />
    </HydrateClient>
  );
}
