"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CopyButton } from "@/components/ui/copy-button";
import { WEBHOOK_FORMAT_LABELS } from "@/server/domain/webhooks/incident-message";
import { slackMessageSchema, teamsMessageSchema } from "@/server/schemas/webhooks";
import { Problem } from "./problem";
import { Mrkdwn, SlackPreview } from "./slack-preview";
import { TeamsPreview } from "./teams-preview";

/** "2026-11-25 14:02:11 UTC" */
const time = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

/** The `text` of a JSON body (Slack-compatible mrkdwn), if it has one. */
function textOf(payload: unknown): string | null {
  return typeof payload === "object" && payload !== null && "text" in payload && typeof payload.text === "string" ? payload.text : null;
}

/**
 * One delivery, opened from the log: the message rendered as its receiver shows it (Slack, Teams) or,
 * for JSON, its Slack-compatible `text` as Slack shows it; beside it the body, pretty-printed (the copy
 * button copies it as sent). A body that does not read as its format shows as JSON.
 */
export function DeliveryPreview({ project, id, onClose }: { project: string; id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const delivery = useQuery(trpc.webhook.delivery.queryOptions({ project, id }, { staleTime: 0, retry: false }));
  if (delivery.error) return <Problem error={delivery.error} />;
  if (!delivery.data) return <p className="text-sm text-text-muted">Loading the delivery…</p>;
  const row = delivery.data;
  // Exactly the bytes sent (and signed), and the same for reading.
  const sent = JSON.stringify(row.payload);
  const pretty = JSON.stringify(row.payload, null, 2);
  const slack = row.format === "slack" ? slackMessageSchema.safeParse(row.payload) : null;
  const teams = row.format === "teams" ? teamsMessageSchema.safeParse(row.payload) : null;
  const about =
    row.incidentNumber !== null ? `incident #${row.incidentNumber}` : row.digestDay !== null ? `the digest of ${row.digestDay}` : row.regressionId !== null ? "a regression" : "a deleted incident";

  return (
    <section id="webhook-preview" aria-label="Webhook delivery preview" className="space-y-3 rounded-lg border border-border p-3" data-testid="delivery-preview">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h4 className="text-sm font-semibold">
            {row.event} · {about} · {WEBHOOK_FORMAT_LABELS[row.format]}
          </h4>
          <p className="text-xs text-text-muted">
            Queued {time(row.createdAt)} · {row.attempts} attempt{row.attempts === 1 ? "" : "s"} ·{" "}
            {row.deliveredAt ? `delivered ${time(row.deliveredAt)}` : (row.lastError ?? "not sent yet")}
          </p>
        </div>
        <button type="button" onClick={onClose} className="rounded border border-border px-2 py-0.5 text-xs hover:bg-surface-muted">
          Close
        </button>
      </header>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-1">
          <h5 className="text-xs font-semibold text-text-muted uppercase">
            {slack?.success ? "As Slack shows it" : teams?.success ? "As Teams shows it" : "What Slack or Mattermost shows of it (text)"}
          </h5>
          {slack?.success ? (
            <SlackPreview message={slack.data} at={row.createdAt} />
          ) : teams?.success ? (
            <TeamsPreview message={teams.data} at={row.createdAt} />
          ) : (
            <div className="rounded-lg border border-border bg-surface p-3 text-[15px]" data-testid="json-text-preview">
              {textOf(row.payload) === null ? <p className="text-sm text-text-muted">This body has no text field.</p> : <Mrkdwn text={textOf(row.payload)!} />}
            </div>
          )}
        </div>
        <div className="min-w-0 space-y-1">
          <div className="flex items-center justify-between gap-2">
            <h5 className="text-xs font-semibold text-text-muted uppercase">The body (pretty-printed; sent on one line, signed)</h5>
            <CopyButton text={sent} label="the webhook body as sent" className="text-xs" />
          </div>
          <pre className="max-h-[36rem] overflow-auto rounded-lg border border-border bg-surface-muted p-3 font-mono text-xs leading-relaxed" data-testid="raw-body">
            {pretty}
          </pre>
        </div>
      </div>
    </section>
  );
}
