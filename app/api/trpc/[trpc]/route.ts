import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { retryAfterHeaders } from "@/server/api/errors";
import { createTRPCContext } from "@/server/api/trpc";
import { readLimitedText } from "@/server/http/body-limit";
import { errorResponse } from "@/server/http/errors";
import { observed } from "@/server/http/observe";
import { toServiceError } from "@/server/services/platform";

/**
 * The largest tRPC request body: a batch of mutations from the dashboard, the largest an SLA policy
 * with targets per endpoint. Read with this cap as it streams (413 past it), before tRPC parses it.
 */
const MAX_TRPC_BODY_BYTES = 1024 * 1024;

// The tRPC endpoint the dashboard's browser code talks to. Nothing else lives here. Each request is
// logged and counted under one route template (procedure names come from the client: not a label).
const handler = observed("/api/trpc/[trpc]", async (request: Request) => {
  let req = request;
  if (request.method === "POST") {
    try {
      const body = await readLimitedText(request, MAX_TRPC_BODY_BYTES);
      req = new Request(request.url, { method: "POST", headers: request.headers, body, signal: request.signal });
    } catch (error) {
      return errorResponse(toServiceError(error));
    }
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: ({ resHeaders }) => createTRPCContext({ headers: request.headers, resHeaders }),
    // A database that cannot be reached answers 503 with Retry-After, as the REST API does.
    responseMeta: ({ errors }) => ({ headers: retryAfterHeaders(errors) }),
  });
});

export { handler as GET, handler as POST };
