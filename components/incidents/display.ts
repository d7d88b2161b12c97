import { formatRunTime } from "@/components/history/run-time";
import { formatDeltaPct } from "@/server/domain/format";
import {
  ACTIVE_STATES,
  INCIDENT_STATES,
  INCIDENT_STATE_LABELS,
  INCIDENT_STATE_MEANINGS,
  describeStateChange,
  type IncidentState,
} from "@/server/domain/incidents/state";
import { metricDefinition } from "@/server/domain/metrics";
import { formatResultMetric, metricShortName, resultDisplayName, resultKindOf } from "@/server/domain/result-kind";
import { safeHttpUrl } from "@/server/domain/urls";

/**
 * What the incidents inbox and an incident's page say, shaped from what the server stored: filter tabs
 * and their counts, a row's summary (what moved, the largest change), the triage actions and what each
 * does to the gate (domain/incidents/state.ts), whether a fixed step's series came back, link labels.
 * Pure and tested (display.test.ts); the components only lay it out.
 */

// ---- Filters ----

/** The inbox's filters, in the URL as `?state=`: the active ones (open or investigating, the default), each state, all. */
export const INBOX_FILTERS = ["active", ...INCIDENT_STATES, "all"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** A filter from the URL; anything else (missing, unknown, the old `?status=` words) reads as the default. */
export function parseInboxFilter(value: string | null | undefined): InboxFilter {
  return INBOX_FILTERS.find((filter) => filter === value) ?? "active";
}

export interface FilterTab {
  filter: InboxFilter;
  label: string;
  count: number;
}

/** One tab per filter, with how many incidents it holds (the counts of each state, as stored). */
export function inboxFilterTabs(counts: Readonly<Record<IncidentState, number>>): FilterTab[] {
  const sum = (states: readonly IncidentState[]) => states.reduce((total, state) => total + counts[state], 0);
  return [
    { filter: "active", label: "Active", count: sum(ACTIVE_STATES) },
    ...INCIDENT_STATES.map((state) => ({ filter: state, label: INCIDENT_STATE_LABELS[state], count: counts[state] })),
    { filter: "all", label: "All", count: sum(INCIDENT_STATES) },
  ];
}

// ---- Triage ----

export interface TriageAction {
  /** The state it moves incidents to. */
  state: IncidentState;
  /** The button's words. */
  label: string;
  /** What it does to the CI gate, in one sentence (INCIDENT_STATE_MEANINGS). */
  meaning: string;
  /** The question it asks before it does it, `{}` standing for the incidents ("Accept #3 as the new normal?"). */
  question: string;
}

/** The triage actions, in the order a team usually takes them; Reopen last. */
export const TRIAGE_ACTIONS: readonly TriageAction[] = (
  [
    { state: "investigating", label: "Acknowledge", question: "Acknowledge {}?" },
    { state: "fixed", label: "Fixed", question: "Mark {} fixed?" },
    { state: "backed_out", label: "Backed out", question: "Mark {} backed out?" },
    { state: "accepted", label: "Accept as the new normal", question: "Accept {} as the new normal?" },
    { state: "invalid", label: "Invalid (noise)", question: "Mark {} invalid (noise)?" },
    { state: "open", label: "Reopen", question: "Reopen {}?" },
  ] as const
).map((action) => ({ ...action, meaning: INCIDENT_STATE_MEANINGS[action.state] }));

/** Incident numbers as a sentence names them: "#3", "#3 and #4", "#3, #4 and #7"; more than four as "12 incidents". */
export function listIncidentNumbers(numbers: readonly number[]): string {
  if (numbers.length > 4) return `${numbers.length} incidents`;
  const named = numbers.map((number) => `#${number}`);
  return named.length <= 1 ? (named[0] ?? "no incident") : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

/** The action's question for these incidents. */
export function triageQuestion(action: TriageAction, numbers: readonly number[]): string {
  return action.question.replace("{}", listIncidentNumbers(numbers));
}

/** What happened, once done: "#3 and #4: Investigating." */
export function triageDone(numbers: readonly number[], state: IncidentState): string {
  return `${listIncidentNumbers(numbers)}: ${INCIDENT_STATE_LABELS[state]}.`;
}

/** A badge's tone for a state: red until someone looks, amber while they do, green once undone, accent when accepted. */
export function stateTone(state: IncidentState): "bad" | "warn" | "good" | "accent" | "neutral" {
  switch (state) {
    case "open":
      return "bad";
    case "investigating":
      return "warn";
    case "fixed":
    case "backed_out":
      return "good";
    case "accepted":
      return "accent";
    case "invalid":
      return "neutral";
  }
}

// ---- Rows ----

/** A regression as the incident views carry it (the fields shaping reads). */
export interface RegressionLike {
  metric: string;
  beforeValue: number;
  afterValue: number;
  deltaPct: number;
  endpoint: { name: string; protocol: string | null } | null;
}

/** A regression's series in words: "GetListing" and "p95" ("All endpoints", "p95 time/op" as the kind reads them). */
export function describeSeries(regression: RegressionLike): { series: string; metric: string } {
  const kind = resultKindOf(regression.endpoint?.protocol ?? null);
  return {
    series: resultDisplayName(regression.endpoint?.name ?? null, kind),
    metric: metricShortName(regression.metric, kind),
  };
}

/** A regression's level before → after, each in its unit ("20.1 ms → 26.2 ms"; a custom metric's as a number). */
export function formatBeforeAfter(regression: RegressionLike): string {
  const kind = resultKindOf(regression.endpoint?.protocol ?? null);
  const unit = metricDefinition(regression.metric)?.unit ?? null;
  const format = (value: number) => formatResultMetric(regression.metric, unit, value, kind);
  return `${format(regression.beforeValue)} → ${format(regression.afterValue)}`;
}

export interface IncidentSummary {
  /** How many regressions (series) it holds. */
  changes: number;
  /** The first few endpoints it moved, by name as shown, and how many more. */
  endpoints: string[];
  moreEndpoints: number;
  /** Its largest change (the regressions come largest |Δ| first), or null when it holds none (they were deleted). */
  largest: { series: string; metric: string; values: string; delta: string } | null;
}

/** What an inbox row says about what moved. */
export function summarizeIncident(regressions: readonly RegressionLike[], shownEndpoints = 2): IncidentSummary {
  const names: string[] = [];
  for (const regression of regressions) {
    const { series } = describeSeries(regression);
    if (!names.includes(series)) names.push(series);
  }
  const first = regressions[0];
  return {
    changes: regressions.length,
    endpoints: names.slice(0, shownEndpoints),
    moreEndpoints: Math.max(0, names.length - shownEndpoints),
    largest: first
      ? { ...describeSeries(first), values: formatBeforeAfter(first), delta: formatDeltaPct(first.deltaPct) }
      : null,
  };
}

/** A run as people name it: "nightly #3", "baseline", or "run" when it has no label. */
export function runName(run: { label: string | null; round: number | null }): string {
  return [run.label, run.round !== null ? `#${run.round}` : null].filter(Boolean).join(" ") || "run";
}

/** Who changed an incident's state last, and when; null while nobody has (the detector opened it). */
export function describeLastChange(incident: {
  stateChangedAt: Date | null;
  stateChangedBy: string | null;
}): { by: string; at: string } | null {
  if (incident.stateChangedAt === null || incident.stateChangedBy === null) return null;
  return { by: incident.stateChangedBy, at: formatRunTime(incident.stateChangedAt) };
}

// ---- Coming back ----

/**
 * Whether a step that was undone has come back, in plain words, from the series detection saw return (a
 * later change the other way on each): for fixed and backed-out incidents always (that is what they wait
 * for), for the others only once some series have. Null when there is nothing to say.
 */
export function describeReturn(
  state: IncidentState,
  returned: { count: number; of: number },
): { tone: "good" | "warn" | "neutral"; text: string } | null {
  const { count, of } = returned;
  if (of === 0) return null;
  if (state === "fixed" || state === "backed_out") {
    if (count === of) {
      return {
        tone: "good",
        text:
          of === 1
            ? "The series is back at the level before the step."
            : `All ${of} series are back at the level before the step.`,
      };
    }
    const waiting = "the gate judges runs against the level before the step";
    if (count === 0) return { tone: "warn", text: `Waiting for the series to return (0 of ${of} back): ${waiting}.` };
    return { tone: "warn", text: `${count} of ${of} series back; waiting for the others to return: ${waiting}.` };
  }
  if (count === 0) return null;
  return { tone: "neutral", text: `${count} of ${of} series back at the level before the step.` };
}

// ---- History ----

/** An event of an incident's history in words: "Opened", "Open → Investigating", or "Edited" (its note or links). */
export function describeEvent(event: { fromState: IncidentState | null; toState: IncidentState | null }): string {
  if (event.fromState !== null && event.toState !== null)
    return describeStateChange(event.fromState, event.toState) ?? "Edited";
  if (event.toState === "open") return "Opened";
  return "Edited";
}

// ---- Links ----

export type LinkKind = "pull request" | "merge request" | "issue" | "commit" | "link";

export interface LinkLabel {
  /** "acme/shop#12", "group/app!7", "acme/shop@9f1c2e7", else the host and path. */
  text: string;
  kind: LinkKind;
  /** The URL when it is http(s), else null: never linked. */
  href: string | null;
}

const LONGEST_PLAIN_LABEL = 48;

/**
 * A link's label, as people write references: GitHub pull requests and issues `owner/repo#12`, GitLab
 * merge requests `group/project!12` and issues `group/project#12`, commits `owner/repo@9f1c2e7`; anything
 * else its host and path, shortened.
 */
export function describeLink(url: string): LinkLabel {
  const href = safeHttpUrl(url);
  if (href === null) return { text: url, kind: "link", href: null };
  const parsed = new URL(href);
  const host = parsed.hostname.replace(/^www\./, "");
  const parts = parsed.pathname.split("/").filter(Boolean).map(decodeSegment);
  if (host === "github.com" && parts.length >= 4) {
    const [owner, repo, type, id] = parts as [string, string, string, string];
    const repository = `${owner}/${repo}`;
    if (type === "pull" && /^\d+$/.test(id)) return { text: `${repository}#${id}`, kind: "pull request", href };
    if (type === "issues" && /^\d+$/.test(id)) return { text: `${repository}#${id}`, kind: "issue", href };
    if (type === "commit" && /^[0-9a-f]{7,40}$/i.test(id))
      return { text: `${repository}@${id.slice(0, 7)}`, kind: "commit", href };
  }
  const separator = parts.indexOf("-");
  if (host.includes("gitlab") && separator > 0 && parts.length >= separator + 3) {
    const repository = parts.slice(0, separator).join("/");
    const type = parts[separator + 1]!;
    const id = parts[separator + 2]!;
    if (type === "merge_requests" && /^\d+$/.test(id))
      return { text: `${repository}!${id}`, kind: "merge request", href };
    if (type === "issues" && /^\d+$/.test(id)) return { text: `${repository}#${id}`, kind: "issue", href };
    if (type === "commit" && /^[0-9a-f]{7,40}$/i.test(id))
      return { text: `${repository}@${id.slice(0, 7)}`, kind: "commit", href };
  }
  const plain = `${host}${parsed.pathname.replace(/\/+$/, "")}`;
  const text = plain.length > LONGEST_PLAIN_LABEL ? `${plain.slice(0, LONGEST_PLAIN_LABEL - 1)}…` : plain;
  return { text, kind: "link", href };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
