import { Fragment } from "react";
import { cn } from "@/components/lib/cn";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import type { Comparison, MetricComparison } from "@/server/domain/compare/compare-runs";
import { formatDeltaPct, formatMetricValue, formatPct, formatPValue, MISSING } from "@/server/domain/format";
import { AGGREGATE_NAME, endpointDisplayName } from "@/server/domain/run";
import type { TableGroup } from "./shape";
import { VerdictBadge } from "./verdict-badge";

function formatCi(metric: MetricComparison): string {
  // noiseBandPct is in percent; formatPct takes a fraction.
  if (!metric.deltaPctCi95) return metric.noiseBandPct !== null ? `band ±${formatPct(metric.noiseBandPct / 100, 1)}` : MISSING;
  const [low, high] = metric.deltaPctCi95;
  return `${formatDeltaPct(low)} … ${formatDeltaPct(high)}`;
}

function sideValue(metric: MetricComparison, side: "base" | "head"): string {
  const summary = metric[side];
  const value = formatMetricValue(metric.metric, metric.unit, summary.mean);
  return summary.n > 1 ? `${value} (n=${summary.n})` : value;
}

/** "p95 (auto: every run has ≥ 200 requests)" → "auto: every run has ≥ 200 requests". */
function gateWhy(gateMetric: NonNullable<TableGroup["gateMetric"]>): string {
  const prefix = `${gateMetric.name} (`;
  return gateMetric.why.startsWith(prefix) && gateMetric.why.endsWith(")") ? gateMetric.why.slice(prefix.length, -1) : gateMetric.why;
}

const COLUMNS = 8;

/**
 * Per endpoint and metric: each endpoint names its gate metric and why that one (the CI gate decides on
 * it), and a gate metric that could not be judged says why in full, under its row; another metric not
 * judged says why in a few words. Never only in a tooltip.
 */
export function ComparisonTable({ groups, kind }: { groups: TableGroup[]; kind: Comparison["kind"] }) {
  return (
    <Table label="Comparison per endpoint and metric">
      <thead>
        <tr>
          <Th>Endpoint</Th>
          <Th>Metric</Th>
          <Th numeric>Base</Th>
          <Th numeric>Head</Th>
          <Th numeric>Δ</Th>
          <Th numeric>{kind === "pairwise" ? "Noise band (1 vs 1)" : kind === "groups" ? "95% CI of Δ" : "95% CI of Δ / band"}</Th>
          <Th numeric>p (one-sided)</Th>
          <Th>Verdict</Th>
        </tr>
      </thead>
      <tbody>
        {groups.flatMap((group) =>
          group.rows.map(({ metric, reason, note }, index) => {
            const shade = group.endpoint === AGGREGATE_NAME ? "bg-surface-muted" : undefined;
            return (
              <Fragment key={`${group.endpoint}-${metric.metric}`}>
                <tr
                  data-testid="compare-row"
                  data-gate={metric.gate ? "true" : undefined}
                  className={cn(shade, reason && "[&>td]:border-b-0")}
                >
                  <Td className="align-top font-medium">
                    {index === 0 && (
                      <>
                        {endpointDisplayName(group.endpoint)}
                        {group.gateMetric && (
                          <span className="block min-w-40 text-xs font-normal whitespace-normal text-text-muted" data-testid="compare-gate-metric">
                            gate: {group.gateMetric.name} ({gateWhy(group.gateMetric)})
                          </span>
                        )}
                      </>
                    )}
                  </Td>
                  <Td className="align-top" title={metric.aggregation}>
                    {metric.metric}
                    {metric.gate && (
                      <>
                        {" "}
                        <Badge tone="accent" title="The CI gate judges this endpoint on this metric">
                          gate
                        </Badge>
                      </>
                    )}
                  </Td>
                  <Td numeric className="align-top">
                    {sideValue(metric, "base")}
                  </Td>
                  <Td numeric className="align-top">
                    {sideValue(metric, "head")}
                  </Td>
                  <Td
                    numeric
                    className={`align-top ${metric.verdict === "regressed" ? "text-bad" : metric.verdict === "improved" ? "text-good" : ""}`}
                  >
                    {formatDeltaPct(metric.deltaPct)}
                    {metric.verdict === "inconclusive" && metric.deltaPct !== null && (
                      <span className="block text-xs text-text-muted">not judged</span>
                    )}
                  </Td>
                  <Td numeric className="align-top">
                    {formatCi(metric)}
                  </Td>
                  <Td numeric className="align-top">
                    {formatPValue(metric.pValue)}
                  </Td>
                  <Td className="align-top">
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
            );
          }),
        )}
      </tbody>
    </Table>
  );
}
