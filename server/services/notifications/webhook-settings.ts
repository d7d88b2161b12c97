import { randomBytes } from "node:crypto";
import type { WebhookDigest, WebhookFormat } from "../../domain/webhooks/incident-message";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { ServiceError, notFound } from "../platform";
import { requireProject } from "../projects";
import { actorOf, recordAudit } from "../audit";
import { webhookTargetProblem } from "./webhook-targets";
import { changedFields } from "../../domain/audit/actions";

/**
 * A project's webhook settings (docs/notifications.md): its URL, the body's format, per event or a daily
 * digest, the signing secret, and the delivery log of what server/services/notifications/webhooks.ts sent. The project's
 * maintainers' only ("manage": docs/access.md), whichever transport asks (REST GET/PUT …/webhook, the Settings page over tRPC): the URL and the
 * secret are both secrets.
 */

/** How many deliveries the delivery log shows. */
export const DELIVERY_LOG_LENGTH = 50;

const DELIVERY_SELECT = {
  id: true,
  event: true,
  format: true,
  incidentId: true,
  regressionId: true,
  digestDay: true,
  url: true,
  attempts: true,
  lastStatus: true,
  lastError: true,
  deliveredAt: true,
  createdAt: true,
  incident: { select: { number: true } },
} as const;

type DeliveryRow = { incident: { number: number } | null; deliveredAt: Date | null; createdAt: Date };

function deliveryJson<Row extends DeliveryRow>({ incident, ...delivery }: Row) {
  return {
    ...delivery,
    incidentNumber: incident?.number ?? null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
  };
}

/** A project's last webhook deliveries, newest first. */
export async function recentDeliveries(db: PrismaClient, projectId: string, take: number) {
  const rows = await db.webhookDelivery.findMany({
    where: { projectId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
    select: DELIVERY_SELECT,
  });
  return rows.map(deliveryJson);
}

interface WebhookProject {
  id: string;
  webhookUrl: string | null;
  webhookFormat: WebhookFormat;
  webhookDigest: WebhookDigest;
  webhookSecret: string | null;
}

/** The project's webhook (URL, format, digest, secret) and its last deliveries, newest first (the delivery log). */
export async function getWebhookSettings(db: PrismaClient, project: WebhookProject) {
  return {
    url: project.webhookUrl,
    format: project.webhookFormat,
    digest: project.webhookDigest,
    secret: project.webhookSecret,
    deliveries: await recentDeliveries(db, project.id, DELIVERY_LOG_LENGTH),
  };
}

/** The same, by the project's slug. */
export async function getProjectWebhook(db: PrismaClient, principal: Principal, slug: string) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  return getWebhookSettings(db, project);
}

/** A new signing secret: "whsec_" and 32 random bytes in hex. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("hex")}`;
}

export interface WebhookChanges {
  /** null turns webhooks off. */
  url?: string | null | undefined;
  format?: WebhookFormat | undefined;
  digest?: WebhookDigest | undefined;
  /** The admin's own secret; left out, one is made when a webhook is first set. */
  secret?: string | undefined;
}

/**
 * Changes the project's webhook; fields left out stay as they are. The caller validates their shapes
 * (server/schemas/webhooks.ts); here a URL is refused when it points at this machine or a private network
 * (webhook-targets.ts). A webhook set without a secret gets one, so every call is signed.
 */
export async function updateWebhookSettings(db: PrismaClient, principal: Principal, slug: string, changes: WebhookChanges) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const problem = changes.url ? await webhookTargetProblem(changes.url) : null;
  if (problem !== null) throw new ServiceError("bad_request", `The webhook URL is refused: ${problem}`, [{ path: "url", message: problem }]);
  const url = changes.url === undefined ? project.webhookUrl : changes.url;
  const secret = changes.secret ?? project.webhookSecret ?? (url !== null ? generateWebhookSecret() : null);
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.project.update({
      where: { id: project.id },
      data: {
        ...(changes.url !== undefined && { webhookUrl: changes.url }),
        ...(changes.format !== undefined && { webhookFormat: changes.format }),
        ...(changes.digest !== undefined && { webhookDigest: changes.digest }),
        webhookSecret: secret,
      },
    });
    const change = changedFields(
      { url: urlForAudit(project.webhookUrl), format: project.webhookFormat, digest: project.webhookDigest },
      { url: changes.url === undefined ? undefined : urlForAudit(changes.url), format: changes.format, digest: changes.digest },
    );
    // The secret is never written down: only that it changed.
    const secretChanged = secret !== project.webhookSecret;
    if (change !== null || secretChanged) {
      await recordAudit(tx, {
        ...actorOf(principal),
        action: "webhook.update",
        projectSlug: project.slug,
        targetId: project.id,
        detail: { ...(change ?? { from: {}, to: {} }), ...(secretChanged && { secret: project.webhookSecret === null ? "made" : "rotated" }) },
      });
    }
    return row;
  });
  return getWebhookSettings(db, updated);
}

/**
 * A new signing secret for the project (the old one stops working at once: calls still being retried are
 * signed with the new one).
 */
export async function rotateWebhookSecret(db: PrismaClient, principal: Principal, slug: string) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.project.update({ where: { id: project.id }, data: { webhookSecret: generateWebhookSecret() } });
    await recordAudit(tx, { ...actorOf(principal), action: "webhook.rotate", projectSlug: project.slug, targetId: project.id, detail: { secret: "rotated" } });
    return row;
  });
  return getWebhookSettings(db, updated);
}

/**
 * A webhook URL as the audit log keeps it: its origin only. Chat webhooks (Slack, Teams) carry their
 * credential in the path, and the log outlives the URL.
 */
function urlForAudit(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.pathname === "/" && !parsed.search ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return "(not a URL)";
  }
}

/** One delivery of the project, with the body it sent (the Settings page's preview); not found unless it is the project's. */
export async function getWebhookDelivery(db: PrismaClient, principal: Principal, slug: string, deliveryId: string) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, projectId: project.id },
    select: { ...DELIVERY_SELECT, payload: true },
  });
  if (!row) throw notFound(`Webhook delivery "${deliveryId}" of project "${slug}"`);
  return deliveryJson(row);
}
