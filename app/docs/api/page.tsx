import type { Metadata } from "next";
import { headers } from "next/headers";
import { ApiDocs } from "@/components/docs/api-docs";
import { absoluteUrl, apiPaths, pagePaths } from "@/server/domain/urls";
import { getEnv } from "@/server/env";
import { buildOpenApiDocument, errorAnswerRows } from "@/server/http/openapi";
import { publicBaseUrl } from "@/server/public-url";

// The examples use the URL this page was reached by: never prerender at build time.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API" };

const EXAMPLE_PROJECT = "listings";

/** `/docs/api`: the REST API for curl and CI, its tables read from the OpenAPI document itself. */
export default async function ApiDocsPage() {
  const baseUrl = publicBaseUrl(await headers());
  const env = getEnv();
  const metadataParameters = Object.entries(buildOpenApiDocument(baseUrl).components.parameters)
    .filter(([key]) => key.startsWith("metadata."))
    .map(([, parameter]) => ({
      name: String(parameter.name),
      description: typeof parameter.description === "string" ? parameter.description : "",
    }));
  return (
    <ApiDocs
      baseUrl={baseUrl}
      urls={{
        runs: absoluteUrl(baseUrl, apiPaths.runs(EXAMPLE_PROJECT)),
        tokens: absoluteUrl(baseUrl, `${apiPaths.project(EXAMPLE_PROJECT)}/tokens`),
        runPage: absoluteUrl(baseUrl, pagePaths.run(EXAMPLE_PROJECT, "cmabc123…")),
        incidents: absoluteUrl(baseUrl, apiPaths.incidents(EXAMPLE_PROJECT)),
        alertPrecision: absoluteUrl(baseUrl, apiPaths.alertPrecision(EXAMPLE_PROJECT)),
      }}
      metadataParameters={metadataParameters}
      errorRows={errorAnswerRows()}
      limits={{ maxBodyBytes: env.BENCHTRACK_MAX_BODY_BYTES, maxDecompressedBytes: env.BENCHTRACK_MAX_DECOMPRESSED_BYTES }}
    />
  );
}
