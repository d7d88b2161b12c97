import { formatDeltaPct, formatMs, formatNumber, formatPct } from "../format";
import type { RunDocument } from "../parsers";
import type { SlaGrade } from "../sla/grade";
import type { GateResult } from "../gate/judge";
import { markdownCode, markdownText } from "./markdown";
import { isAggregate } from "../run";
import { formatResultMetric, formatThroughput, metricShortName, resultDisplayName, resultKindOf, resultKindsOf, wordsOf } from "../result-kind";
import type { ResultKind, ResultKinds } from "../result-kind";
import { thresholdSubject } from "../tool-thresholds";

/**
 * A run as a pull-request comment: what ran, its SLA grade and why, the per-endpoint table, a link.
 * Every piece of user text goes through markdownText (domain/report/markdown.ts): it stays text. A run
 * of benchmarks reads as one (../result-kind.ts): samples, ops/s and time/op, no error rate, and no
 * aggregate row (it holds no numbers: each benchmark is judged on its own).
 */
type ResultRow = RunDocument["endpoints"][number];

/**
 * A PR comment stays short (and far below GitHub's 65,536 characters, with room for the earlier
 * pushes' results a living comment keeps: docs/ci.md): past these, the run's page has the rest.
 */
const MAX_ENDPOINT_ROWS = 25;
const MAX_THRESHOLDS_LISTED = 10;
const MAX_CHANGE_ROWS = 25;

/** A named change's status at a glance: it fails the gate, it could not be established, it improved. */
const STATUS_MARKS = { regressed: "❌", exact: "❌", undecided: "⚠️", improved: "✅" } as const;

/** A reason as a sentence: it ends with one full stop. */
const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);

const more = (count: number, what: string) => `${count} more ${what}${count === 1 ? "" : "s"}`;

function gradeLine(grade: SlaGrade | null, kind: ResultKinds): string {
  if (grade === null) return "No SLA policy: the run is not graded.";
  if (grade.letter === null) return `SLA: no data (${markdownText(grade.reason)}).`;
  const limiting = grade.checks.find((check) => check.passed === false);
  const why = limiting
    ? `; limiting: ${isAggregate(limiting.endpoint) ? wordsOf(kind).aggregate.toLowerCase() : markdownText(limiting.endpoint)} ${limiting.target.metric} ${limiting.headroom?.label ?? ""}`
    : "";
  return `SLA grade **${grade.letter}** (${grade.score}%, ${grade.passed}/${grade.evaluated} checks, ${grade.endpointsCompliant}/${grade.endpointsEvaluated} ${wordsOf(kind).nouns} compliant${why}).`;
}

/** The table's header for a run's kind: a load test's (also a run of both kinds: each row in its own units) or a run of benchmarks'. */
function tableHeader(kind: ResultKinds): string[] {
  return kind === "benchmark"
    ? ["| Benchmark | Samples | Ops/s | Mean | P50 | P95 | P99 |", "|---|--:|--:|--:|--:|--:|--:|"]
    : [`| ${wordsOf(kind).nounTitle} | Count | RPS | P50 | P95 | P99 | Error % |`, "|---|--:|--:|--:|--:|--:|--:|"];
}

/** `name` is Markdown already (escaped user text, or the aggregate's own bold label). */
function row(name: string, result: ResultRow, kind: ResultKinds): string {
  const resultKind = resultKindOf(result);
  const count = formatNumber(result.requests, 0);
  const throughput = formatThroughput(result.throughput, resultKind);
  const { p50, p95, p99, mean } = result.latency;
  if (kind === "benchmark") {
    return `| ${name} | ${count} | ${throughput} | ${formatMs(mean)} | ${formatMs(p50)} | ${formatMs(p95)} | ${formatMs(p99)} |`;
  }
  return `| ${name} | ${count} | ${throughput} | ${formatMs(p50)} | ${formatMs(p95)} | ${formatMs(p99)} | ${formatPct(result.errorRate)} |`;
}

const HEADLINES = {
  fail: "### ❌ Benchtrack: **FAIL**",
  inconclusive: "### ⚠️ Benchtrack: **INCONCLUSIVE**",
  pass: "### ✅ Benchtrack: **PASS**",
} as const;

type GateChange = GateResult["comparison"]["unjudged"][number];
/** A result's kind by name in this run (null: its aggregate). */
type KindOf = (endpoint: string | null) => ResultKind;

/** A change's result and metric in its words: "checkout p95", "sort > BenchmarkSortInts/n=100 mean time/op". */
function describeSubject(change: GateChange, kindOf: KindOf): string {
  const kind = kindOf(change.endpoint);
  return `${markdownText(resultDisplayName(change.endpoint, kind))} ${markdownText(metricShortName(change.metric, kind))}`;
}

function valueOf(change: GateChange, value: number | null, kindOf: KindOf): string {
  return formatResultMetric(change.metric, change.unit, value, kindOf(change.endpoint));
}

/** "All endpoints p95 +75.0% (21.7 ms → 38.1 ms)": a change seen, without a verdict. */
function describeUnjudged(change: GateChange, kindOf: KindOf): string {
  const values = `${valueOf(change, change.base, kindOf)} → ${valueOf(change, change.head, kindOf)}`;
  return `${describeSubject(change, kindOf)} ${formatDeltaPct(change.deltaPct)} (${values})`;
}

