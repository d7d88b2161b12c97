import { apiPaths, commitUrl, pagePaths, pullRequestUrl, safeHttpUrl } from "../urls";
import type { EndpointResult, ParsedRun, ToolThreshold } from "../run";
import { resultKindOf, resultKindsOf, wordsOf } from "../result-kind";
import type { ResultKinds } from "../result-kind";
import type { SlaGrade } from "../sla/grade";
import type {
  CheckRow,
  EndpointHistogram,
  EndpointRow,
  EndpointStatusCodes,
  EndpointTimeline,
  ErrorRow,
  MetricRow,
} from "./report-sections";
import {
  toCheckRows,
  toEndpointRow,
  toErrorRows,
  toHistograms,
  toMetricRows,
  toStatusCodes,
  toTimelines,
} from "./report-sections";

/**
 * The run report page's data, shaped for display from a parsed run: one value holds everything the
 * page renders, so components only format numbers (server/domain/format.ts) and never reshape. Links
 * come from server/domain/urls.ts, and outside links only from http(s) URLs.
 */

export interface KeyValue {
  key: string;
  value: string | number | boolean;
}

/**
 * The "compare with…" control's choices: only runs a comparison can judge this run against. Runs of
 * another tool measure another client (compare-runs.ts answers "not comparable"), and a run driven with
 * another load profile measures another load (environment-diff.ts calls it unfair): neither is offered.
 */
export interface CompareLinks {
  /** The tool every choice keeps to. */
  tool: string;
  /** The previous run of the same tool, label, branch and load profile, vs this one. */
  previous: { href: string; title: string } | null;
  /**
   * Groups of runs vs this one, each in words: this label's earlier runs (same tool, branch and load
   * profile, this run left out), then each other label's newest runs of the same tool.
   */
  groups: { label: string; href: string; text: string }[];
  /** Why nothing is offered, when nothing is: shown instead of an empty menu. */
  none: string | null;
}

export interface RunReport {
  project: { slug: string; name: string; repoUrl: string | null };
  run: {
    id: string;
    /** "baseline #1", or the tool's name when the run has no label. */
    title: string;
    label: string | null;
    round: number | null;
    tool: string;
    toolVersion: string | null;
    format: string;
    protocol: string | null;
    /** What the run measured (../result-kind.ts): endpoints of a load test, benchmarks, or both. */
    kind: ResultKinds;
    /** ISO 8601 (UTC). */
    startedAt: string | null;
    uploadedAt: string;
    durationSeconds: number | null;
    git: {
      commit: string | null;
      commitShort: string | null;
      commitUrl: string | null;
      branch: string | null;
      pullRequest: number | null;
      pullRequestUrl: string | null;
    };
    buildUrl: string | null;
    host: { name: string | null; cpus: number | null; memoryGb: number | null };
    /** The hardware the numbers were measured on (docs/benchmarks.md, "Testbeds"); null when nobody named it. */
    testbed: string | null;
    appVersion: string | null;
    config: KeyValue[];
    attributes: KeyValue[];
    notes: string[];
  };
  links: { raw: string; json: string };
  endpoints: EndpointRow[];
  /**
   * The run's aggregate row; null where it holds nothing to show: a run of benchmarks (a mean over
   * unrelated benchmarks means nothing, so they are judged one by one) or an aggregate with no number.
   */
  aggregate: EndpointRow | null;
  metrics: MetricRow[];
  histograms: EndpointHistogram[];
  /** Throughput, failures and latency over the run, where the tool wrote them as it ran. */
  timelines: EndpointTimeline[];
  statusCodes: EndpointStatusCodes[];
  errors: ErrorRow[];
  thresholds: ToolThreshold[];
  checks: CheckRow[];
  /** Against the project's current SLA policy; null when it has none. */
  grade: SlaGrade | null;
  /** Ready-made comparison links for the "compare with…" control. */
  compare: CompareLinks;
  /** Notes on this run ("deployed v2.3"), oldest first. */
  annotations: { id: string; kind: "note" | "deploy" | "change"; text: string; createdAt: string }[];
  /** This run is (part of) a pinned baseline. */
  isPinnedBaseline: boolean;
}

/** How many runs of a label the "compare with the last runs labelled …" links take. */
export const COMPARE_WITH_LAST_RUNS = 5;

/** What the run page's service found to compare a run with (all of the run's tool). */
export interface CompareChoices {
  /** This run's label's earlier runs on its branch with its load profile, newest first (≤ COMPARE_WITH_LAST_RUNS). */
  earlier: readonly { id: string; label: string | null; round: number | null; tool: string }[];
  /** Every other label with runs of the tool, with how many (counted up to COMPARE_WITH_LAST_RUNS: all a link says). */
  labels: readonly { label: string; runs: number }[];
}

const runsWord = (count: number) => (count === 1 ? "run" : "runs");

/**
 * The "compare with…" choices of a run (see CompareLinks): the previous comparable run, this label's
 * earlier runs as a group (two or more), and each other label's newest runs of the same tool (the link
 * names the tool, so the comparison reads that tool's runs only); or, when there is none, why.
 */
