import { createRunAnnotationInputSchema, deleteAnnotationInputSchema } from "../../schemas/annotations";
import { createAnnotation, deleteAnnotation } from "../../services/trends";
import { createTRPCRouter, writeProcedure } from "../trpc";

/** Notes on runs (the "mark" action: triagers and up), as /api/v1/projects/:project/runs/:id/annotations and …/annotations/:annotationId. */
export const annotationRouter = createTRPCRouter({
  create: writeProcedure
    .input(createRunAnnotationInputSchema)
    .mutation(({ ctx, input: { project, runId, ...annotation } }) => createAnnotation(ctx.db, ctx.principal, project, runId, annotation)),

  delete: writeProcedure
    .input(deleteAnnotationInputSchema)
    .mutation(({ ctx, input }) => deleteAnnotation(ctx.db, ctx.principal, input.project, input.annotationId)),
});
