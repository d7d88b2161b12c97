import { INCIDENT_STATE_LABELS, type IncidentState } from "../incidents/state";
import {
  contextLine,
  describeChange,
  describeIncident,
  digestSummary,
  formatUtcMinute,
  incidentsInboxUrl,
  messageTitle,
  type DigestMessage,
  type IncidentEventMessage,
  type IncidentForMessage,
  type NotificationMessage,
  type ProjectForMessage,
} from "./incident-message";
import { buildJsonPayload } from "./json-payload";
import { escapeSlack, truncateText } from "./slack-text";

/**
 * A Slack message in Block Kit (format "slack"), for a Slack incoming webhook
 * (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks): a header, a section with
 * the incident's summary (the largest change before → after, its endpoints, the first run, the state),
 * a section of fields (the largest changes, one each), a context line and an actions block with buttons
 * to the incident and its comparison; `text` is the notification's fallback (what a phone shows). A
 * digest is a header, a summary, a section per incident and a button to the inbox.
 *
 * Within Slack's limits, held by slackMessageSchema (server/schemas/webhooks.ts) in the tests: header
 * text ≤ 150 characters, section text ≤ 3,000, a field ≤ 2,000, ≤ 10 fields, ≤ 10 context elements,
 * a button's text ≤ 75 and its URL ≤ 3,000, ≤ 50 blocks.
 */

export const SLACK_LIMITS = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  contextElements: 10,
  buttonText: 75,
  buttonUrl: 3000,
  actionElements: 25,
  /** The top-level text: Slack truncates a message's text past 40,000 characters. */
  text: 40_000,
} as const;

/** How many incidents a digest shows one by one (a section each); the rest are counted. */
export const DIGEST_LISTED_INCIDENTS = 20;

const STATE_MARKS: Record<IncidentState, string> = {
  open: "🔴",
  investigating: "🟡",
  fixed: "✅",
  backed_out: "↩️",
  accepted: "🟢",
  invalid: "⚪",
};

const plain = (text: string, max: number) => ({ type: "plain_text" as const, text: truncateText(text, max), emoji: true });
const mrkdwn = (text: string, max: number) => ({ type: "mrkdwn" as const, text: truncateText(text, max) });

function button(text: string, url: string, style?: "primary") {
  return {
    type: "button" as const,
    text: plain(text, SLACK_LIMITS.buttonText),
    url,
    action_id: text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 255) || "open",
    ...(style && { style }),
  };
}

/** The incident's summary in mrkdwn: the largest change, its extent, the first run, the state. */
function summaryText(project: ProjectForMessage, incident: IncidentForMessage, baseUrl: string): string {
  const words = describeIncident(project, incident, baseUrl);
  const lines = [
    words.largest === null
      ? "No regression is attached to it any more."
      : `*${escapeSlack(words.largest.what)} ${words.largest.delta}* (${escapeSlack(words.largest.values)})`,
    `${escapeSlack(words.extent)}: ${escapeSlack(words.endpoints(5))}`,
    `First run: <${words.firstRunUrl}|${escapeSlack(words.firstRun)}> · ${formatUtcMinute(incident.firstRun.startedAt)}`,
    `State: *${escapeSlack(words.stateLabel)}*`,
  ];
  return lines.join("\n");
}

