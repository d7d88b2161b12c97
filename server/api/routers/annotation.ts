import { createRunAnnotationInputSchema, deleteAnnotationInputSchema } from "../../schemas/annotations";
import { createAnnotation, deleteAnnotation } from "../../services/trends";
import { adminProcedure, createTRPCRouter } from "../trpc";

/** Notes on runs (admin), as /api/v1/projects/:project/runs/:id/annotations and …/annotations/:annotationId. */
export const annotationRouter = createTRPCRouter({
  create: adminProcedure
    .input(createRunAnnotationInputSchema)
    .mutation(({ ctx, input: { project, runId, ...annotation } }) => createAnnotation(ctx.db, ctx.principal, project, runId, annotation)),

  delete: adminProcedure
    .input(deleteAnnotationInputSchema)
    .mutation(({ ctx, input }) => deleteAnnotation(ctx.db, ctx.principal, input.project, input.annotationId)),
});
