import { capacityInputSchema } from "../../schemas/capacity";
import { getCapacity } from "../../services/trends";
import { createTRPCRouter, readProcedure } from "../trpc";

// Procedures for the capacity page.
export const capacityRouter = createTRPCRouter({
  /** An endpoint's capacity curve(s) (server/services/trends/capacity.ts); NOT_FOUND for an unknown endpoint, BAD_REQUEST for a bad selector. */
  get: readProcedure
    .input(capacityInputSchema)
    .query(({ ctx, input: { project, ...series } }) => getCapacity(ctx.db, { projectSlug: project, ...series })),
});
