import { projectInputSchema } from "../../schemas/projects";
import { updateWebhookInputSchema, webhookDeliveryInputSchema } from "../../schemas/webhooks";
import { getProjectWebhook, getWebhookDelivery, rotateWebhookSecret, updateWebhookSettings } from "../../services/notifications";
import { adminProcedure, createTRPCRouter } from "../trpc";

/** The project's webhook (admin: its URL and secret are secrets), as GET/PUT /api/v1/projects/:project/webhook. */
export const webhookRouter = createTRPCRouter({
  /** URL, format, digest, signing secret and the last 50 deliveries. */
  get: adminProcedure.input(projectInputSchema).query(({ ctx, input }) => getProjectWebhook(ctx.db, input.project)),

  /** Changes the URL (null: off), format or digest; fields left out stay. */
  update: adminProcedure
    .input(updateWebhookInputSchema)
    .mutation(({ ctx, input: { project, ...changes } }) => updateWebhookSettings(ctx.db, ctx.principal, project, changes)),

  /** A new signing secret (the old one stops working at once). */
  rotateSecret: adminProcedure.input(projectInputSchema).mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.principal, input.project)),

  /** One delivery with the body it sent (the preview). */
  delivery: adminProcedure.input(webhookDeliveryInputSchema).query(({ ctx, input }) => getWebhookDelivery(ctx.db, input.project, input.id)),
});
