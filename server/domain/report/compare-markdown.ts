import { formatDeltaPct, formatPValue } from "../format";
import type { Comparison, EndpointComparison, MetricComparison } from "../compare/compare-runs";
import { describeCommits, describeDifference } from "../compare/environment-diff";
import type { InconclusiveExplanation } from "../compare/gate-summary";
import {
  comparisonKindOf,
  describeNotJudged,
  explainInconclusive,
  headlineChanges,
  INCONCLUSIVE_KIND_WORDS,
} from "../compare/gate-summary";
import { describeRunSet } from "../compare/run-names";
import { markdownText } from "./markdown";
import { formatResultMetric, metricShortName, resultDisplayName, resultKindOf, wordsOf } from "../result-kind";
import type { Verdict } from "../stats/verdict";
import { SIGNIFICANCE_TEST_NAMES } from "../stats/verdict";
import type { ComparisonResult } from "../compare/comparison-result";

/**
 * The comparison as a pull-request comment: the verdict first (why, when inconclusive), then a compact
 * table of what changed, then how it was decided, then a link to the page with everything. User text goes through
 * markdownText (domain/report/markdown.ts): it stays text. Endpoints and benchmarks are each named in their
 * own words (../result-kind.ts), a benchmark's time per operation in its unit.
 */
const VERDICT_LINE: Record<Exclude<Verdict, "inconclusive">, string> = {
  regressed: "🔴 **Regressed**: head is worse than base",
  improved: "🟢 **Improved**: head is better than base",
  unchanged: "⚪ **Unchanged**: no change beyond the noise",
};

function verdictLine(verdict: Verdict, noun: string): string {
  return verdict === "inconclusive" ? `🟡 **Inconclusive**: no ${noun} could be judged` : VERDICT_LINE[verdict];
}

/** A metric's row cells: the result's name, the metric's, base and head, in the result's words and units. */
function resultCells(endpoint: { name: string; protocol: string | null }, metric: MetricComparison): string[] {
  const kind = resultKindOf(endpoint);
  return [
    markdownText(resultDisplayName(endpoint.name, kind)),
    markdownText(metricShortName(metric.metric, kind)),
    formatResultMetric(metric.metric, metric.unit, metric.base.mean, kind),
    formatResultMetric(metric.metric, metric.unit, metric.head.mean, kind),
  ];
}
const VERDICT_WORD: Record<Verdict, string> = {
  regressed: "🔴 regressed",
  improved: "🟢 improved",
  unchanged: "unchanged",
  inconclusive: "inconclusive",
};
const MAX_ROWS = 20;
/** Changes seen without a verdict: the few largest say enough, the page has the rest. */
const MAX_UNJUDGED_ROWS = 5;

function formatDelta(metric: MetricComparison): string {
  const delta = formatDeltaPct(metric.deltaPct);
  if (!metric.deltaPctCi95) return delta;
  const [low, high] = metric.deltaPctCi95;
  return `${delta} (${formatDeltaPct(low)} … ${formatDeltaPct(high)})`;
}

/** A link target inside Markdown's `(…)`: characters that would end or break it are percent-encoded. */
function markdownHref(url: string): string {
  return url.replace(/[()<>\s]/g, (character) => encodeURIComponent(character));
}

/**
 * "What changed" besides the code, in two short lines: the differences (unfair ones marked ⚠️, the
 * commits linked to their diff when the repository is known), then what both sides share.
 */
function environmentLines(environment: Comparison["environment"]): string[] {
  const changed = environment.differences.map((difference) => `${markdownText(describeDifference(difference))}${difference.isUnfair ? " ⚠️" : ""}`);
  if (environment.commits) {
    const text = `commits ${markdownText(describeCommits(environment.commits))}`;
    changed.push(environment.commits.diffUrl ? `[${text}](${markdownHref(environment.commits.diffUrl)})` : text);
  }
  const same = environment.same.length > 0 ? [`<sub>Same ${markdownText(environment.same.join(", "))}.</sub>`] : [];
  return changed.length > 0 ? [`**What changed** (base → head): ${changed.join(" · ")}`, ...same] : same;
}

/** A sentence of a reason: it ends with one full stop. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * Beside an inconclusive verdict's reason: the largest changes it saw, each marked as not judged (a
 * "+73%" of too few runs is not "no change", and not a regression either).
 */
function unjudgedChangeLines(comparison: Comparison, why: InconclusiveExplanation): string[] {
  const seen = headlineChanges(comparison, MAX_UNJUDGED_ROWS);
  if (seen.length === 0) return ["No change to show: nothing was measured on both sides alike."];
  const lines = [
    `Largest changes seen, **not judged** (${INCONCLUSIVE_KIND_WORDS[why.kind]}):`,
    "",
    `| ${wordsOf(comparisonKindOf(comparison)).nounTitle} | Metric | Base | Head | Δ | Verdict |`,
    "|---|---|--:|--:|--:|---|",
  ];
  for (const { endpoint, protocol, metric } of seen) {
    const gate = metric.gate ? " (gate)" : "";
    const [name, metricName, base, head] = resultCells({ name: endpoint, protocol }, metric);
    lines.push(`| ${name} | ${metricName}${gate} | ${base} | ${head} | ${formatDeltaPct(metric.deltaPct)} | not judged |`);
  }
  return lines;
}