function gateLines(gate: GateResult, baseUrl: string, compareUrl: string | null | undefined, kind: ResultKinds, kindOf: KindOf): string[] {
  const { comparison } = gate;
  // The first line is what a PR timeline, a notification and a check title show: the outcome and its
  // reasons in a few words (no user text, so it stays under ~100 characters); the reasons in full below.
  const summary = gate.summary === "" ? "" : `: ${gate.summary}`;
  const headline = `${HEADLINES[gate.outcome]}${summary}${gate.outcome === "pass" && gate.failOn.length === 0 ? " (fail_on=none)" : ""}`;
  const lines = [headline, ""];
  const [reason, ...moreReasons] = gate.reasons.map((text) => markdownText(sentence(text)));
  if (reason !== undefined) {
    lines.push(...(moreReasons.length === 0 ? [`**Why:** ${reason}`] : ["**Why:**", "", ...[reason, ...moreReasons].map((text) => `- ${text}`)]), "");
  }
  // Failed thresholds that fail the run are among the reasons above; listed apart only when fail_on leaves them out.
  if (gate.thresholds.failed.length > 0 && !gate.failOn.includes("thresholds")) {
    const { failed } = gate.thresholds;
    const listed = failed.slice(0, MAX_THRESHOLDS_LISTED).map((threshold) => {
      const subject = thresholdSubject(threshold);
      return `${markdownCode(threshold.expression)}${subject === null ? "" : ` on ${markdownCode(subject)}`}`;
    });
    const rest = failed.length > listed.length ? ` and ${more(failed.length - listed.length, "threshold")}` : "";
    lines.push(`**Tool thresholds failed** (${failed.length} of ${gate.thresholds.evaluated}): ${listed.join(", ")}${rest}.`, "");
  }
  const compareHref = compareUrl !== undefined ? compareUrl : comparison.comparePath ? `${baseUrl}${comparison.comparePath}` : null;
  const compareLink = compareHref ? ` · [compare](${compareHref})` : "";
  lines.push(`Baseline: ${markdownText(comparison.baseline.how)}${compareLink}.`);
  if (comparison.unjudged.length > 0) {
    lines.push("", `Largest changes seen, **not judged**: ${comparison.unjudged.map((change) => describeUnjudged(change, kindOf)).join(" · ")}.`);
  }
  if (gate.notes.length > 0) lines.push("", ...gate.notes.map((note) => `- ${markdownText(note)}`));
  // Every change the gate named, slowdowns first, largest first, each with its status: a reviewer sees
  // each benchmark (or endpoint) that moved beyond the noise, not only the ones that failed the gate.
  if (comparison.changes.length > 0) {
    const head = comparison.headRuns.length > 1 ? `These ${comparison.headRuns.length} rounds` : "This run";
    lines.push("", `| ${wordsOf(kind).nounTitle} | Metric | Baseline | ${head} | Δ | Status |`, "|---|---|--:|--:|--:|---|");
    for (const change of comparison.changes.slice(0, MAX_CHANGE_ROWS)) {
      const changeKind = kindOf(change.endpoint);
      lines.push(
        `| ${markdownText(resultDisplayName(change.endpoint, changeKind))} | ${markdownText(metricShortName(change.metric, changeKind))} | ${valueOf(change, change.base, kindOf)} | ${valueOf(change, change.head, kindOf)} | ${formatDeltaPct(change.deltaPct)} | ${STATUS_MARKS[change.status]} ${markdownText(change.why)} |`,
      );
    }
    if (comparison.changes.length > MAX_CHANGE_ROWS) {
      lines.push("", `…and ${more(comparison.changes.length - MAX_CHANGE_ROWS, "change")} on the comparison page.`);
    }
  }
  lines.push("");
  return lines;
}

/**
 * The upload's PR comment: the CI gate's outcome and why first (when given), then the grade, the table, a link.
 * `compareUrl` replaces the comparison's link (a private server gives a share link there).
 */
export function renderRunMarkdown(
  run: RunDocument & { url: string; grade: SlaGrade | null; budget?: string | null },
  gate?: GateResult,
  baseUrl = "",
  compareUrl?: string | null,
): string {
  const title = markdownText([run.label ?? "run", run.round !== null ? `round ${run.round}` : null].filter(Boolean).join(" "));
  const git = run.environment.git;
  const context = markdownText([run.tool, git.branch, git.commit?.slice(0, 7)].filter(Boolean).join(" · "));
  const kind = run.endpoints.length > 0 ? resultKindsOf(run.endpoints) : resultKindOf(run.aggregate);
  const kinds = new Map(run.endpoints.map((endpoint) => [endpoint.name, resultKindOf(endpoint)]));
  const kindOf: KindOf = (endpoint) => (endpoint === null ? resultKindOf(run.aggregate) : (kinds.get(endpoint) ?? "endpoint"));
  const hidden = run.endpoints.length - MAX_ENDPOINT_ROWS;
  const lines = [
    ...(gate ? gateLines(gate, baseUrl, compareUrl, kind, kindOf) : []),
    `${gate ? "####" : "###"} Benchtrack: ${title}`,
    "",
    // Which budget judged it, when the upload's benchtrack.json did (Settings otherwise, as ever).
    run.budget ? `${gradeLine(run.grade, kind)} ${markdownText(run.budget)}.` : gradeLine(run.grade, kind),
    "",
    `${context} · [open the run](${run.url})`,
    "",
    ...tableHeader(kind),
    ...run.endpoints.slice(0, MAX_ENDPOINT_ROWS).map((endpoint) => row(markdownText(endpoint.name), endpoint, kind)),
    // A run of benchmarks' aggregate holds no numbers: no row of dashes.
    ...(kind === "benchmark" ? [] : [row(`**${wordsOf(kind).aggregate}**`, run.aggregate, kind)]),
    ...(hidden > 0 ? ["", `…and ${hidden} more ${hidden === 1 ? wordsOf(kind).noun : wordsOf(kind).nouns}: [open the run](${run.url}).`] : []),
  ];
  return `${lines.join("\n")}\n`;
}
