import { pinBaselineInputSchema, unpinBaselineInputSchema } from "../../schemas/baselines";
import { pinBaseline, unpinBaseline } from "../../services/gate";
import { createTRPCRouter, writeProcedure } from "../trpc";

/** Pinned baselines (its maintainers), as PUT and DELETE /api/v1/projects/:project/baseline. */
export const baselineRouter = createTRPCRouter({
  /** Pins runs or a label as the baseline of `forLabel` (null: every label), replacing that label's pin. */
  pin: writeProcedure
    .input(pinBaselineInputSchema)
    .mutation(({ ctx, input: { project, ...pin } }) => pinBaseline(ctx.db, ctx.principal, project, pin)),

  /** Removes the pin of `forLabel` (null: the pin for every label). */
  unpin: writeProcedure
    .input(unpinBaselineInputSchema)
    .mutation(({ ctx, input }) => unpinBaseline(ctx.db, ctx.principal, input.project, input.forLabel)),
});
