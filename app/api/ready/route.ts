import { getDatabase } from "@/server/db";
import type { Database } from "@/server/db";
import { getEnv } from "@/server/env";
import { observed } from "@/server/http/observe";
import { otherMethods } from "@/server/http/route";
import { checkReadiness } from "@/server/services/platform";

export const dynamic = "force-dynamic";

// GET /api/ready — readiness: database reachable, migrations applied, job workers running, not shutting
// down; 200 or 503 with a reason per check. No token, no rate limit (docs/operations.md).
export const GET = observed("/api/ready", async () => {
  let database: Database | undefined;
  let openError: unknown;
  try {
    database = await getDatabase();
  } catch (error) {
    openError = error;
  }
  const readiness = await checkReadiness({ prisma: database?.prisma, openError, workersEnabled: getEnv().BENCHTRACK_WORKERS });
  return Response.json(readiness, { status: readiness.status === "ready" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
