import { parseOverlay } from "../../domain/series/trend-overlay";
import { endpointTrendsInputSchema } from "../../schemas/trends";
import { getEndpointTrends } from "../../services/trends";
import { createTRPCRouter, readProcedure } from "../trpc";

// Procedures for the per-endpoint trend page.
export const endpointRouter = createTRPCRouter({
  /** An endpoint's (or the aggregate's) trend under the page's filters; NOT_FOUND (mapped once, ../errors) for an unknown one. */
  trends: readProcedure
    .input(endpointTrendsInputSchema)
    .query(({ ctx, input: { project, overlay, branch, ...filters } }) =>
      getEndpointTrends(ctx.db, { projectSlug: project, ...filters, branches: branch, overlay: parseOverlay(overlay) }),
    ),
});
