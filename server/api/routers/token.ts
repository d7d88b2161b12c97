import { projectInputSchema } from "../../schemas/projects";
import { createTokenInputSchema, revokeTokenInputSchema } from "../../schemas/tokens";
import { createProjectToken, listProjectTokens, revokeProjectToken } from "../../services/projects";
import { createTRPCRouter, writeProcedure } from "../trpc";

/** A project's tokens (its maintainers only), as /api/v1/projects/:project/tokens. */
export const tokenRouter = createTRPCRouter({
  /** The tokens, newest first, never their secrets. */
  list: writeProcedure.input(projectInputSchema).query(({ ctx, input }) => listProjectTokens(ctx.db, ctx.principal, input.project)),

  /** A new token with its name, scopes and expiry; its secret is in this answer only. */
  create: writeProcedure
    .input(createTokenInputSchema)
    .mutation(({ ctx, input: { project, ...token } }) => createProjectToken(ctx.db, ctx.principal, project, token, { viaSession: !ctx.authorization })),

  revoke: writeProcedure
    .input(revokeTokenInputSchema)
    .mutation(({ ctx, input }) => revokeProjectToken(ctx.db, ctx.principal, input.project, input.id)),
});
