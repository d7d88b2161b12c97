"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { STACKED_ROW, Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { WEBHOOK_FORMATS, WEBHOOK_FORMAT_LABELS, type WebhookDigest, type WebhookFormat } from "@/server/domain/webhooks/incident-message";
import { pagePaths } from "@/server/domain/urls";
import { DeliveryPreview } from "./delivery-preview";
import { Problem } from "./problem";

type Settings = RouterOutputs["webhook"]["get"];
type Delivery = Settings["deliveries"][number];

const INPUT = "rounded border border-border bg-surface px-2 py-1 text-sm";
/** The delivery whose message is open (the page's URL holds it, so a link opens it). */
const DELIVERY_PARAM = "delivery";

const FORMAT_HINTS: Record<WebhookFormat, string> = {
  json: "Benchtrack's JSON: the incident as data, with a one-line text Slack or Mattermost can show as is.",
  slack: "A Block Kit message for a Slack incoming webhook: header, summary, the largest changes, buttons.",
  teams: "An Adaptive Card for a Teams Workflows webhook (\"when a Teams webhook request is received\").",
};

/** The events in words (the log's `title` keeps the name the X-Benchtrack-Event header gives). */
const EVENT_LABELS: Record<string, string> = {
  "incident.opened": "opened",
  "incident.state_changed": "state changed",
  "incidents.digest": "daily digest",
  "regression.opened": "regression (before incidents)",
};

/** "2026-11-25 14:02 UTC" */
const time = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

function About({ project, delivery }: { project: string; delivery: Delivery }) {
  if (delivery.incidentNumber !== null) {
    return (
      <a href={pagePaths.incident(project, delivery.incidentNumber)} className="font-medium text-accent hover:underline">
        #{delivery.incidentNumber}
      </a>
    );
  }
  if (delivery.digestDay !== null) return <span>digest {delivery.digestDay}</span>;
  return <span className="text-text-muted">{delivery.regressionId !== null ? "a regression" : "—"}</span>;
}

function Choice<Value extends string>({
  name,
  value,
  options,
  onChange,
}: {
  name: string;
  value: Value;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
}) {
  return (
    <div role="radiogroup" aria-label={name} className="inline-flex flex-wrap overflow-hidden rounded-md border border-border text-sm">
      {options.map((option) => (
        <label
          key={option.value}
          className={cn(
            "cursor-pointer border-border px-3 py-1.5 not-last:border-r has-focus-visible:outline-2 has-focus-visible:outline-accent",
            option.value === value ? "bg-accent font-medium text-accent-text" : "bg-surface hover:bg-surface-muted",
          )}
        >
          <input type="radio" name={name} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} className="sr-only" />
          {option.label}
        </label>
      ))}
    </div>
  );
}

function SecretRow({ project, secret }: { project: string; secret: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation(
    trpc.webhook.rotateSecret.mutationOptions({
      onSuccess: (settings) => {
        queryClient.setQueryData(trpc.webhook.get.queryKey({ project }), settings);
        setConfirming(false);
      },
    }),
  );
  return (
    <div className="space-y-1.5 text-sm" data-testid="webhook-secret">
      <p className="text-xs">signing secret</p>
      {secret === null ? (
        <p className="text-text-muted">Made when a webhook URL is saved.</p>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <code className="break-all rounded bg-surface-muted px-2 py-1 text-xs" data-testid="webhook-secret-value">
            {secret}
          </code>
          <CopyButton text={secret} label="the signing secret" className="text-xs" />
          {confirming ? (
            <>
              <span className="text-xs text-warn">Receivers must switch to the new one at once.</span>
              <button type="button" onClick={() => rotate.mutate({ project })} disabled={rotate.isPending} className="rounded border border-bad px-2 py-0.5 text-xs text-bad disabled:opacity-60">
                Rotate now
              </button>
              <button type="button" onClick={() => setConfirming(false)} className="rounded border border-border px-2 py-0.5 text-xs">
                Keep it
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} className="rounded border border-border px-2 py-0.5 text-xs hover:bg-surface-muted">
              Rotate…
            </button>
          )}
        </div>
      )}
      <p className="text-xs text-text-muted">
        Every call carries <code>X-Benchtrack-Timestamp</code> and <code>X-Benchtrack-Signature: sha256=</code>HMAC-SHA256 of{" "}
        <code>&quot;&lt;timestamp&gt;.&lt;body&gt;&quot;</code> with this secret: docs/notifications.md shows a receiver checking it.
      </p>
      {rotate.error && <Problem error={rotate.error} />}
    </div>
  );
}

