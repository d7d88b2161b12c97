import { z } from "zod";
import { createAnnotationSchema } from "../../schemas/annotations";
import { projectSlugSchema } from "../../schemas/projects";
import { createAnnotation, deleteAnnotation } from "../../services/annotations";
import { adminProcedure, createTRPCRouter } from "../trpc";

/** Notes on runs (admin), as /api/v1/projects/:project/runs/:id/annotations and …/annotations/:annotationId. */
export const annotationRouter = createTRPCRouter({
  create: adminProcedure
    .input(createAnnotationSchema.extend({ project: projectSlugSchema, runId: z.string().min(1) }))
    .mutation(({ ctx, input: { project, runId, ...annotation } }) => createAnnotation(ctx.db, ctx.principal, project, runId, annotation)),

  delete: adminProcedure
    .input(z.object({ project: projectSlugSchema, annotationId: z.string().min(1) }))
    .mutation(({ ctx, input }) => deleteAnnotation(ctx.db, ctx.principal, input.project, input.annotationId)),
});
