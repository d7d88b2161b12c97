import { z } from "zod";
import { projectSlugSchema } from "./projects";
import type { SlaGrade } from "../domain/sla/grade";
import { slaPolicySchema } from "../domain/sla/policy";

/** Wire schemas of SLA grades (the policy itself is the domain's slaPolicySchema). */
const checkSchema = z.object({
  targetIndex: z.number().int().describe("Position of the target in the policy."),
  target: slaPolicySchema.shape.targets.element,
  endpoint: z.string().describe('The endpoint, or "(all)" for the aggregate.'),
  value: z.number().nullable().describe("Measured, in `unit`; null when there was no data."),
  threshold: z.number().describe("In `unit` (latency in ms)."),
  unit: z.string().nullable().describe('"ms", "req/s", a custom metric\'s unit; null for the error rate (0..1).'),
  passed: z.boolean().nullable().describe("null: no data (excluded from compliance)."),
  headroom: z
    .object({ ratio: z.number().nullable().describe("Bigger is safer; > 1 inside the target."), label: z.string() })
    .nullable(),
  noDataReason: z.string().nullable(),
});

const details = {
  version: z.number().int(),
  checks: z.array(checkSchema).describe("Every check, the limiting one first."),
  passed: z.number().int(),
  evaluated: z.number().int(),
  noData: z.number().int(),
  endpointsCompliant: z.number().int(),
  endpointsEvaluated: z.number().int(),
  byEndpoint: z.array(
    z.object({
      endpoint: z.string(),
      passed: z.number().int(),
      evaluated: z.number().int(),
      isCompliant: z.boolean().nullable(),
    }),
  ),
  notes: z.array(z.string()),
};

export const gradeSchema = z
  .discriminatedUnion("status", [
    z.object({
      status: z.literal("graded"),
      letter: z.enum(["A", "B", "C", "D", "F"]),
      score: z.number().describe("Compliance × 100."),
      compliance: z.number().describe("Weighted passed / weighted evaluated checks, 0..1."),
      ...details,
    }),
    z.object({
      status: z.literal("no-data"),
      letter: z.null(),
      score: z.null(),
      compliance: z.null(),
      reason: z.string().describe("Why no check had data."),
      ...details,
    }),
  ])
  .nullable()
  .describe("SLA grade against the project's current policy; null when the project has no SLA.");

// Compile-time link between the domain's grade and this schema.
type Assert<T extends true> = T;
export type GradeShapeMatches = Assert<SlaGrade extends NonNullable<z.infer<typeof gradeSchema>> ? true : false>;

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

export const putSlaPolicyInputSchema = slaPolicySchema.extend({ project: projectSlugSchema });
