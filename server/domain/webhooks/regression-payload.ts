import { formatDeltaPct, formatPValue } from "../format";
import { formatSeriesMetric, metricShortName, seriesDisplayName, seriesKindOf } from "../series-kind";
import { absoluteUrl, pagePaths } from "../urls";

/**
 * The JSON body POSTed to a project's webhook for one regression (server/services/webhooks.ts sends
 * it). Slack-compatible: `text` is what a Slack or Mattermost incoming webhook shows, a one-line
 * summary in Slack's mrkdwn with a link; the other fields are for programs.
 */

export interface RegressionForWebhook {
  id: string;
  kind: "regression" | "improvement";
  metric: string;
  /** The metric's unit when known ("ms", "req/s", "MB"); null for error rate and unknown custom metrics. */
  unit: string | null;
  beforeValue: number;
  afterValue: number;
  deltaPct: number;
  pValue: number | null;
  /** null: the run aggregate. */
  endpoint: string | null;
  /** The endpoint's protocol: "benchmark" words the text as a benchmark's (../series-kind.ts). */
  protocol: string | null;
  firstRun: { id: string; label: string | null; branch: string | null; commit: string | null };
  /** The regression's links as the inbox gives them (regressionLinks), relative to the base URL. */
  links: { comparePath: string | null; trendPath: string };
}

/** Slack's mrkdwn needs &, < and > escaped in text; everything else is taken literally. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The webhook body for one regression; links are absolute under `baseUrl`. Its wire schema is
 * server/schemas/webhooks.ts (regressionWebhookPayloadSchema): the service that sends it types it so.
 */
export function buildRegressionWebhookPayload(project: { slug: string; name: string }, regression: RegressionForWebhook, baseUrl: string) {
  const { firstRun } = regression;
  const firstRunUrl = absoluteUrl(baseUrl, pagePaths.run(project.slug, firstRun.id));
  const url = absoluteUrl(baseUrl, pagePaths.regression(project.slug, regression.id));
  const compareUrl = regression.links.comparePath === null ? null : absoluteUrl(baseUrl, regression.links.comparePath);
  const trendUrl = absoluteUrl(baseUrl, regression.links.trendPath);

  const kind = seriesKindOf(regression.protocol);
  const value = (number: number) => formatSeriesMetric(regression.metric, regression.unit, number, kind);
  const where = regression.endpoint === null ? seriesDisplayName(null, kind).toLowerCase() : regression.endpoint;
  const runParts = [
    firstRun.label === null ? `run ${firstRun.id}` : `run "${firstRun.label}"`,
    firstRun.branch === null ? null : `on ${firstRun.branch}`,
    firstRun.commit === null ? null : `@ ${firstRun.commit.slice(0, 7)}`,
  ].filter((part) => part !== null);
  const stats = [`${value(regression.beforeValue)} → ${value(regression.afterValue)}`];
  if (regression.pValue !== null) stats.push(formatPValue(regression.pValue));
  const text =
    `${regression.kind === "regression" ? "Regression" : "Improvement"} in ${escapeSlack(project.name)}: ` +
    `${escapeSlack(metricShortName(regression.metric, kind))} of ${escapeSlack(where)} ${formatDeltaPct(regression.deltaPct)} ` +
    `(${stats.join(", ")}) since ${escapeSlack(runParts.join(" "))}. <${url}|Open in Benchtrack>`;

  return {
    event: "regression.opened" as const,
    text,
    project: { slug: project.slug, name: project.name },
    regression: {
      id: regression.id,
      kind: regression.kind,
      endpoint: regression.endpoint,
      metric: regression.metric,
      before: regression.beforeValue,
      after: regression.afterValue,
      deltaPct: regression.deltaPct,
      pValue: regression.pValue,
      firstRunId: firstRun.id,
      firstRun: { label: firstRun.label, branch: firstRun.branch, commit: firstRun.commit, url: firstRunUrl },
      url,
      compareUrl,
      trendUrl,
    },
  };
}