function WebhookForm({ project, settings }: { project: string; settings: Settings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(settings.url ?? "");
  const [format, setFormat] = useState<WebhookFormat>(settings.format);
  const [digest, setDigest] = useState<WebhookDigest>(settings.digest);
  const save = useMutation(
    trpc.webhook.update.mutationOptions({ onSuccess: (saved) => queryClient.setQueryData(trpc.webhook.get.queryKey({ project }), saved) }),
  );
  return (
    <div className="space-y-3">
      <label className="flex flex-col gap-1 text-xs">
        webhook URL
        <input
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://hooks.slack.com/services/…"
          className={cn(INPUT, "w-full max-w-2xl")}
          data-testid="webhook-url"
        />
        <span className="text-text-muted">Empty turns notifications off. Loopback and private addresses are refused unless BENCHTRACK_WEBHOOK_ALLOWED_HOSTS allows them.</span>
      </label>
      <div className="space-y-1 text-xs">
        <p>format</p>
        <Choice name="format" value={format} onChange={setFormat} options={WEBHOOK_FORMATS.map((value) => ({ value, label: WEBHOOK_FORMAT_LABELS[value] }))} />
        <p className="text-text-muted">{FORMAT_HINTS[format]}</p>
      </div>
      <div className="space-y-1 text-xs">
        <p>when</p>
        <Choice
          name="when"
          value={digest}
          onChange={setDigest}
          options={[
            { value: "off", label: "At each event" },
            { value: "daily", label: "Daily digest" },
          ]}
        />
        <p className="text-text-muted">
          {digest === "off"
            ? "One message when an incident opens and each time its state changes."
            : "One message a day (07:00 UTC unless BENCHTRACK_DIGEST_CRON says otherwise) with the incidents opened or changed since the last digest (24 hours, or more after a day without one) and the active ones; none on a quiet day."}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={() => save.mutate({ project, url: url.trim() === "" ? null : url.trim(), format, digest })}
          disabled={save.isPending}
          className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text disabled:opacity-60"
        >
          Save webhook
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-good">
            Saved.
          </span>
        )}
      </div>
      {save.error && <Problem error={save.error} />}
    </div>
  );
}

function DeliveryLog({ project, deliveries, open }: { project: string; deliveries: Delivery[]; open: (id: string) => void }) {
  if (deliveries.length === 0) {
    return <p className="text-sm text-text-muted">No delivery yet: the first comes when an incident opens or changes state (or with the first daily digest).</p>;
  }
  return (
    <Table label="Webhook deliveries" stacked>
      <thead>
        <tr>
          <Th>Incident</Th>
          <Th>Event</Th>
          <Th>Format</Th>
          <Th>Target</Th>
          <Th>Result</Th>
          <Th numeric>Attempts</Th>
          <Th>Queued</Th>
          <Th>
            <span className="sr-only">Message</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id} data-testid="delivery-row" className={cn(STACKED_ROW, "max-sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]")}>
            <Td label="Incident">
              <About project={project} delivery={delivery} />
            </Td>
            <Td label="Event" wrap className="text-text-muted">
              <span title={delivery.event}>{EVENT_LABELS[delivery.event] ?? delivery.event}</span>
            </Td>
            <Td label="Format">{WEBHOOK_FORMAT_LABELS[delivery.format]}</Td>
            <Td label="Target" wrap className="break-all text-text-muted">
              {originOf(delivery.url)}
            </Td>
            <Td label="Result" wrap>
              {delivery.deliveredAt ? <Badge tone="good">delivered</Badge> : <span className="text-bad">{delivery.lastError ?? "pending"}</span>}
            </Td>
            <Td label="Attempts" numeric className="max-sm:text-left">
              {delivery.attempts}
            </Td>
            <Td label="Queued" className="text-text-muted">
              {time(delivery.createdAt)}
            </Td>
            <Td>
              <button type="button" onClick={() => open(delivery.id)} className="rounded border border-border px-2 py-0.5 text-xs hover:bg-surface-muted" data-testid="open-delivery">
                View message
              </button>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * The project's webhook (admin): where incident notifications go, in which format, at each event or as a
 * daily digest; the signing secret (shown, rotatable); and the delivery log, each delivery opening a
 * rendered preview of its message beside its body (`?delivery=<id>`).
 */
export function WebhookPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const settings = useQuery(trpc.webhook.get.queryOptions({ project }, { staleTime: 0, retry: false }));
  const opened = searchParams.get(DELIVERY_PARAM);
  const setOpened = (id: string | null) => {
    const params = new URLSearchParams(searchParams);
    if (id === null) params.delete(DELIVERY_PARAM);
    else params.set(DELIVERY_PARAM, id);
    const query = params.toString();
    router.replace(`${pathname}${query ? `?${query}` : ""}${id ? "#webhook-preview" : ""}`, { scroll: false });
  };
  if (settings.error) return <Problem error={settings.error} />;
  if (!settings.data) return <p className="text-sm text-text-muted">Loading…</p>;
  return (
    <div className="space-y-5" data-testid="webhook-panel">
      <WebhookForm project={project} settings={settings.data} />
      <SecretRow project={project} secret={settings.data.secret} />
      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Deliveries</h3>
        <DeliveryLog project={project} deliveries={settings.data.deliveries} open={setOpened} />
        {opened && <DeliveryPreview project={project} id={opened} onClose={() => setOpened(null)} />}
      </div>
    </div>
  );
}
