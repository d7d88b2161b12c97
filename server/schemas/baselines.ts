import { z } from "zod";
import { projectInputSchema, projectSlugSchema } from "./projects";

/** Wire schemas of pinned baselines. */
export const baselinePinSchema = z
  .object({
    forLabel: z.string().min(1).max(1024).nullable().default(null).describe("The runs this baseline is for (their label); null: every label."),
    runIds: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)).min(1).max(50).optional().describe("Pin these runs."),
    label: z.string().min(1).max(1024).optional().describe("Pin the newest runs of this label on the default branch."),
  })
  .refine((pin) => (pin.runIds === undefined) !== (pin.label === undefined), {
    message: 'give either "runIds" or "label"',
    path: ["runIds"],
  })
  .describe("A pinned baseline.");

// ---- Answers ----

export const pinnedBaselineSchema = z
  .object({
    id: z.string(),
    forLabel: z.string().nullable().describe("The label it is the baseline of; null: every label."),
    runIds: z.array(z.string()).describe("The pinned runs (empty when a label is pinned)."),
    baselineLabel: z.string().nullable().describe("The pinned label (its newest runs on the default branch); null when runs are pinned."),
    createdAt: z.iso.datetime(),
  })
  .describe("A pinned baseline.");

export const baselineListSchema = z
  .object({
    defaultBranch: z.string().describe("Without a pin, runs are compared with their label's recent runs on this branch."),
    pins: z.array(pinnedBaselineSchema).describe("Newest first."),
  })
  .describe("The project's pinned baselines.");

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

export const pinBaselineInputSchema = baselinePinSchema.safeExtend({ project: projectSlugSchema });

/** `forLabel` null: the pin for every label. */
export const unpinBaselineInputSchema = projectInputSchema.extend({ forLabel: z.string().min(1).nullable().default(null) });
