import { getDatabase } from "@/server/db";
import { getEnv } from "@/server/env";
import { errorResponse } from "@/server/http/errors";
import { observed } from "@/server/http/observe";
import { otherMethods } from "@/server/http/route";
import { metricsReaderOf } from "@/server/services/access";
import { ServiceError, collectScrapeMetrics, getLogger, noteCallerKind, renderMetrics } from "@/server/services/platform";

export const dynamic = "force-dynamic";

// GET /metrics — Prometheus metrics, for the admin token or BENCHTRACK_METRICS_TOKEN (they name projects'
// routes and queues: never open). No rate limit. Names: server/services/platform/metrics.ts, docs/operations.md.
export const GET = observed("/metrics", async (request: Request) => {
  const reader = metricsReaderOf(request.headers.get("authorization"));
  if (reader === null) {
    return errorResponse(
      new ServiceError("unauthorized", "GET /metrics needs Authorization: Bearer with the admin token or BENCHTRACK_METRICS_TOKEN", [
        { path: "headers.authorization", message: "the admin token or BENCHTRACK_METRICS_TOKEN" },
      ]),
      { "WWW-Authenticate": 'Bearer realm="metrics"' },
    );
  }
  noteCallerKind(reader);
  try {
    await collectScrapeMetrics(await getDatabase(), getEnv().BENCHTRACK_JOB_SCHEMA);
  } catch (error) {
    // The database away: the process's own metrics are still served; the queue's and pools' keep their last values.
    getLogger().warn({ err: error instanceof Error ? { message: error.message } : String(error) }, "metrics: the job queue could not be read");
  }
  const { text, contentType } = await renderMetrics();
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
