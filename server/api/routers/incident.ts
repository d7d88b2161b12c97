import { incidentInboxInputSchema, incidentInputSchema, updateIncidentsInputSchema } from "../../schemas/incidents";
import { publicBaseUrl } from "../../public-url";
import { projectInputSchema } from "../../schemas/projects";
import { countIncidentsByState, getAlertPrecision, getIncident, listIncidents, updateIncidents } from "../../services/incidents";
import { createTRPCRouter, readProcedure, writeProcedure } from "../trpc";

/** Incidents, as GET/PATCH /api/v1/projects/:project/incidents[/:number] and …/incidents/precision. */
export const incidentRouter = createTRPCRouter({
  /** Incidents under a state filter, newest first, each with its regressions and links; and the count of each state. */
  inbox: readProcedure.input(incidentInboxInputSchema).query(async ({ ctx, input }) => {
    const { project, incidents } = await listIncidents(ctx.db, input.project, input.state);
    return {
      project: { slug: project.slug, defaultBranch: project.defaultBranch },
      state: input.state,
      counts: await countIncidentsByState(ctx.db, project.id),
      incidents,
    };
  }),

  /** One incident with its regressions and history. */
  get: readProcedure.input(incidentInputSchema).query(({ ctx, input }) => getIncident(ctx.db, input.project, input.number)),

  /** The same change to one or many incidents (the "triage" action: triagers and up, tokens with the triage scope). */
  update: writeProcedure.input(updateIncidentsInputSchema).mutation(async ({ ctx, input: { project, numbers, by, ...change } }) => {
    const { updates } = await updateIncidents(ctx.db, ctx.principal, project, numbers, change, { viaSession: !ctx.authorization, name: by }, { baseUrl: ctx.baseUrl ?? publicBaseUrl(new Headers()) });
    return { updated: updates.map((update) => ({ number: update.incident.number, from: update.from, to: update.to })) };
  }),

  /** Alert precision: closed incidents, valid against invalid. */
  precision: readProcedure.input(projectInputSchema).query(({ ctx, input }) => getAlertPrecision(ctx.db, input.project)),
});
