import { updateUserInputSchema } from "../../schemas/members";
import { listUsers, updateUser } from "../../services/members";
import { adminProcedure, createTRPCRouter } from "../trpc";

/** The server's people (server admins only), as GET /api/v1/users and PATCH /api/v1/users/:id. */
export const userRouter = createTRPCRouter({
  /** Everyone who signed in, most recent sign-in first. */
  list: adminProcedure.query(({ ctx }) => listUsers(ctx.db, ctx.principal)),

  /** Make or unmake a server admin; disable (their sessions stop at once) or enable again. */
  update: adminProcedure
    .input(updateUserInputSchema)
    .mutation(({ ctx, input }) => updateUser(ctx.db, ctx.principal, input.id, input.changes, { viaSession: !ctx.authorization })),
});
