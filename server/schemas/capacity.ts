import { z } from "zod";
import { LOAD_LEVEL_KEYS } from "../domain/capacity/load-level";
import { projectSlugSchema } from "./projects";

/** Wire schemas of the capacity page: which endpoint's series, and which runs on each side. */
export const capacityInputSchema = z.object({
  project: projectSlugSchema,
  /** The endpoint's name, decoded from the URL; "_all" is the run aggregate. */
  endpoint: z.string().min(1).max(2048),
  /** The endpoint's protocol (part of its identity); null: the one of that name, or the latest measured. */
  protocol: z.string().min(1).max(200).nullable().default(null),
  /** The series' tool; null: the newest series with 3 or more load levels, else the newest. */
  tool: z.string().min(1).max(200).nullable().default(null),
  /** The series' label; absent: the default for the tool; null: runs without a label. */
  label: z.string().min(1).max(1024).nullable().optional(),
  /** Run selectors as typed (`branch:main`, `label:v2`, `commit:9f1c`, run ids); the service parses them. */
  base: z.string().max(4096).nullable().default(null),
  head: z.string().max(4096).nullable().default(null),
  /** The load-level key; null: the one the runs vary. */
  load: z.enum(LOAD_LEVEL_KEYS).nullable().default(null),
});

export type CapacityInput = z.input<typeof capacityInputSchema>;
