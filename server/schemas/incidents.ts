import { z } from "zod";
import { decimalIntegerSchema } from "./integers";
import { INCIDENT_STATES } from "../domain/incidents/state";
import { projectInputSchema, projectSlugSchema } from "./projects";
import { regressionSchema } from "./regressions";

/** Wire schemas of incidents (docs/incidents.md): filters, changes (one or many), answers, alert precision. */

export const incidentStateSchema = z
  .enum(INCIDENT_STATES)
  .describe(
    "open: not looked at; investigating: someone is on it; fixed / backed_out: undone, the series should come back; accepted: the new normal (the gate's baseline moves to it); invalid: noise.",
  );

export const incidentFilterSchema = z.union([incidentStateSchema, z.enum(["active", "closed", "all"])]);

export const incidentsQuerySchema = z.object({
  state: incidentFilterSchema
    .default("active")
    .describe("A state, `active` (open or investigating, the default), `closed`, or `all`."),
});

export const incidentNumberSchema = decimalIntegerSchema({ min: 1, max: 2_147_483_647 });
/** An incident's path parameters: its number as the path spells it (a 400 naming `number` otherwise). */
export const incidentPathSchema = z.object({ number: incidentNumberSchema });

const linkSchema = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).max(1024);

const incidentChangeFields = {
  state: incidentStateSchema.optional(),
  note: z.string().trim().max(4000).nullable().optional().describe("The incident's note (replaces the last one); null clears it."),
  links: z.array(linkSchema).max(20).optional().describe("Pull requests, commits, issues (replaces the list)."),
  by: z.string().trim().min(1).max(200).optional().describe("Your name, kept beside the token or session that made the change."),
};

const hasSomeChange = (change: { state?: unknown; note?: unknown; links?: unknown }) =>
  change.state !== undefined || change.note !== undefined || change.links !== undefined;
const NOTHING_TO_CHANGE = { message: "Nothing to change: give a state, a note or links.", path: ["state"] };

export const updateIncidentSchema = z
  .object(incidentChangeFields)
  .strict()
  .refine(hasSomeChange, NOTHING_TO_CHANGE)
  .describe("An incident's new state, note or links.");

export const bulkUpdateIncidentsSchema = z
  .object({
    numbers: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(200).describe("The incidents' numbers (at most 200)."),
    ...incidentChangeFields,
  })
  .strict()
  .refine(hasSomeChange, NOTHING_TO_CHANGE)
  .describe("The same change to many incidents at once (all or nothing).");

// ---- Answers ----

export const incidentEventSchema = z.object({
  at: z.iso.datetime(),
  by: z.string().describe('"detector", or who: "admin session", "project token ci", with the name they gave.'),
  from: incidentStateSchema.nullable(),
  to: incidentStateSchema.nullable(),
  note: z.string().nullable(),
  summary: z.string().nullable().describe('"Open → Accepted", "Opened"; null for a note or links edit.'),
});

export const incidentSchema = z
  .object({
    id: z.string(),
    number: z.number().int().describe("Its number within the project."),
    state: incidentStateSchema,
    note: z.string().nullable(),
    links: z.array(z.string()),
    detectorVersion: z.number().int().describe("The change-point detector version that opened it."),
    stateChangedAt: z.iso.datetime().nullable(),
    stateChangedBy: z.string().nullable(),
    closedAt: z.iso.datetime().nullable().describe("When it was fixed, backed out, accepted or marked invalid."),
    createdAt: z.iso.datetime(),
    firstRun: z.object({
      id: z.string(),
      label: z.string().nullable(),
      round: z.number().int().nullable(),
      startedAt: z.iso.datetime(),
      gitCommit: z.string().nullable(),
      gitBranch: z.string().nullable(),
      tool: z.string(),
      testbed: z.string().nullable(),
    }),
    endpoints: z.array(z.string().nullable()).describe("Endpoints it moved (null: the aggregate)."),
    returned: z
      .object({ count: z.number().int(), of: z.number().int() })
      .describe("How many of its regressions' series came back (a later change the other way)."),
    url: z.url().describe("Its page."),
    compareUrl: z.url().nullable().describe("The runs before the step vs after it, for its largest regression."),
    regressions: z.array(regressionSchema.extend({ returnRunId: z.string().nullable().describe("The run its series came back at.") })),
    events: z.array(incidentEventSchema).optional().describe("Its history, oldest first (one incident's answer only)."),
  })
  .describe("The regressions one step opened at one run, triaged as one.");

export const incidentListSchema = z.array(incidentSchema).describe("Newest first.");

const precisionCountsSchema = z.object({
  closed: z.number().int(),
  valid: z.number().int().describe("Closed as fixed, backed out or accepted: a real change."),
  invalid: z.number().int().describe("Closed as invalid: noise."),
  precision: z.number().nullable().describe("valid / closed; null with none closed."),
  interval: z.object({ low: z.number(), high: z.number() }).nullable().describe("95% Wilson interval of the precision."),
});

export const alertPrecisionSchema = precisionCountsSchema
  .extend({
    active: z.number().int().describe("Open or investigating: not counted yet."),
    reason: z.string().nullable().describe("Why precision is null."),
    byDetectorVersion: z.array(precisionCountsSchema.extend({ detectorVersion: z.number().int() })),
    byMonth: z.array(precisionCountsSchema.extend({ month: z.string().describe('"2026-11": the month they were closed.') })),
  })
  .describe("How many alerts were real: the project's closed incidents, valid against invalid.");

// ---- Dashboard (tRPC) inputs ----

export const incidentInboxInputSchema = projectInputSchema.extend({ state: incidentFilterSchema.default("active") });
export const incidentInputSchema = projectInputSchema.extend({ number: z.number().int().min(1).max(2_147_483_647) });
export const updateIncidentsInputSchema = z
  .object({ project: projectSlugSchema, numbers: bulkUpdateIncidentsSchema.shape.numbers, ...incidentChangeFields })
  .refine(hasSomeChange, NOTHING_TO_CHANGE);
