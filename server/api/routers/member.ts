import { projectInputSchema } from "../../schemas/projects";
import { grantMemberInputSchema, removeMemberInputSchema, setVisibilityInputSchema, updateMemberInputSchema } from "../../schemas/members";
import { grantMember, listMembers, removeMember, setProjectVisibility, updateMember } from "../../services/members";
import { createTRPCRouter, writeProcedure } from "../trpc";

/**
 * A project's members and visibility, as /api/v1/projects/:project/members: for those who may manage the
 * project (its maintainers, server admins), which the service checks. On the primary (writeProcedure),
 * the list too: it is only ever asked by someone about to change it.
 */
export const memberRouter = createTRPCRouter({
  /** The grants, each with the people it matches now, and the visibility. */
  list: writeProcedure.input(projectInputSchema).query(({ ctx, input }) => listMembers(ctx.db, ctx.principal, input.project)),

  /** Grants a role to an email or a group (again: changes its role). */
  grant: writeProcedure
    .input(grantMemberInputSchema)
    .mutation(({ ctx, input }) => grantMember(ctx.db, ctx.principal, input.project, input.grant, { viaSession: !ctx.authorization })),

  /** Changes a grant's role. */
  update: writeProcedure
    .input(updateMemberInputSchema)
    .mutation(({ ctx, input }) => updateMember(ctx.db, ctx.principal, input.project, input.id, { role: input.role }, { viaSession: !ctx.authorization })),

  remove: writeProcedure
    .input(removeMemberInputSchema)
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.principal, input.project, input.id, { viaSession: !ctx.authorization })),

  /** Public, private, or the server's default (null), as PATCH /api/v1/projects/:project's `visibility`. */
  setVisibility: writeProcedure
    .input(setVisibilityInputSchema)
    .mutation(({ ctx, input }) => setProjectVisibility(ctx.db, ctx.principal, input.project, input.visibility, { viaSession: !ctx.authorization })),
});
