import { INCIDENT_STATE_LABELS, isActiveState, type IncidentState } from "../incidents/state";
import { byLargestChange } from "../incidents/summary";
import { formatDeltaPct, formatPValue } from "../format";
import { formatResultMetric, metricShortName, resultDisplayName, resultKindOf } from "../result-kind";
import { absoluteUrl, pagePaths } from "../urls";

/**
 * What a webhook says about incidents, before it is put in a format (docs/notifications.md): an incident
 * opened, an incident whose state changed, or a project's daily digest. The services load it (one
 * snapshot, in the transaction that made the change); the formats (json-payload.ts, slack-message.ts,
 * teams-message.ts) each turn it into a body, with the words shaped once here (describeIncident).
 */

export const WEBHOOK_FORMATS = ["json", "slack", "teams"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const WEBHOOK_FORMAT_LABELS: Record<WebhookFormat, string> = { json: "JSON", slack: "Slack", teams: "Microsoft Teams" };

export const WEBHOOK_DIGESTS = ["off", "daily"] as const;
export type WebhookDigest = (typeof WEBHOOK_DIGESTS)[number];

export const INCIDENT_EVENTS = ["incident.opened", "incident.state_changed"] as const;
export type IncidentEventName = (typeof INCIDENT_EVENTS)[number];
export const DIGEST_EVENT = "incidents.digest" as const;
export type WebhookEventName = IncidentEventName | typeof DIGEST_EVENT;

/** How many regressions a message lists (the largest first); the incident's page has them all. */
export const LISTED_REGRESSIONS = 50;

export interface RegressionForMessage {
  id: string;
  metric: string;
  /** The metric's unit when known ("ms", "req/s", "MB"); null for error rate and unknown custom metrics. */
  unit: string | null;
  /** null: the run aggregate. */
  endpoint: string | null;
  /** "benchmark" words the text as a benchmark's (../result-kind.ts). */
  protocol: string | null;
  before: number;
  after: number;
  deltaPct: number;
  pValue: number | null;
  /** Relative to the base URL, as the inbox gives them (changeLinksForRows). */
  trendPath: string;
  comparePath: string | null;
}

export interface IncidentForMessage {
  number: number;
  state: IncidentState;
  note: string | null;
  links: string[];
  openedAt: Date;
  detectorVersion: number;
  firstRun: { id: string; label: string | null; branch: string | null; commit: string | null; startedAt: Date };
  regressions: RegressionForMessage[];
}

/** A change of an incident's state: opening it is one (from null to open, by the detector). */
export interface StateChange {
  from: IncidentState | null;
  to: IncidentState;
  by: string;
  at: Date;
}

export interface ProjectForMessage {
  slug: string;
  name: string;
}

/** One incident opened, or one whose state changed. */
export interface IncidentEventMessage {
  kind: "incident";
  event: IncidentEventName;
  project: ProjectForMessage;
  incident: IncidentForMessage;
  change: StateChange;
}

/** A project's day: the incidents opened or changed in [from, to), then the other active ones. */
export interface DigestMessage {
  kind: "digest";
  project: ProjectForMessage;
  from: Date;
  to: Date;
  incidents: (IncidentForMessage & { changes: StateChange[] })[];
}

export type NotificationMessage = IncidentEventMessage | DigestMessage;

/** The words every format shares about one incident. */
export interface IncidentWords {
  /** "Incident #3" */
  name: string;
  url: string;
  stateLabel: string;
  /** The largest change, "p99 of ListListings +91.4%", and its values "33.5 ms → 64.1 ms, p < 0.001"; null with no regression. */
  largest: { what: string; delta: string; values: string } | null;
  /** "4 changes on 3 endpoints" (the series' own noun: benchmarks). */
  extent: string;
  /** The endpoints, as many as fit in `maxNames`, then "and N more". */
  endpoints: (maxNames: number) => string;
  /** 'run "nightly" on main @ 9f1c2e7' */
  firstRun: string;
  firstRunUrl: string;
  /** The largest regression's before-vs-after comparison, when there is one. */
  compareUrl: string | null;
  /** Each regression in a line, the largest first: "ListListings p99: 33.5 ms → 64.1 ms (+91.4%)". */
  changes: { line: string; where: string; what: string; values: string; delta: string }[];
  openedAt: string;
}

/** "2026-11-26 09:00 UTC": the same text wherever the message is read. */
export function formatUtcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}


/** The regression's series and metric and its values, as a person reads them. */
function describeRegression(regression: RegressionForMessage) {
  const kind = resultKindOf(regression.protocol);
  const value = (number: number) => formatResultMetric(regression.metric, regression.unit, number, kind);
  const where = resultDisplayName(regression.endpoint, kind);
  const metric = metricShortName(regression.metric, kind);
  const values = `${value(regression.before)} → ${value(regression.after)}`;
  const delta = formatDeltaPct(regression.deltaPct);
  return { where, metric, values, delta, pValue: regression.pValue };
}