/** A side as people name its runs ("baseline #1–5 on main@6bb136f"), not as its selector's ids. */
function sideLabel(side: ComparisonResult["base"]): string {
  return markdownText(describeRunSet(side.runs));
}

export function renderComparisonMarkdown(result: ComparisonResult, pageUrl: string, perTool: { tool: string; url: string }[] = []): string {
  const { comparison } = result;
  if (comparison.notComparable) {
    return [
      "### ⚪ **Not comparable**: the runs come from several tools",
      "",
      `**base** ${sideLabel(result.base)} → **head** ${sideLabel(result.head)} · [open the comparison](${pageUrl})`,
      "",
      `No verdict: ${markdownText(comparison.notComparable)}.`,
      ...(perTool.length > 0 ? ["", `Compare one tool at a time: ${perTool.map((entry) => `[${markdownText(entry.tool)}](${entry.url})`).join(" · ")}`] : []),
      "",
    ].join("\n");
  }
  const why = explainInconclusive(comparison);
  const words = wordsOf(comparisonKindOf(comparison));
  const lines = [`### ${verdictLine(comparison.verdict, words.noun)}`, ""];
  if (why !== null) lines.push(`**Why:** ${markdownText(sentence(why.reason))}`, "");
  // Beside the verdict: what makes it unfair, and how many rounds would settle an undecided one.
  if (comparison.environment.unfair.length > 0) {
    lines.push(...comparison.environment.unfair.map((warning) => `> ⚠️ **Unfair comparison:** ${markdownText(warning)}`), "");
  }
  if (comparison.rounds) lines.push(`**How many rounds?** ${markdownText(comparison.rounds.sentence)}`, "");
  lines.push(`**base** ${sideLabel(result.base)} → **head** ${sideLabel(result.head)} · [open the comparison](${pageUrl})`, "");
  const endpoints: EndpointComparison[] = [...comparison.endpoints, comparison.aggregate];
  const changed = endpoints.flatMap((endpoint) =>
    endpoint.metrics
      .filter((metric) => metric.verdict === "regressed" || metric.verdict === "improved")
      .map((metric) => ({ endpoint, metric })),
  );
  changed.sort((a, b) => (a.metric.verdict === b.metric.verdict ? 0 : a.metric.verdict === "regressed" ? -1 : 1));
  const compared = endpoints.reduce((sum, endpoint) => sum + endpoint.metrics.length, 0);
  const notJudged = describeNotJudged(comparison);
  if (why !== null) {
    lines.push(...unjudgedChangeLines(comparison, why));
  } else if (changed.length === 0) {
    lines.push(`No judged metric changed beyond the noise (${compared} compared).`);
    if (notJudged !== null) lines.push("", `Not judged: ${markdownText(notJudged)}.`);
  } else {
    lines.push(`| ${words.nounTitle} | Metric | Base | Head | Δ (95% CI) | p | Verdict |`, "|---|---|--:|--:|--:|--:|---|");
    for (const { endpoint, metric } of changed.slice(0, MAX_ROWS)) {
      const [name, metricName, base, head] = resultCells(endpoint, metric);
      lines.push(`| ${name} | ${metricName} | ${base} | ${head} | ${formatDelta(metric)} | ${formatPValue(metric.pValue)} | ${VERDICT_WORD[metric.verdict]} |`);
    }
    if (changed.length > MAX_ROWS) lines.push("", `…and ${changed.length - MAX_ROWS} more changes on the page.`);
    if (notJudged !== null) lines.push("", `Not judged: ${markdownText(notJudged)}.`);
  }
  const { minEffectPct, alpha, test } = result.options;
  const method =
    comparison.kind === "pairwise"
      ? `1 vs 1: each change is judged against a noise band learnt from recent runs on the base branch (minimum effect ${minEffectPct}%).`
      : comparison.kind === "group-vs-run"
        ? `One run against ${result.base.runs.length} base runs: a prediction-interval t test, α = ${alpha}, minimum effect ${minEffectPct}%.`
        : `Group values are means of per-run values (a group's p95 is the mean of its runs' p95). ${SIGNIFICANCE_TEST_NAMES[test]}, one-sided, α = ${alpha}, minimum effect ${minEffectPct}%.`;
  const environment = environmentLines(comparison.environment);
  if (environment.length > 0) lines.push("", ...environment);
  lines.push("", `<sub>${method}</sub>`);
  // The unfair differences are said by the verdict already.
  const otherWarnings = comparison.warnings.filter((warning) => !comparison.environment.unfair.includes(warning));
  if (otherWarnings.length > 0) {
    lines.push("", ...otherWarnings.map((warning) => `> ⚠️ ${markdownText(warning)}`));
  }
  return `${lines.join("\n")}\n`;
}
