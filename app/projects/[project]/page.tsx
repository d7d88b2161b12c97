import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ProjectOverview } from "@/components/projects/project-overview";
import { getQueryClient, trpc } from "@/server/api/server";
import { getDb } from "@/server/db";
import { publicBaseUrl } from "@/server/public-url";
import { checkProjectFreshness } from "@/server/services/freshness";
import { findProject } from "@/server/services/projects";

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
  const db = await getDb();
  const stored = await findProject(db, slug);
  const [freshness, openRegressions] = stored
    ? await Promise.all([
        checkProjectFreshness(db, stored.id, overview.generatedAt),
        db.regression.count({ where: { projectId: stored.id, status: "open", kind: "regression" } }),
      ])
    : [null, 0];
  return (
    <>
      {freshness?.status === "missing" && (
        <div role="alert" className="mb-4 rounded-md border border-warn p-3 text-sm" data-testid="missing-data">
          <span className="font-medium text-warn">Missing data: </span>
          {freshness.message}
        </div>
      )}
      {openRegressions > 0 && (
        <a
          href={`/projects/${encodeURIComponent(slug)}/regressions`}
          className="mb-4 block rounded-md border border-bad p-3 text-sm hover:bg-surface-muted"
          data-testid="open-regressions-banner"
        >
          <span className="font-medium text-bad">
            {openRegressions} open regression{openRegressions === 1 ? "" : "s"}
          </span>{" "}
          on {stored?.defaultBranch}: review them in the inbox →
        </a>
      )}
      <ProjectOverview overview={overview} baseUrl={baseUrl} now={overview.generatedAt.getTime()} />
    </>
  );
}
