import { Fragment } from "react";
import { cn } from "@/components/lib/cn";
import { Badge } from "@/components/ui/badge";
import { STACKED_LEAD, STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import type { Comparison, MetricComparison } from "@/server/domain/compare/compare-runs";
import { formatDeltaPct, formatPct, formatPValue, MISSING } from "@/server/domain/format";
import { AGGREGATE_NAME } from "@/server/domain/run";
import { formatResultMetric, metricShortName, resultDisplayName, wordsOf } from "@/server/domain/result-kind";
import type { ResultKind, ResultKinds } from "@/server/domain/result-kind";
import type { TableGroup } from "./shape";
import { VerdictBadge } from "./verdict-badge";

function formatCi(metric: MetricComparison): string {
  // noiseBandPct is in percent; formatPct takes a fraction.
  if (!metric.deltaPctCi95) return metric.noiseBandPct !== null ? `band ±${formatPct(metric.noiseBandPct / 100, 1)}` : MISSING;
  const [low, high] = metric.deltaPctCi95;
  return `${formatDeltaPct(low)} … ${formatDeltaPct(high)}`;
}

function sideValue(metric: MetricComparison, side: "base" | "head", kind: ResultKind): string {
  const summary = metric[side];
  const value = formatResultMetric(metric.metric, metric.unit, summary.mean, kind);
  return summary.n > 1 ? `${value} (n=${summary.n})` : value;
}

/** "p95 (auto: every run has ≥ 200 requests)" → "auto: every run has ≥ 200 requests". */
function gateWhy(gateMetric: NonNullable<TableGroup["gateMetric"]>): string {
  const prefix = `${gateMetric.name} (`;
  return gateMetric.why.startsWith(prefix) && gateMetric.why.endsWith(")") ? gateMetric.why.slice(prefix.length, -1) : gateMetric.why;
}

/** "metrics.iterations_per_second" may break after its dots and underscores, so a long name does not widen the table. */
function BreakableName({ name }: { name: string }) {
  return name.split(/(?<=[._])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

const COLUMNS = 8;

/**
 * Below `sm` each row is a section of its endpoint's card, verdict first: metric and verdict, Δ and
 * p, the CI, then base and head; the endpoint's name heads its first row.
 */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:col-span-2 max-sm:text-base max-sm:empty:hidden",
  metric: "max-sm:order-2",
  verdict: "max-sm:order-3 max-sm:text-right",
  delta: `max-sm:order-4 ${STACKED_LEAD}`,
  p: "max-sm:order-5 max-sm:self-end",
  ci: "max-sm:order-6 max-sm:col-span-2 max-sm:text-left",
  base: "max-sm:order-7 max-sm:text-left",
  head: "max-sm:order-8",
} as const;

/**
 * Per endpoint and metric, one body per endpoint: each endpoint names its gate metric and why that
 * one (the CI gate decides on it), and a gate metric that could not be judged says why in full, under
 * its row; another metric not judged says why in a few words. Never only in a tooltip. Below `sm` the
 * same cells stack into a card per endpoint (PHONE), so a phone sees the verdicts without scrolling
 * sideways.
 */
export function ComparisonTable({ groups, kind, resultKind }: { groups: TableGroup[]; kind: Comparison["kind"]; resultKind: ResultKinds }) {
  const ciHeader = kind === "pairwise" ? "Noise band (1 vs 1)" : kind === "groups" ? "95% CI of Δ" : "95% CI of Δ / band";
  const words = wordsOf(resultKind);
  return (
    <Table label={`Comparison per ${words.noun} and metric`} stacked>
      <thead>
        <tr>
          <Th>{words.nounTitle}</Th>
          <Th>Metric</Th>
          <Th numeric>Base</Th>
          <Th numeric>Head</Th>
          <Th numeric>Δ</Th>
          <Th numeric>{ciHeader}</Th>
          <Th numeric>p (one-sided)</Th>
          <Th>Verdict</Th>
        </tr>
      </thead>
      {groups.map((group) => {
        const shade = group.endpoint === AGGREGATE_NAME ? "bg-surface-muted" : undefined;
        return (
          <tbody key={group.endpoint} data-testid="compare-group">
            {group.rows.map(({ metric, reason, note }, index) => (
              <Fragment key={metric.metric}>
                <tr
                  data-testid="compare-row"
                  data-gate={metric.gate ? "true" : undefined}
                  className={cn(STACKED_PAIR_ROW, shade, reason && "max-sm:border-b-0! [&>td]:border-b-0")}
                >
                  {/* A long name (a benchmark's group and parameters) wraps rather than pushing the verdict out of view. */}
                  <Td wrap className={cn("max-w-72 min-w-40 align-top font-medium [overflow-wrap:anywhere] max-sm:max-w-none", PHONE.endpoint)} data-column="endpoint">
                    {index === 0 && (
                      <>
                        {resultDisplayName(group.endpoint, group.kind)}
                        {group.gateMetric && (
                          <span className="block min-w-40 text-xs font-normal whitespace-normal text-text-muted" data-testid="compare-gate-metric">
                            gate: {metricShortName(group.gateMetric.name, group.kind)} ({gateWhy(group.gateMetric)})
                          </span>
                        )}
                      </>
                    )}
                  </Td>
                  <Td className={cn("align-top", PHONE.metric)} title={metric.aggregation} data-column="metric">
                    <BreakableName name={metricShortName(metric.metric, group.kind)} />
                    {metric.gate && (
                      <>
                        {" "}
                        <Badge tone="accent" title={`The CI gate judges this ${wordsOf(group.kind).noun} on this metric`}>
                          gate
                        </Badge>
                      </>
                    )}
                  </Td>
                  <Td numeric label="base" className={cn("align-top", PHONE.base)} data-column="base">
                    {sideValue(metric, "base", group.kind)}
                  </Td>
                  <Td numeric label="head" className={cn("align-top", PHONE.head)} data-column="head">
                    {sideValue(metric, "head", group.kind)}
                  </Td>
                  <Td
                    numeric
                    className={cn(
                      "align-top",
                      metric.verdict === "regressed" ? "text-bad" : metric.verdict === "improved" ? "text-good" : undefined,
                      PHONE.delta,
                    )}
                    data-column="delta"
                  >
                    {formatDeltaPct(metric.deltaPct)}
                    {metric.verdict === "inconclusive" && metric.deltaPct !== null && (
                      <span className="block text-xs font-normal text-text-muted">not judged</span>
                    )}
                  </Td>
                  <Td numeric label={ciHeader} className={cn("align-top", PHONE.ci)} data-column="ci">
                    {formatCi(metric)}
                  </Td>
                  <Td numeric className={cn("align-top", PHONE.p)} data-column="p">
                    {formatPValue(metric.pValue)}
                  </Td>
                  <Td className={cn("align-top", PHONE.verdict)} data-column="verdict">
                    <VerdictBadge verdict={metric.verdict} title={metric.reason} />
                    {note && (
                      <span className="block text-xs text-text-muted" data-testid="compare-row-note">
                        {note}
                      </span>
                    )}
                  </Td>
                </tr>
                {reason && (
                  <tr className={shade} data-testid="compare-row-reason">
                    <Td colSpan={COLUMNS} wrap className="pt-0 text-xs">
                      {/* Readable without scrolling the table sideways on a phone. */}
                      <p className="sticky left-3 max-w-[calc(100vw-6rem)] break-words">
                        <span className="font-medium text-warn">Not judged:</span> {reason}
                      </p>
                    </Td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        );
      })}
    </Table>
  );
}