export function describeIncident(project: ProjectForMessage, incident: IncidentForMessage, baseUrl: string): IncidentWords {
  const ordered = byLargestChange(incident.regressions);
  const kind = resultKindOf(ordered[0]?.protocol ?? null);
  const described = ordered.map(describeRegression);
  const top = described[0];
  const endpointNames = [...new Set(described.map((regression) => regression.where))];
  const { firstRun } = incident;
  const runParts = [
    firstRun.label === null ? `run ${firstRun.id}` : `run "${firstRun.label}"`,
    firstRun.branch === null ? null : `on ${firstRun.branch}`,
    firstRun.commit === null ? null : `@ ${firstRun.commit.slice(0, 7)}`,
  ].filter((part) => part !== null);
  const nouns = kind === "benchmark" ? ["benchmark", "benchmarks"] : ["endpoint", "endpoints"];
  const largestRow = ordered[0];
  return {
    name: `Incident #${incident.number}`,
    url: absoluteUrl(baseUrl, pagePaths.incident(project.slug, incident.number)),
    stateLabel: INCIDENT_STATE_LABELS[incident.state],
    largest:
      top === undefined
        ? null
        : {
            what: `${top.metric} of ${top.where}`,
            delta: top.delta,
            values: top.pValue === null ? top.values : `${top.values}, ${formatPValue(top.pValue)}`,
          },
    extent:
      `${ordered.length} ${ordered.length === 1 ? "change" : "changes"} on ` +
      `${endpointNames.length} ${endpointNames.length === 1 ? nouns[0] : nouns[1]}`,
    endpoints: (maxNames) => {
      const shown = endpointNames.slice(0, maxNames);
      const more = endpointNames.length - shown.length;
      return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
    },
    firstRun: runParts.join(" "),
    firstRunUrl: absoluteUrl(baseUrl, pagePaths.run(project.slug, firstRun.id)),
    compareUrl: largestRow?.comparePath ? absoluteUrl(baseUrl, largestRow.comparePath) : null,
    changes: described.map((regression) => ({
      line: `${regression.where} ${regression.metric}: ${regression.values} (${regression.delta})`,
      where: regression.where,
      what: regression.metric,
      values: regression.values,
      delta: regression.delta,
    })),
    openedAt: formatUtcMinute(incident.openedAt),
  };
}

/** The context line of an incident message: where it comes from, when it opened, and when it changed. */
export function contextLine(project: ProjectForMessage, incident: IncidentForMessage, change: StateChange): string {
  const opened = `opened ${formatUtcMinute(incident.openedAt)} by the change-point detector (v${incident.detectorVersion})`;
  return `Benchtrack · ${project.name} · ${opened}${change.from === null ? "" : ` · changed ${formatUtcMinute(change.at)}`}`;
}

/** A link as a short label: host and path, at most 60 characters ("github.com/acme/listings/pull/42"). */
export function linkLabel(url: string): string {
  try {
    const parsed = new URL(url);
    const label = `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
    return label.length > 60 ? `${label.slice(0, 59)}…` : label;
  } catch {
    return url.slice(0, 60);
  }
}

/** "Open → Investigating by alice (admin session)", or "Opened by the detector". */
export function describeChange(change: StateChange): string {
  const who = change.by === "detector" ? "the detector" : change.by;
  if (change.from === null) return `Opened by ${who}`;
  return `${INCIDENT_STATE_LABELS[change.from]} → ${INCIDENT_STATE_LABELS[change.to]} by ${who}`;
}

/** A message's one-line title: "Incident #3 opened", "Incident #3: Open → Fixed", "Daily digest". */
export function messageTitle(message: NotificationMessage): string {
  if (message.kind === "digest") return `Daily incident digest · ${message.project.name}`;
  const name = `Incident #${message.incident.number}`;
  if (message.event === "incident.opened" || message.change.from === null) return `${name} opened · ${message.project.name}`;
  return `${name}: ${INCIDENT_STATE_LABELS[message.change.from]} → ${INCIDENT_STATE_LABELS[message.change.to]} · ${message.project.name}`;
}

/** What a digest counts: opened in the window, changed in it (not opened), and active now. */
export function digestCounts(message: DigestMessage) {
  let opened = 0;
  let changed = 0;
  for (const incident of message.incidents) {
    if (incident.changes.some((change) => change.from === null)) opened += 1;
    else if (incident.changes.length > 0) changed += 1;
  }
  const active = message.incidents.filter((incident) => isActiveState(incident.state)).length;
  return { opened, changed, active };
}

/** "2 opened, 1 changed state; 3 active (open or investigating)" */
export function digestSummary(message: DigestMessage): string {
  const { opened, changed, active } = digestCounts(message);
  const happened = [
    opened > 0 ? `${opened} incident${opened === 1 ? "" : "s"} opened` : null,
    changed > 0 ? `${changed} ${opened > 0 ? "" : `incident${changed === 1 ? "" : "s"} `}changed state` : null,
  ].filter((part) => part !== null);
  return `${happened.join(", ") || "nothing happened"} ${describeDigestWindow(message)}; ${active} active (open or investigating)`;
}

/** "in the last 24 h", or "in the last 3 days" when the window reaches back to an earlier digest. */
function describeDigestWindow(message: DigestMessage): string {
  const hours = Math.round((message.to.getTime() - message.from.getTime()) / 3600_000);
  return hours <= 24 ? "in the last 24 h" : `in the last ${Math.round(hours / 24)} days`;
}

/** The incidents inbox of the project (the Incidents tab). */
export function incidentsInboxUrl(project: ProjectForMessage, baseUrl: string): string {
  return absoluteUrl(baseUrl, pagePaths.incidents(project.slug));
}
