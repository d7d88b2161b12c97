import { INCIDENT_STATE_LABELS, type IncidentState } from "../incidents/state";
import {
  contextLine,
  describeChange,
  describeIncident,
  digestSummary,
  formatUtcMinute,
  incidentsInboxUrl,
  linkLabel,
  messageTitle,
  type DigestMessage,
  type IncidentEventMessage,
  type NotificationMessage,
} from "./incident-message";
import { escapeTeams } from "./teams-text";

/**
 * A Microsoft Teams message (format "teams"): an Adaptive Card 1.4 in a message, the body a Teams
 * Workflows "when a Teams webhook request is received" flow (and the older incoming webhook) posts as a
 * card: `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive",
 * "contentUrl":null,"content":{AdaptiveCard}}]}`. The card: a title, what changed and the summary
 * (TextBlocks), a FactSet, a context line, and Action.OpenUrl buttons to the incident and its
 * comparison. Its schema is teamsMessageSchema (server/schemas/webhooks.ts).
 *
 * Teams renders a subset of Markdown in TextBlocks (**bold**, _italic_, [links](url)); text Benchtrack
 * did not write (names, notes) has those characters escaped with a backslash. Teams takes messages up
 * to about 28 KB: a card lists at most TEAMS_LISTED_CHANGES changes and DIGEST_LISTED_INCIDENTS incidents.
 */

export const ADAPTIVE_CARD_VERSION = "1.4";
export const TEAMS_LISTED_CHANGES = 10;
const DIGEST_LISTED_INCIDENTS = 20;

type TextColor = "Default" | "Good" | "Warning" | "Attention" | "Accent";

const STATE_COLORS: Record<IncidentState, TextColor> = {
  open: "Attention",
  investigating: "Warning",
  fixed: "Good",
  backed_out: "Good",
  accepted: "Accent",
  invalid: "Default",
};

type TextBlock = {
  type: "TextBlock";
  text: string;
  wrap: true;
  size?: "Small" | "Default" | "Medium" | "Large";
  weight?: "Lighter" | "Default" | "Bolder";
  color?: TextColor;
  isSubtle?: boolean;
  spacing?: "None" | "Small" | "Medium";
  separator?: boolean;
};

export type TeamsElement =
  | TextBlock
  | { type: "FactSet"; facts: { title: string; value: string }[] }
  | { type: "Container"; items: TextBlock[]; separator?: boolean; spacing?: "Medium" };

type OpenUrl = {
  type: "Action.OpenUrl";
  title: string;
  url: string;
};

const text = (value: string, options: Omit<TextBlock, "type" | "text" | "wrap"> = {}): TextBlock => ({
  type: "TextBlock",
  text: value,
  wrap: true,
  ...options,
});

function incidentCard(message: IncidentEventMessage, baseUrl: string): { body: TeamsElement[]; actions: OpenUrl[] } {
  const { project, incident, change } = message;
  const words = describeIncident(project, incident, baseUrl);
  const body: TeamsElement[] = [text(escapeTeams(messageTitle(message)), { size: "Large", weight: "Bolder", color: STATE_COLORS[change.to] })];
  if (change.from !== null) {
    body.push(
      text(
        `**${escapeTeams(change.by)}** moved ${words.name.toLowerCase()} from **${INCIDENT_STATE_LABELS[change.from]}** to **${INCIDENT_STATE_LABELS[change.to]}**.`,
      ),
    );
    if (incident.note) body.push(text(`_${escapeTeams(incident.note)}_`, { isSubtle: true, spacing: "Small" }));
  }
  if (words.largest !== null) {
    body.push(text(`**${escapeTeams(words.largest.what)} ${words.largest.delta}** (${escapeTeams(words.largest.values)})`, { size: "Medium" }));
  }
  const facts = [
    { title: "State", value: words.stateLabel },
    { title: "Changes", value: `${escapeTeams(words.extent)}: ${escapeTeams(words.endpoints(5))}` },
    { title: "First run", value: `[${escapeTeams(words.firstRun)}](${words.firstRunUrl}) · ${formatUtcMinute(incident.firstRun.startedAt)}` },
    ...words.changes.slice(0, TEAMS_LISTED_CHANGES).map((row) => ({ title: escapeTeams(`${row.where} ${row.what}`), value: `${escapeTeams(row.values)} (${row.delta})` })),
  ];
  if (words.changes.length > TEAMS_LISTED_CHANGES) facts.push({ title: "More", value: `${words.changes.length - TEAMS_LISTED_CHANGES} more on the incident's page` });
  if (incident.links.length > 0) facts.push({ title: "Links", value: incident.links.map((link) => `[${escapeTeams(linkLabel(link))}](${link})`).join(" · ") });
  body.push({ type: "FactSet", facts });
  body.push(text(escapeTeams(contextLine(project, incident, change)), { size: "Small", isSubtle: true }));
  const actions: OpenUrl[] = [{ type: "Action.OpenUrl", title: `Open ${words.name.toLowerCase()}`, url: words.url }];
  if (words.compareUrl !== null) actions.push({ type: "Action.OpenUrl", title: "Compare before and after", url: words.compareUrl });
  return { body, actions };
}

function digestCard(message: DigestMessage, baseUrl: string): { body: TeamsElement[]; actions: OpenUrl[] } {
  const { project } = message;
  const body: TeamsElement[] = [
    text(escapeTeams(messageTitle(message)), { size: "Large", weight: "Bolder" }),
    text(`${digestSummary(message)}.`),
    text(`${formatUtcMinute(message.from)} → ${formatUtcMinute(message.to)}`, { size: "Small", isSubtle: true, spacing: "None" }),
  ];
  const listed = message.incidents.slice(0, DIGEST_LISTED_INCIDENTS);
  for (const incident of listed) {
    const words = describeIncident(project, incident, baseUrl);
    const largest = words.largest === null ? "" : ` — ${escapeTeams(words.largest.what)} ${words.largest.delta} (${escapeTeams(words.largest.values)})`;
    const happened = incident.changes.length === 0 ? "No change today" : incident.changes.map((change) => escapeTeams(describeChange(change))).join("; ");
    body.push({
      type: "Container",
      separator: true,
      spacing: "Medium",
      items: [
        text(`**[${words.name}](${words.url})** · ${words.stateLabel}${largest}`, { color: STATE_COLORS[incident.state] }),
        text(`${escapeTeams(words.extent)} · ${happened}`, { size: "Small", isSubtle: true, spacing: "None" }),
      ],
    });
  }
  const more = message.incidents.length - listed.length;
  if (more > 0) body.push(text(`${more} more incident${more === 1 ? "" : "s"} on the incidents page.`, { isSubtle: true }));
  return { body, actions: [{ type: "Action.OpenUrl", title: "Open the incidents", url: incidentsInboxUrl(project, baseUrl) }] };
}

/** The Teams message of an incident event or a digest. */
export function buildTeamsMessage(message: NotificationMessage, baseUrl: string) {
  const { body, actions } = message.kind === "incident" ? incidentCard(message, baseUrl) : digestCard(message, baseUrl);
  return {
    type: "message" as const,
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive" as const,
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json" as const,
          type: "AdaptiveCard" as const,
          version: ADAPTIVE_CARD_VERSION,
          // What a client that cannot draw the card shows, and what a notification says.
          fallbackText: messageTitle(message),
          body,
          actions,
          msteams: { width: "Full" as const },
        },
      },
    ],
  };
}
