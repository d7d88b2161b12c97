import { projectInputSchema } from "../../schemas/projects";
import { updateWebhookInputSchema, webhookDeliveryInputSchema } from "../../schemas/webhooks";
import { getProjectWebhook, getWebhookDelivery, rotateWebhookSecret, updateWebhookSettings } from "../../services/notifications";
import { createTRPCRouter, writeProcedure } from "../trpc";

/** The project's webhook (its maintainers: its URL and secret are secrets), as GET/PUT /api/v1/projects/:project/webhook. */
export const webhookRouter = createTRPCRouter({
  /** URL, format, digest, signing secret and the last 50 deliveries. */
  get: writeProcedure.input(projectInputSchema).query(({ ctx, input }) => getProjectWebhook(ctx.db, ctx.principal, input.project)),

  /** Changes the URL (null: off), format or digest; fields left out stay. */
  update: writeProcedure
    .input(updateWebhookInputSchema)
    .mutation(({ ctx, input: { project, ...changes } }) => updateWebhookSettings(ctx.db, ctx.principal, project, changes)),

  /** A new signing secret (the old one stops working at once). */
  rotateSecret: writeProcedure.input(projectInputSchema).mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.principal, input.project)),

  /** One delivery with the body it sent (the preview). */
  delivery: writeProcedure.input(webhookDeliveryInputSchema).query(({ ctx, input }) => getWebhookDelivery(ctx.db, ctx.principal, input.project, input.id)),
});
