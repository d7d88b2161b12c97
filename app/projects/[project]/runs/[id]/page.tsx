import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { RunReport } from "@/components/runs/run-report";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { HydrateClient, trpc, tryPageQuery } from "@/server/api/server";
import { publicBaseUrl } from "@/server/public-url";

// A run's report reads live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Props = PageProps<{ project: string; id: string }>;

/** The run's report, or null for an unknown project or run (or an id no run can have): a 404 page. */
async function loadReport(props: Props) {
  const { params } = await readPageUrl(props);
  // Links and Markdown to copy are absolute, made with the address the reader came through.
  const input = { ...params, baseUrl: publicBaseUrl(await headers()) };
  // The request's QueryClient (shared with generateMetadata) keeps it for HydrateClient.
  const outcome = await tryPageQuery(trpc.run.get.queryOptions(input));
  return { input, report: outcome.ok ? outcome.data : null };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { input, report } = await loadReport(props);
  if (!report) return { title: "Run not found" };
  return { title: `Run ${report.run.title} · ${input.project}` };
}

export default async function RunReportPage(props: Props) {
  const { input, report } = await loadReport(props);
  if (!report) notFound();
  return (
    <HydrateClient>
      <RunReport project={input.project} id={input.id} baseUrl={input.baseUrl} />
    </HydrateClient>
  );
}
