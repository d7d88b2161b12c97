import { z } from "zod";
import { projectSlugSchema } from "../../schemas/projects";
import { createTokenSchema } from "../../schemas/tokens";
import { createProjectToken, listProjectTokens, revokeProjectToken } from "../../services/project-tokens";
import { adminProcedure, createTRPCRouter } from "../trpc";

const projectInput = z.object({ project: projectSlugSchema });

/** A project's upload tokens (admin only), as /api/v1/projects/:project/tokens. */
export const tokenRouter = createTRPCRouter({
  /** The tokens, newest first, never their secrets. */
  list: adminProcedure.input(projectInput).query(({ ctx, input }) => listProjectTokens(ctx.db, ctx.principal, input.project)),

  /** A new token; its secret is in this answer only. */
  create: adminProcedure
    .input(createTokenSchema.extend({ project: projectSlugSchema }))
    .mutation(({ ctx, input: { project, ...token } }) => createProjectToken(ctx.db, ctx.principal, project, token)),

  revoke: adminProcedure
    .input(projectInput.extend({ id: z.string().min(1).describe("The token's id (not its secret).") }))
    .mutation(({ ctx, input }) => revokeProjectToken(ctx.db, ctx.principal, input.project, input.id)),
});
