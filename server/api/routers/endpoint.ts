import { parseOverlay } from "../../domain/series/trend-overlay";
import { endpointTrendsInputSchema } from "../../schemas/trends";
import { getEndpointTrends } from "../../services/endpoint-trends";
import { createTRPCRouter, readProcedure } from "../trpc";

// Procedures for the per-endpoint trend page.
export const endpointRouter = createTRPCRouter({
  /** An endpoint's (or the aggregate's) trend under the page's filters; NOT_FOUND (mapped once, ../errors) for an unknown one. */
  trends: readProcedure.input(endpointTrendsInputSchema).query(({ ctx, input }) =>
    getEndpointTrends(ctx.db, {
      projectSlug: input.project,
      endpoint: input.endpoint,
      protocol: input.protocol,
      branch: input.branch,
      label: input.label,
      tool: input.tool,
      range: input.range,
      maxPoints: input.maxPoints,
      overlay: parseOverlay(input.overlay),
    }),
  ),
});
