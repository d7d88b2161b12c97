import type { AuditAction } from "./actions";
import { AUDIT_ACTIONS, AUDIT_ACTION_WORDS } from "./actions";

/**
 * An audit entry in readable form, for Settings' audit panel: a headline ("changed settings"), each
 * changed field as `name: from → to`, and the other facts of its detail ("3 runs", "scopes: upload, read").
 * Pure; what the detail holds is written by the services (server/services/audit).
 */

export interface AuditEntryLike {
  action: string;
  targetId: string | null;
  detail: Record<string, unknown>;
}

export interface FieldChangeLine {
  field: string;
  from: string;
  to: string;
}

export interface DescribedEntry {
  headline: string;
  changes: FieldChangeLine[];
  facts: string[];
}

/** Field names as people say them (anything else: camelCase split into words). */
const FIELD_WORDS: Record<string, string> = {
  defaultBranch: "default branch",
  repoUrl: "repository",
  minEffectPct: "minimum effect %",
  alpha: "significance level",
  gateMetric: "gate metric",
  failOn: "fail on",
  rawRetentionDays: "raw upload retention (days)",
  retentionDays: "run retention (days)",
  retentionKeepRuns: "runs kept per series",
  url: "URL",
  webhookUrl: "webhook URL",
  webhookFormat: "webhook format",
  webhookDigest: "webhook digest",
  forLabel: "for label",
  runIds: "runs",
  expiresAt: "expires",
};

export function fieldWords(field: string): string {
  return FIELD_WORDS[field] ?? field.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A value in a few words: null and empty as "none", lists joined, objects as short JSON, long text cut. */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map((item) => valueWords(item)).join(", ");
  if (isSlaTarget(value)) return `${value.metric} ${value.op} ${value.threshold}${value.unit ? ` ${value.unit}` : ""}`;
  if (typeof value === "object") return clip(JSON.stringify(value));
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return clip(value);
  return clip(JSON.stringify(value) ?? "none");
}

/** An SLA target as a policy stores it: said as people write it ("p95 <= 250 ms"). */
function isSlaTarget(value: unknown): value is { metric: string; op: string; threshold: number; unit?: string | null } {
  return isRecord(value) && typeof value.metric === "string" && typeof value.op === "string" && typeof value.threshold === "number";
}

function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isAuditAction(action: string): action is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(action);
}

/** The entry's headline, changed fields and other facts. */
export function describeAuditEntry(entry: AuditEntryLike): DescribedEntry {
  const headline = isAuditAction(entry.action) ? AUDIT_ACTION_WORDS[entry.action] : entry.action;
  const { from, to, ...rest } = entry.detail;
  const changes: FieldChangeLine[] = [];
  if (isRecord(to)) {
    const before = isRecord(from) ? from : {};
    for (const field of Object.keys(to)) changes.push({ field: fieldWords(field), from: valueWords(before[field]), to: valueWords(to[field]) });
  } else if (to !== undefined || from !== undefined) {
    // A visibility of null is the server's default, not "none".
    const words = (value: unknown) => (entry.action === "project.visibility" && value === null ? "server default" : valueWords(value));
    changes.push({ field: entry.action === "project.visibility" ? "visibility" : "state", from: words(from), to: words(to) });
  }
  const facts: string[] = [];
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    // A field's own change ({ role: { from, to } }): a change line, as the top-level from → to.
    if (isRecord(value) && ("from" in value || "to" in value) && Object.keys(value).every((part) => part === "from" || part === "to")) {
      changes.push({ field: fieldWords(key), from: valueWords(value.from), to: valueWords(value.to) });
      continue;
    }
    // An incident's number leads ("#3"); other numbers are counts ("12 results"), none when zero.
    if (key === "number" && typeof value === "number") facts.unshift(`#${value}`);
    else if (typeof value === "number") {
      if (value !== 0) facts.push(`${value} ${value === 1 ? fieldWords(key).replace(/s$/, "") : fieldWords(key)}`);
    } else facts.push(`${fieldWords(key)}: ${valueWords(value)}`);
  }
  return { headline, changes, facts };
}
