import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunReport } from "@/components/runs/run-report";
import { HydrateClient, getQueryClient, trpc } from "@/server/api/server";

// A run's report reads live data: never prerender at build time.
export const dynamic = "force-dynamic";

type Params = Promise<{ project: string; id: string }>;

/** An unknown project or run (or an id no run can have) is a 404 page. */
function isMissing(error: unknown): boolean {
  return error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST");
}

async function loadReport(params: Params) {
  const { project, id } = await params;
  const input = { project: decodeURIComponent(project), id: decodeURIComponent(id) };
  // fetchQuery fills the request's QueryClient (shared with generateMetadata), which HydrateClient hands over.
  const report = await getQueryClient()
    .fetchQuery(trpc.run.get.queryOptions(input))
    .catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
  return { input, report };
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { input, report } = await loadReport(params);
  if (!report) return { title: "Run not found" };
  return { title: `Run ${report.run.title} · ${input.project}` };
}

export default async function RunReportPage({ params }: { params: Params }) {
  const { input, report } = await loadReport(params);
  if (!report) notFound();
  return (
    <HydrateClient>
      <RunReport project={input.project} id={input.id} />
    </HydrateClient>
  );
}
