import { z } from "zod";
import { projectInputSchema, projectSlugSchema } from "./projects";

/** Wire schemas of annotations: notes on runs, and markers at a time or on a run (deploys, changes). */

export const ANNOTATION_MAX_CHARS = 500;
export const ANNOTATION_KINDS = ["note", "deploy", "change"] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];
/** How many markers one GET lists at most (newest kept). */
export const ANNOTATION_LIST_LIMIT = 500;

const textSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(ANNOTATION_MAX_CHARS)
  .describe('The note, e.g. "deployed v2.3" (1 to 500 characters, trimmed). Shown as plain text.');

const kindSchema = z
  .enum(ANNOTATION_KINDS)
  .default("note")
  .describe(
    '"note" (the default), "deploy", or "change": a known change of the system or its load (config, hardware) that starts a new regime; change-point detection never looks across it, so it is not reported as a regression.',
  );

export const createAnnotationSchema = z
  .object({ text: textSchema, kind: kindSchema })
  .strict()
  .describe("A new annotation on a run (admin).");

export const createMarkerSchema = z
  .object({
    text: textSchema,
    kind: kindSchema,
    runId: z.string().min(1).max(64).optional().describe("The run it marks (its id); or give `at`."),
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("When it happened (ISO 8601), for a marker between runs (a deploy); or give `runId`."),
  })
  .strict()
  .refine((marker) => (marker.runId === undefined) !== (marker.at === undefined), {
    message: "give exactly one of runId and at",
    path: ["at"],
  })
  .describe("A marker of the project (admin or the project's token): on a run, or at a time.");

export const annotationSchema = z
  .object({
    id: z.string(),
    runId: z.string().nullable().describe("The run it is on; null for a marker at a time."),
    at: z.iso.datetime().describe("When: the run's start, or the time given."),
    kind: z.enum(ANNOTATION_KINDS),
    text: z.string(),
    createdAt: z.iso.datetime(),
  })
  .describe("A note or marker, shown on every trend chart whose history includes its time.");

export const annotationListSchema = z.object({
  annotations: z.array(annotationSchema).describe("Oldest first."),
});

/** `GET …/annotations?from=&to=&kind=`: a window of the project's markers. */
export const annotationQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }).optional().describe("Only markers at or after this time."),
    to: z.iso.datetime({ offset: true }).optional().describe("Only markers before this time."),
    kind: z.enum(ANNOTATION_KINDS).optional(),
  })
  .strict();

export type AnnotationQuery = z.infer<typeof annotationQuerySchema>;

/** An annotation as the API shows it. */
export function toAnnotationJson(annotation: {
  id: string;
  runId: string | null;
  at: Date;
  kind: AnnotationKind;
  text: string;
  createdAt: Date;
}) {
  return {
    id: annotation.id,
    runId: annotation.runId,
    at: annotation.at.toISOString(),
    kind: annotation.kind,
    text: annotation.text,
    createdAt: annotation.createdAt.toISOString(),
  };
}

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

export const createRunAnnotationInputSchema = createAnnotationSchema.extend({ project: projectSlugSchema, runId: z.string().min(1) });

export const deleteAnnotationInputSchema = projectInputSchema.extend({ annotationId: z.string().min(1) });
