import { existsSync } from "node:fs";
import { headers } from "next/headers";
import { FirstUploadHint } from "@/components/projects/first-upload-hint";
import { ProjectList } from "@/components/projects/project-list";
import { adminTokenSource } from "@/server/admin-token";
import { HydrateClient, fetchPageQuery, trpc } from "@/server/api/server";
import { getEnv } from "@/server/env";
import { publicBaseUrl } from "@/server/public-url";

// Lists live data: never prerender at build time.
export const dynamic = "force-dynamic";

/** A real k6 summary bundled with Benchtrack, one with per-endpoint sub-metrics and thresholds, for a first upload. */
const SAMPLE_UPLOAD = "server/domain/parsers/fixtures/k6/baseline/groups-submetrics/summary.json";

export default async function HomePage() {
  const { projects } = await fetchPageQuery(trpc.project.list.queryOptions());
  return (
    <HydrateClient>
      <h1 className="mb-4 text-xl font-semibold">Projects</h1>
      <ProjectList empty={projects.length === 0 ? await firstUploadHint() : null} />
    </HydrateClient>
  );
}

/** The first-upload hint, made only for an empty server (it reads the token's file and looks for the sample). */
async function firstUploadHint() {
  const baseUrl = publicBaseUrl(await headers());
  // Offered only where it exists: the folder the server runs in is a clone of the repository.
  const sampleFile = existsSync(SAMPLE_UPLOAD) ? SAMPLE_UPLOAD : null;
  return <FirstUploadHint baseUrl={baseUrl} token={adminTokenSource(getEnv())} sampleFile={sampleFile} />;
}
