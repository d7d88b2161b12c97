"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { ScopedLink } from "@/components/share/share-context";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Card } from "@/components/ui/card";
import { ShareButton, useShareMinter } from "@/components/share/share-button";
import { CopyButton } from "@/components/ui/copy-button";
import { Table, Td, Th } from "@/components/ui/table";
import { comparisonKindOf, describeNotJudged, explainInconclusive } from "@/server/domain/compare/gate-summary";
import { SIGNIFICANCE_TEST_NAMES } from "@/server/domain/stats/verdict";
import { AGGREGATE_NAME } from "@/server/domain/run";
import { countNouns, formatResultMetric, metricShortName, resultDisplayName, resultKindOf, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { pagePaths } from "@/server/domain/urls";
import { describeRunSet } from "@/server/domain/compare/run-names";
import { ChangeChart, ComparisonChart } from "./comparison-chart";
import { DistributionOverlay } from "./distribution-overlay";
import { ComparisonTable } from "./comparison-table";
import { changeChartData, chartData, roundsTable, tableGroups, TEST_CHOICES } from "./shape";
import type { TableShow } from "./shape";
import type { CompareInput, ComparisonData } from "./types";
import { VerdictBadge } from "./verdict-badge";
import { RoundsNote, UnfairWarning, WhatChanged } from "./what-changed";

export interface CompareViewProps {
  /** compare.get's input, as the page prefetched it. */
  input: CompareInput;
  /** View state from the URL; null metric or endpoint: the comparison's default (defaultView). */
  view: { show: TableShow; metric: string | null; endpoint: string | null };
}

const VERDICT_SENTENCE = {
  regressed: "Head is worse than base.",
  improved: "Head is better than base.",
  unchanged: "No change beyond the noise.",
} as const;

/** The metrics the base-vs-head chart offers, the default first: a load test's p95, a benchmark's mean time/op. */
function chartMetricsOf(kind: ResultKinds): readonly string[] {
  return kind === "benchmark" ? ["mean", "p50", "p99", "throughput"] : ["p50", "p95", "p99", "mean", "throughput"];
}

/**
 * What the chart and the per-round and distribution cards show when the URL does not say: p95 and the
 * aggregate for load tests; for benchmarks, the mean time per operation (what they are gated on) and
 * the first benchmark, since their aggregate holds no numbers.
 */
function defaultView(comparison: ComparisonData["comparison"], kind: ResultKinds): { metric: string; endpoint: string } {
  if (kind !== "benchmark") return { metric: "p95", endpoint: AGGREGATE_NAME };
  return { metric: "mean", endpoint: comparison.endpoints[0]?.name ?? AGGREGATE_NAME };
}

export function CompareView({ input, view }: CompareViewProps) {
  const trpc = useTRPC();
  const { data: result } = useSuspenseQuery(trpc.compare.get.queryOptions(input));
  const { comparison, links, markdown } = result;
  const project = result.project.slug;
  const shareTarget = { compare: { base: input.base, head: input.head, tool: input.tool ?? null, last: input.last } };
  const minter = useShareMinter(project, shareTarget);
  const resultKind = comparisonKindOf(comparison);
  const words = wordsOf(resultKind);
  const defaults = defaultView(comparison, resultKind);
  const metric = view.metric ?? defaults.metric;
  const endpoint = view.endpoint ?? defaults.endpoint;
  const kindOf = (name: string) =>
    resultKindOf(name === AGGREGATE_NAME ? comparison.aggregate : (comparison.endpoints.find((candidate) => candidate.name === name) ?? null));
  const groups = tableGroups(comparison, view.show);
  const why = comparison.notComparable ? null : explainInconclusive(comparison);
  const notJudged = describeNotJudged(comparison);
  const chartMetricSpec = comparison.aggregate.metrics.find((candidate) => candidate.metric === metric);
  const isBenchmarks = resultKind === "benchmark";
  // Benchmarks' values span ns to ms: their chart is of changes, on one axis (ChangeChart).
  const bars = isBenchmarks ? [] : chartData(comparison, metric);
  const changes = isBenchmarks ? changeChartData(comparison, metric) : [];
  const rounds = roundsTable(result, endpoint);
  const roundsKind = kindOf(endpoint);
  // A benchmark's error rate is 0 unless a sample failed: a column of 0.00% says nothing.
  const roundColumns = rounds.columns.filter(
    (column) =>
      roundsKind !== "benchmark" ||
      column.metric !== "errorRate" ||
      [...rounds.base.rows, ...rounds.head.rows].some((row) => (row.values[column.metric] ?? 0) > 0),
  );
  /** This comparison with another view or test; the defaults (welch, gate & changes, the kind's metric and endpoint) stay out of the URL. */
  const viewHref = (changes: Partial<CompareViewProps["view"]>, test = input.test) => {
    const next = { show: view.show, metric, endpoint, ...changes };
    return pagePaths.compare(project, {
      base: input.base,
      head: input.head,
      last: input.last,
      test: test === "welch" ? null : test,
      tool: input.tool,
      show: next.show === "gate" ? null : next.show,
      metric: next.metric === defaults.metric ? null : next.metric,
      endpoint: next.endpoint === defaults.endpoint ? null : next.endpoint,
    });
  };
  const endpointCount = comparison.endpoints.length || 1;
  const perEndpoint = comparison.endpoints.length > 0 && resultKind === "benchmark" ? comparison.endpoints : null;
  // The unfair environment differences are said beside the verdict already.
  const otherWarnings = comparison.warnings.filter((warning) => !comparison.environment.unfair.includes(warning));
  const method =
    comparison.kind === "pairwise"
      ? "1 vs 1: each change is judged against a noise band learnt from recent runs on the base branch."
      : comparison.kind === "group-vs-run"
        ? `One run against ${result.base.runs.length} base runs: is it within what the base would produce? (prediction-interval t test, α = ${result.options.alpha}, minimum effect ${result.options.minEffectPct}%)`
        : `Group values are means of per-run values (a group's p95 is the mean of its runs' p95s, not a pooled p95). ${
          SIGNIFICANCE_TEST_NAMES[result.options.test]
        }, one-sided, α = ${result.options.alpha}, minimum effect ${result.options.minEffectPct}%.`;

  return (
    <div className="space-y-5" data-testid="compare-view">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="space-y-2">
            <div className="flex flex-wrap items-center gap-3" data-testid="compare-verdict">
              <VerdictBadge verdict={comparison.verdict} large />
              <span className="text-sm">
                {comparison.notComparable
                  ? "Not comparable: these runs are several series."
                  : comparison.verdict === "inconclusive"
                    ? `No ${words.noun} could be judged.`
                    : VERDICT_SENTENCE[comparison.verdict]}
              </span>
            </div>
            {why && (
              <p className="max-w-3xl text-sm break-words" data-testid="compare-inconclusive-reason">
                <span className="font-medium text-warn">Why:</span> {why.reason}
              </p>
            )}
            {notJudged && (
              <p className="max-w-3xl text-sm break-words text-text-muted" data-testid="compare-not-judged">
                {notJudged}
              </p>
            )}
            <UnfairWarning sentences={comparison.environment.unfair} />
            <RoundsNote rounds={comparison.rounds} />
            <p className="text-sm" data-testid="compare-sides">
              <span className="font-medium">base</span> {describeRunSet(result.base.runs)} →{" "}
              <span className="font-medium">head</span> {describeRunSet(result.head.runs)}
            </p>
            <p className="text-xs text-text-muted">
              selected by <code className="break-all">{result.base.selector}</code> ({result.base.runs.length}) and{" "}
              <code className="break-all">{result.head.selector}</code> ({result.head.runs.length})
              {input.tool && (
                <>
                  {" "}
                  · tool <code>{input.tool}</code>
                </>
              )}
            </p>
            <p className="text-sm" data-testid="compare-counts">
              <span className="text-bad">{comparison.counts.regressed} regressed</span> ·{" "}
              <span className="text-good">{comparison.counts.improved} improved</span> · {comparison.counts.unchanged} unchanged ·{" "}
              {comparison.counts.inconclusive} inconclusive <span className="text-text-muted">(of {countNouns(endpointCount, resultKind)})</span>
            </p>
            <p className="max-w-3xl text-xs text-text-muted">
              Each {words.noun} is judged on one gate metric (marked in the table), one-sided, corrected for the number of {words.nouns}.{" "}
              {method}
            </p>
            {(comparison.kind === "groups" || comparison.kind === "mixed") && (
              <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="compare-test">
                <span className="text-text-muted">Test:</span>
                {TEST_CHOICES.map((choice) => (
                  <ScopedLink key={choice.test} href={viewHref({}, choice.test)} aria-current={input.test === choice.test ? "true" : undefined} className={TOGGLE}>
                    {choice.label}
                  </ScopedLink>
                ))}
              </div>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <ShareButton project={project} target={shareTarget} what="this comparison" className={BUTTON} />
            {/* For an admin of a private server, the copies link through a share link minted on click; read
                through a share link, links and Markdown carry its token already (compare.get). */}
            <CopyButton
              text={minter.canMint ? async () => (await minter.mintDefault()).url : links.page}
              label="link to this comparison"
              idleText="Copy link"
              className={BUTTON}
              testId="copy-link"
            />
            <CopyButton
              text={minter.canMint ? async () => (await minter.mintDefault()).markdown ?? markdown : markdown}
              label="Markdown for a pull request"
              idleText="Copy Markdown"
              className={BUTTON}
              testId="copy-markdown"
            />
            <a href={links.api} className={BUTTON}>
              JSON
            </a>
          </div>
        </div>
        {comparison.notComparable && (
          <div role="alert" className="mt-4 rounded-md border border-warn p-3 text-sm" data-testid="compare-not-comparable">
            <p className="font-medium text-warn">No verdict: runs of different tools are different series.</p>
            <p className="mt-1">
              {comparison.tools.map((entry) => entry.tool).join(" and ")} measure the same {words.noun} with different clients, so pooling their
              runs would make up a verdict.{" "}
              {links.perTool.length > 0 ? "Compare one tool at a time:" : "No tool has runs on both sides."}
            </p>
            <ul className="mt-1 list-disc pl-5">
              {links.perTool.map((entry) => (
                <li key={entry.tool}>
                  <ScopedLink href={entry.url} className="text-accent underline" data-testid="compare-per-tool">
                    {entry.tool}
                  </ScopedLink>{" "}
                  <span className="text-text-muted">
                    ({entry.base} base run{entry.base === 1 ? "" : "s"} vs {entry.head} head run{entry.head === 1 ? "" : "s"})
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {otherWarnings.length > 0 && (
          <div role="alert" className="mt-4 rounded-md border border-warn p-3 text-sm" data-testid="compare-warnings">
            <p className="font-medium text-warn">Base and head may not be like for like:</p>
            <ul className="mt-1 list-disc pl-5">
              {otherWarnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </div>
        )}
      </Card>

      <WhatChanged environment={comparison.environment} />

      <Card
        title={`Per ${words.noun} and metric`}
        actions={
          <div className="flex gap-2 text-xs">
            <ScopedLink href={viewHref({ show: "gate" })} aria-current={view.show === "gate" ? "true" : undefined} className={TOGGLE}>
              Gate metrics & changes
            </ScopedLink>
            <ScopedLink href={viewHref({ show: "all" })} aria-current={view.show === "all" ? "true" : undefined} className={TOGGLE}>
              All metrics
            </ScopedLink>
          </div>
        }
      >
        {groups.length === 0 ? (
          <p className="text-sm text-text-muted">
            {comparison.notComparable ? "No verdicts: these runs are several series (see above)." : "No metric regressed or improved."} <ScopedLink href={viewHref({ show: "all" })} className="text-accent underline">Show all metrics</ScopedLink>.
          </p>
        ) : (
          <ComparisonTable groups={groups} kind={comparison.kind} resultKind={resultKind} />
        )}
      </Card>

      {(bars.length > 0 || changes.length > 0) && chartMetricSpec && (
        <Card
          title={isBenchmarks ? `Change per benchmark: ${metricShortName(metric, resultKind)}` : `Base vs head: ${metric}`}
          actions={
            <div className="flex flex-wrap gap-2 text-xs">
              {chartMetricsOf(resultKind).map((choice) => (
                <ScopedLink key={choice} href={viewHref({ metric: choice })} aria-current={metric === choice ? "true" : undefined} className={TOGGLE}>
                  {metricShortName(choice, resultKind)}
                </ScopedLink>
              ))}
            </div>
          }
        >
          {isBenchmarks ? (
            <>
              <p className="mb-2 text-xs text-text-muted">
                Head against base, Δ% per benchmark (their times span ns to ms, so their values would not share an axis), coloured by
                verdict, with the 95% CI of Δ where there is one. The values are in the table above and per round below.
              </p>
              <ChangeChart data={changes} metric={metric} kind={resultKind} />
            </>
          ) : (
            <ComparisonChart data={bars} metric={metric} unit={chartMetricSpec.unit} kind={resultKind} />
          )}
        </Card>
      )}

      <DistributionOverlay
        distributions={result.distributions}
        endpoint={endpoint}
        kindOf={kindOf}
        hrefFor={(name) => viewHref({ endpoint: name })}
      />

      <Card
        title={`Per round: ${resultDisplayName(endpoint, roundsKind)}`}
        actions={
          comparison.endpoints.length > 0 && (
            <div className="flex flex-wrap gap-2 text-xs">
              {(perEndpoint ?? [comparison.aggregate, ...comparison.endpoints]).map(({ name }) => (
                <ScopedLink key={name} href={viewHref({ endpoint: name })} aria-current={endpoint === name ? "true" : undefined} className={TOGGLE}>
                  {resultDisplayName(name, kindOf(name))}
                </ScopedLink>
              ))}
            </div>
          )
        }
      >
        <Table label="Per-round values">
          <thead>
            <tr>
              <Th>Side</Th>
              <Th>Run</Th>
              {roundColumns.map((column) => (
                <Th key={column.metric} numeric>
                  {roundsKind === "benchmark" ? metricShortName(column.metric, roundsKind) : column.metric.replace(/^metrics\./, "")}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(["base", "head"] as const).flatMap((side) => [
              ...rounds[side].rows.map((row) => (
                <tr key={`${side}-${row.runId}`}>
                  <Td className="text-text-muted">{side}</Td>
                  <Td>
                    <ScopedLink href={pagePaths.run(project, row.runId)} className="text-accent hover:underline">
                      {[row.label, row.round !== null ? `#${row.round}` : null].filter(Boolean).join(" ") || row.runId.slice(0, 8)}
                    </ScopedLink>
                  </Td>
                  {roundColumns.map((column) => (
                    <Td key={column.metric} numeric>
                      {formatResultMetric(column.metric, column.unit, row.values[column.metric] ?? null, roundsKind)}
                    </Td>
                  ))}
                </tr>
              )),
              <tr key={`${side}-mean`} className="bg-surface-muted font-medium" data-testid={`rounds-mean-${side}`}>
                <Td>{side}</Td>
                <Td>Avg ({rounds[side].rows.length})</Td>
                {roundColumns.map((column) => (
                  <Td key={column.metric} numeric>
                    {formatResultMetric(column.metric, column.unit, rounds[side].mean[column.metric] ?? null, roundsKind)}
                  </Td>
                ))}
              </tr>,
            ])}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}

const BUTTON =
  "rounded-md border border-border bg-surface px-3 py-1.5 text-sm text-text hover:bg-surface-muted focus-visible:outline-2";
const TOGGLE =
  "rounded border border-border px-2 py-0.5 text-text-muted hover:text-text aria-[current=true]:border-accent aria-[current=true]:text-text";
