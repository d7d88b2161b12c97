import { z } from "zod";
import { publicBaseUrl } from "../../public-url";
import { projectInputSchema } from "../../schemas/projects";
import { createShareLinkSchema, revokeShareLinkInputSchema } from "../../schemas/share-links";
import { projectSlugSchema } from "../../schemas/projects";
import { createShareLinkWithMarkdown, describeShareLink, listShareLinks, revokeShareLink } from "../../services/sharing";
import { createTRPCRouter, openProcedure, writeProcedure } from "../trpc";

// Share links from the dashboard: the same minting as POST /api/v1/projects/:project/share-links, and
// Settings' list and Revoke as GET and DELETE …/share-links.
export const shareRouter = createTRPCRouter({
  /** A new share link (the "share" action: maintainers, tokens with the read scope), with the comparison's Markdown linking through it. */
  create: writeProcedure
    .input(z.object({ project: projectSlugSchema, link: createShareLinkSchema }))
    .mutation(({ ctx, input }) => createShareLinkWithMarkdown(ctx.db, ctx.principal, input.project, input.link, ctx.baseUrl ?? publicBaseUrl(new Headers()))),

  /** What a share token opens and until when, for whoever holds it; or why it opens nothing (expired, revoked, invalid). */
  describe: openProcedure.input(z.object({ token: z.string().max(16_384) })).query(({ ctx, input }) => describeShareLink(ctx.db, input.token)),

  /** The project's share links, newest first (its maintainers). */
  list: writeProcedure
    .input(projectInputSchema)
    .query(({ ctx, input }) => listShareLinks(ctx.db, ctx.principal, input.project, ctx.baseUrl ?? publicBaseUrl(new Headers()))),

  /** Revokes one (its maintainers): it opens nothing from then on. */
  revoke: writeProcedure.input(revokeShareLinkInputSchema).mutation(({ ctx, input }) => revokeShareLink(ctx.db, ctx.principal, input.project, input.id)),
});
