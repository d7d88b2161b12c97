import { z } from "zod";

/** Wire schemas of run annotations. */

export const ANNOTATION_MAX_CHARS = 500;

export const createAnnotationSchema = z
  .object({
    text: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(ANNOTATION_MAX_CHARS)
      .describe('The note, e.g. "deployed v2.3" (1 to 500 characters, trimmed). Shown as plain text.'),
  })
  .strict()
  .describe("A new annotation on a run (admin).");

export type CreateAnnotationInput = z.infer<typeof createAnnotationSchema>;

export const annotationSchema = z
  .object({
    id: z.string(),
    runId: z.string(),
    text: z.string(),
    createdAt: z.iso.datetime(),
  })
  .describe("A note on a run, shown on every chart that includes the run.");

export const annotationListSchema = z.object({
  annotations: z.array(annotationSchema).describe("Oldest first."),
});

/** An annotation as the API shows it. */
export function toAnnotationJson(annotation: { id: string; runId: string; text: string; createdAt: Date }) {
  return {
    id: annotation.id,
    runId: annotation.runId,
    text: annotation.text,
    createdAt: annotation.createdAt.toISOString(),
  };
}
