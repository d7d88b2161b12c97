import type { PrismaClient } from "../generated/prisma/client";
import { ServiceError } from "./errors";
import { webhookTargetProblem } from "./webhook-targets";

/** A project's webhook settings: its URL, and the delivery log of what server/services/webhooks.ts sent. */

/** How many deliveries the delivery log shows. */
export const DELIVERY_LOG_LENGTH = 50;

/** A project's last webhook deliveries, newest first: the delivery log here, the activity panel (job-activity.ts). */
export async function recentDeliveries(db: PrismaClient, projectId: string, take: number) {
  return db.webhookDelivery.findMany({
    where: { projectId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
    select: {
      id: true,
      regressionId: true,
      url: true,
      attempts: true,
      lastStatus: true,
      lastError: true,
      deliveredAt: true,
      createdAt: true,
    },
  });
}

/** The project's webhook URL and its last deliveries, newest first (the delivery log). */
export async function getWebhookSettings(db: PrismaClient, project: { id: string; webhookUrl: string | null }) {
  const deliveries = await recentDeliveries(db, project.id, DELIVERY_LOG_LENGTH);
  return {
    url: project.webhookUrl,
    deliveries: deliveries.map((delivery) => ({
      ...delivery,
      deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
      createdAt: delivery.createdAt.toISOString(),
    })),
  };
}

/**
 * Sets (or, with null, clears) the project's webhook URL. The caller validates its shape (http/https
 * only); here it is refused when it points at this machine or a private network (webhook-targets.ts).
 */
export async function setWebhookUrl(db: PrismaClient, projectId: string, url: string | null) {
  const problem = url === null ? null : await webhookTargetProblem(url);
  if (problem !== null) throw new ServiceError("bad_request", `The webhook URL is refused: ${problem}`, [{ path: "url", message: problem }]);
  return db.project.update({
    where: { id: projectId },
    data: { webhookUrl: url },
    select: { id: true, webhookUrl: true },
  });
}