export function toCompareLinks(
  projectSlug: string,
  run: { id: string; tool: string; label: string | null; branch: string | null; protocol?: string | null },
  choices: CompareChoices,
): CompareLinks {
  const { tool } = run;
  const [previous] = choices.earlier;
  const groups: CompareLinks["groups"] = [];
  if (choices.earlier.length >= 2) {
    const count = choices.earlier.length;
    groups.push({
      label: run.label ?? "",
      href: pagePaths.compare(projectSlug, { base: choices.earlier.map((earlier) => earlier.id), head: run.id, tool }),
      text: `the ${count} earlier ${tool} runs ${run.label === null ? "without a label" : `labelled ${run.label}`}${run.branch ? ` on ${run.branch}` : ""}`,
    });
  }
  for (const { label, runs } of choices.labels) {
    const count = Math.min(runs, COMPARE_WITH_LAST_RUNS);
    groups.push({
      label,
      href: pagePaths.compare(projectSlug, { base: `label:${label}`, head: run.id, last: COMPARE_WITH_LAST_RUNS, tool }),
      text: `${count === 1 ? "the" : `the last ${count}`} ${tool} ${runsWord(count)} labelled ${label}`,
    });
  }
  const isEmpty = previous === undefined && groups.length === 0;
  return {
    tool,
    previous: previous ? { href: pagePaths.compare(projectSlug, { base: previous.id, head: run.id, tool }), title: runTitle(previous) } : null,
    groups,
    none: isEmpty
      ? `No comparable run yet: no earlier ${tool} run of this label${wordsOf({ protocol: run.protocol ?? null }).hasLoad ? " and load" : ""}, and no other label with ${tool} runs. Runs of other tools are other series.`
      : null,
  };
}

/** A loaded run → the report; `extras` are what the database adds beside the run itself. */
export function toRunReport(
  project: { slug: string; name: string; repoUrl: string | null },
  stored: { id: string; uploadedAt: Date },
  run: ParsedRun,
  extras: Pick<RunReport, "grade" | "compare" | "annotations" | "isPinnedBaseline"> = {
    grade: null,
    compare: { tool: run.tool, previous: null, groups: [], none: null },
    annotations: [],
    isPinnedBaseline: false,
  },
): RunReport {
  const repoUrl = safeHttpUrl(project.repoUrl)?.replace(/\/+$/, "") ?? null;
  const { git, ci, host, testbed, appVersion, config, attributes } = run.environment;
  const protocol = run.aggregate.protocol ?? (typeof config.protocol === "string" ? config.protocol : null);
  const kind = run.endpoints.length > 0 ? resultKindsOf(run.endpoints) : resultKindOf(protocol);
  const compliance = new Map(extras.grade?.byEndpoint.map((entry) => [entry.endpoint, entry.isCompliant]) ?? []);

  return {
    project: { slug: project.slug, name: project.name, repoUrl },
    run: {
      id: stored.id,
      title: runTitle(run),
      label: run.label,
      round: run.round,
      tool: run.tool,
      toolVersion: run.toolVersion,
      format: run.format,
      protocol,
      kind,
      startedAt: run.startedAt,
      uploadedAt: stored.uploadedAt.toISOString(),
      durationSeconds: run.durationSeconds,
      git: {
        commit: git.commit,
        commitShort: git.commit ? git.commit.slice(0, 7) : null,
        commitUrl: git.commit && repoUrl ? commitUrl(repoUrl, git.commit) : null,
        branch: git.branch,
        pullRequest: git.pullRequest,
        pullRequestUrl: git.pullRequest !== null && repoUrl ? pullRequestUrl(repoUrl, git.pullRequest) : null,
      },
      buildUrl: safeHttpUrl(ci.buildUrl),
      host: { ...host },
      testbed,
      appVersion,
      // The protocol has its own place in the header; repeating it among the config adds nothing.
      config: toKeyValues(config).filter((entry) => !(entry.key === "protocol" && entry.value === protocol)),
      attributes: toKeyValues(attributes),
      notes: run.notes,
    },
    links: { raw: apiPaths.runRaw(project.slug, stored.id), json: apiPaths.run(project.slug, stored.id) },
    endpoints: run.endpoints.map((endpoint) => toEndpointRow(endpoint, project.slug, compliance, git.branch)),
    aggregate: kind === "benchmark" || !hasNumbers(run.aggregate) ? null : toEndpointRow(run.aggregate, project.slug, compliance, git.branch),
    metrics: toMetricRows(run),
    histograms: toHistograms(run),
    timelines: toTimelines(run),
    statusCodes: toStatusCodes(run),
    errors: toErrorRows(run),
    thresholds: run.thresholds,
    checks: toCheckRows(run.checks),
    ...extras,
  };
}

/** Whether a result holds any number a table row would show. */
function hasNumbers(result: EndpointResult): boolean {
  const { latency } = result;
  return (
    [result.requests, result.failures, result.throughput, latency.meanMs, latency.maxMs].some((value) => value !== null) ||
    Object.keys(latency.percentiles).length > 0
  );
}

/** "baseline #1", "baseline", "ghz #2" (no label), or "ghz run". */
export function runTitle(run: Pick<ParsedRun, "label" | "round" | "tool">): string {
  const name = run.label ?? run.tool;
  if (run.round !== null) return `${name} #${run.round}`;
  return run.label ?? `${run.tool} run`;
}

function toKeyValues(record: Record<string, string | number | boolean>): KeyValue[] {
  return Object.entries(record)
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => a.key.localeCompare(b.key, "en"));
}