function incidentBlocks(message: IncidentEventMessage, baseUrl: string) {
  const { project, incident, change } = message;
  const words = describeIncident(project, incident, baseUrl);
  const mark = STATE_MARKS[change.to];
  const blocks: SlackBlock[] = [{ type: "header", text: plain(`${mark} ${messageTitle(message)}`, SLACK_LIMITS.headerText) }];
  if (change.from !== null) {
    const note = incident.note ? `\n> ${escapeSlack(incident.note).replace(/\n/g, "\n> ")}` : "";
    blocks.push({
      type: "section",
      text: mrkdwn(
        `*${escapeSlack(change.by)}* moved ${words.name.toLowerCase()} from *${INCIDENT_STATE_LABELS[change.from]}* to *${INCIDENT_STATE_LABELS[change.to]}*.${note}`,
        SLACK_LIMITS.sectionText,
      ),
    });
  }
  blocks.push({ type: "section", text: mrkdwn(summaryText(project, incident, baseUrl), SLACK_LIMITS.sectionText) });
  // The largest changes, a field each (Slack shows them in two columns); the 10th says how many more.
  const changes = words.changes;
  const shown = changes.length > SLACK_LIMITS.fields ? changes.slice(0, SLACK_LIMITS.fields - 1) : changes;
  const fields = shown.map((row) => mrkdwn(`*${escapeSlack(`${row.where} ${row.what}`)}*\n${escapeSlack(row.values)} (${row.delta})`, SLACK_LIMITS.fieldText));
  if (shown.length < changes.length) fields.push(mrkdwn(`*${changes.length - shown.length} more*\non the incident's page`, SLACK_LIMITS.fieldText));
  if (fields.length > 1) blocks.push({ type: "section", fields });
  if (incident.links.length > 0) {
    blocks.push({
      type: "section",
      text: mrkdwn(`Links: ${incident.links.map((link) => `<${escapeSlack(link)}>`).join(" · ")}`, SLACK_LIMITS.sectionText),
    });
  }
  blocks.push({ type: "context", elements: [mrkdwn(escapeSlack(contextLine(project, incident, change)), SLACK_LIMITS.sectionText)] });
  const buttons = [button(`Open ${words.name.toLowerCase()}`, words.url, "primary")];
  if (words.compareUrl !== null && words.compareUrl.length <= SLACK_LIMITS.buttonUrl) buttons.push(button("Compare before and after", words.compareUrl));
  blocks.push({ type: "actions", elements: buttons });
  return blocks;
}

function digestBlocks(message: DigestMessage, baseUrl: string) {
  const { project } = message;
  const blocks: SlackBlock[] = [
    { type: "header", text: plain(`📋 ${messageTitle(message)}`, SLACK_LIMITS.headerText) },
    {
      type: "section",
      text: mrkdwn(
        `${escapeSlack(digestSummary(message))}.\n_${formatUtcMinute(message.from)} → ${formatUtcMinute(message.to)}_`,
        SLACK_LIMITS.sectionText,
      ),
    },
    { type: "divider" },
  ];
  const listed = message.incidents.slice(0, DIGEST_LISTED_INCIDENTS);
  for (const incident of listed) {
    const words = describeIncident(project, incident, baseUrl);
    const largest = words.largest === null ? "" : ` — ${escapeSlack(words.largest.what)} ${words.largest.delta} (${escapeSlack(words.largest.values)})`;
    const happened =
      incident.changes.length === 0
        ? "No change today"
        : incident.changes.map((change) => escapeSlack(describeChange(change))).join("; ");
    blocks.push({
      type: "section",
      text: mrkdwn(
        `${STATE_MARKS[incident.state]} *<${words.url}|${words.name}>* · *${escapeSlack(words.stateLabel)}*${largest}\n${escapeSlack(words.extent)} · ${happened}`,
        SLACK_LIMITS.sectionText,
      ),
    });
  }
  const more = message.incidents.length - listed.length;
  blocks.push({
    type: "context",
    elements: [
      mrkdwn(
        `Benchtrack · ${escapeSlack(project.name)}${more > 0 ? ` · ${more} more incident${more === 1 ? "" : "s"} on the incidents page` : ""}`,
        SLACK_LIMITS.sectionText,
      ),
    ],
  });
  blocks.push({ type: "actions", elements: [button("Open the incidents", incidentsInboxUrl(project, baseUrl), "primary")] });
  return blocks;
}

type TextObject = { type: "plain_text"; text: string; emoji?: boolean } | { type: "mrkdwn"; text: string };
export type SlackBlock =
  | { type: "header"; text: { type: "plain_text"; text: string; emoji?: boolean } }
  | { type: "section"; text: TextObject; fields?: undefined }
  | { type: "section"; fields: TextObject[]; text?: undefined }
  | { type: "divider" }
  | { type: "context"; elements: TextObject[] }
  | { type: "actions"; elements: ReturnType<typeof button>[] };

/** The Slack message of an incident event or a digest: blocks, and `text` as the notification's fallback. */
export function buildSlackMessage(message: NotificationMessage, baseUrl: string): { text: string; blocks: SlackBlock[] } {
  // The fallback is the JSON body's one-line text: the same words, in mrkdwn, with the link.
  const text = truncateText(buildJsonPayload(message, baseUrl).text, SLACK_LIMITS.text);
  const blocks = message.kind === "incident" ? incidentBlocks(message, baseUrl) : digestBlocks(message, baseUrl);
  return { text, blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}
