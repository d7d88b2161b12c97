import { z } from "zod";
import { publicBaseUrl } from "../../public-url";
import { createShareLinkSchema } from "../../schemas/share-links";
import { projectSlugSchema } from "../../schemas/projects";
import { createShareLinkWithMarkdown, describeShareLink } from "../../services/sharing";
import { createTRPCRouter, openProcedure, writeProcedure } from "../trpc";

// Share links from the dashboard: the same minting as POST /api/v1/projects/:project/share-links.
export const shareRouter = createTRPCRouter({
  /** A new share link (the admin, or a token of the project), with the comparison's Markdown linking through it. */
  create: writeProcedure
    .input(z.object({ project: projectSlugSchema, link: createShareLinkSchema }))
    .mutation(({ ctx, input }) => createShareLinkWithMarkdown(ctx.db, ctx.principal, input.project, input.link, ctx.baseUrl ?? publicBaseUrl(new Headers()))),

  /** What a share token opens and until when, for whoever holds it (null: forged, tampered or expired). */
  describe: openProcedure.input(z.object({ token: z.string().max(4096) })).query(({ input }) => describeShareLink(input.token)),
});
