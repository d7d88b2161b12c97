import { INCIDENT_STATE_LABELS } from "../incidents/state";
import { absoluteUrl, pagePaths } from "../urls";
import {
  DIGEST_EVENT,
  LISTED_REGRESSIONS,
  describeIncident,
  digestCounts,
  digestSummary,
  incidentsInboxUrl,
  messageTitle,
  type DigestMessage,
  type IncidentEventMessage,
  type IncidentForMessage,
  type NotificationMessage,
  type ProjectForMessage,
  type StateChange,
} from "./incident-message";
import { escapeSlack } from "./slack-text";

/**
 * Benchtrack's own JSON body (format "json"): the incident as data for programs, and a one-line `text`
 * in Slack's mrkdwn with a link (what a Slack or Mattermost incoming webhook shows when given this body
 * as is). Its wire schema is server/schemas/webhooks.ts (webhookPayloadSchema), which documents it in
 * the OpenAPI document; the unit test holds every body built here to it.
 */

function changeJson(change: StateChange) {
  return { from: change.from, to: change.to, by: change.by, at: change.at.toISOString() };
}

function incidentJson(project: ProjectForMessage, incident: IncidentForMessage, baseUrl: string) {
  const words = describeIncident(project, incident, baseUrl);
  const regressions = [...incident.regressions].sort((a, b) => Math.abs(b.deltaPct) - Math.abs(a.deltaPct) || a.id.localeCompare(b.id));
  return {
    number: incident.number,
    state: incident.state,
    stateLabel: INCIDENT_STATE_LABELS[incident.state],
    url: words.url,
    openedAt: incident.openedAt.toISOString(),
    note: incident.note,
    links: incident.links,
    detectorVersion: incident.detectorVersion,
    firstRun: {
      id: incident.firstRun.id,
      label: incident.firstRun.label,
      branch: incident.firstRun.branch,
      commit: incident.firstRun.commit,
      startedAt: incident.firstRun.startedAt.toISOString(),
      url: absoluteUrl(baseUrl, pagePaths.run(project.slug, incident.firstRun.id)),
    },
    endpoints: [...new Set(regressions.map((regression) => regression.endpoint))],
    regressionCount: regressions.length,
    regressions: regressions.slice(0, LISTED_REGRESSIONS).map((regression) => ({
      id: regression.id,
      endpoint: regression.endpoint,
      metric: regression.metric,
      unit: regression.unit,
      before: regression.before,
      after: regression.after,
      deltaPct: regression.deltaPct,
      pValue: regression.pValue,
      trendUrl: absoluteUrl(baseUrl, regression.trendPath),
      compareUrl: regression.comparePath === null ? null : absoluteUrl(baseUrl, regression.comparePath),
    })),
    compareUrl: words.compareUrl,
  };
}

/** The one-line mrkdwn text of an incident event: what happened, the largest change, a link. */
function incidentText(message: IncidentEventMessage, baseUrl: string): string {
  const words = describeIncident(message.project, message.incident, baseUrl);
  const what =
    message.change.from === null
      ? `${words.name} opened in ${escapeSlack(message.project.name)}`
      : `${words.name} in ${escapeSlack(message.project.name)}: ${INCIDENT_STATE_LABELS[message.change.from]} → ${INCIDENT_STATE_LABELS[message.change.to]} by ${escapeSlack(message.change.by)}`;
  const largest = words.largest === null ? "" : `: ${escapeSlack(words.largest.what)} ${words.largest.delta} (${words.largest.values})`;
  const more = message.incident.regressions.length > 1 ? `, ${words.extent}` : "";
  return `${what}${largest}${more}. <${words.url}|Open ${words.name.toLowerCase()}>`;
}

function digestText(message: DigestMessage, baseUrl: string): string {
  return `${escapeSlack(messageTitle(message))}: ${digestSummary(message)}. <${incidentsInboxUrl(message.project, baseUrl)}|Open the incidents>`;
}

export function buildJsonPayload(message: NotificationMessage, baseUrl: string) {
  const project = { slug: message.project.slug, name: message.project.name };
  if (message.kind === "incident") {
    return {
      event: message.event,
      text: incidentText(message, baseUrl),
      project,
      incident: incidentJson(message.project, message.incident, baseUrl),
      change: changeJson(message.change),
    };
  }
  return {
    event: DIGEST_EVENT,
    text: digestText(message, baseUrl),
    project,
    digest: {
      from: message.from.toISOString(),
      to: message.to.toISOString(),
      url: incidentsInboxUrl(message.project, baseUrl),
      ...digestCounts(message),
    },
    incidents: message.incidents.map((incident) => ({
      ...incidentJson(message.project, incident, baseUrl),
      changes: incident.changes.map(changeJson),
    })),
  };
}
