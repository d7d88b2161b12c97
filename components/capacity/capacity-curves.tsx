"use client";

import Link from "next/link";
import { useMemo } from "react";
import { CapacityChart } from "@/components/charts/capacity-chart";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { chooseXAxis } from "@/server/domain/capacity/capacity-curve";
import type { CapacityXAxis } from "@/server/domain/capacity/capacity-curve";
import { describeLoad, loadKeyTitle } from "@/server/domain/capacity/load-level";
import type { LoadLevelKey } from "@/server/domain/capacity/load-level";
import { formatMs, formatNumber, formatPct, formatRate } from "@/server/domain/format";
import { pagePaths } from "@/server/domain/urls";
import {
  curveName,
  toCapacityMarks,
  toCapacitySeries,
  toCeilingMarks,
  xAxisTitle,
  xTicksOf,
} from "./capacity-chart-data";
import type { CapacityCurveData, CapacityData } from "./capacity-chart-data";
import type { CapacityLine } from "./capacity-view";

/** A curve's title: "base · branch:main", "head · branch:feature-x", or the series alone. */
function curveTitle(curve: CapacityCurveData): string | null {
  const name = curveName(curve);
  if (name === null) return curve.selector;
  return curve.selector === null ? name : `${name} · ${curve.selector}`;
}

/** The chart, its caption (the knee and the SLA limit of each curve, in words) and each curve's levels. */
export function CapacityCurves({
  projectSlug,
  data,
  loadKey,
  requestedAxis,
  lines,
}: {
  projectSlug: string;
  data: CapacityData;
  loadKey: LoadLevelKey;
  requestedAxis: CapacityXAxis;
  lines: readonly CapacityLine[];
}) {
  const allLevels = data.curves.flatMap((curve) => curve.curve?.levels ?? []);
  const { axis, note } = chooseXAxis(allLevels, requestedAxis);
  const series = useMemo(
    () => toCapacitySeries(data.curves, axis, lines, loadKey),
    [data.curves, axis, lines, loadKey],
  );
  const marks = useMemo(
    () => [...toCeilingMarks(data.slaLines, lines), ...toCapacityMarks(data.curves, axis)],
    [data.slaLines, data.curves, lines, axis],
  );
  const chartTitle = `Latency ${lines.join(", ")} in milliseconds against ${xAxisTitle(axis, loadKey).toLowerCase()}, one point per load level`;

  return (
    <div className="space-y-4">
      <Card
        title={
          axis === "throughput"
            ? "Latency against achieved throughput"
            : `Latency against ${loadKeyTitle(loadKey).toLowerCase()}`
        }
      >
        {note && (
          <p className="text-text-muted mb-2 text-xs" data-testid="capacity-axis-note">
            {note}
          </p>
        )}
        <CapacityChart
          series={series}
          marks={marks}
          xLabel={xAxisTitle(axis, loadKey)}
          xTicks={xTicksOf(data.curves, axis)}
          xTickFormat={(value) =>
            axis === "throughput" ? formatNumber(value, value < 100 ? 1 : 0) : formatNumber(value)
          }
          title={chartTitle}
          testId="capacity-chart"
        />
        <div className="mt-3 space-y-2 text-sm" data-testid="capacity-caption">
          {data.curves.map((curve) => {
            const title = curveTitle(curve);
            return (
              <p key={curve.side} data-testid={`capacity-caption-${curve.side}`}>
                {title && <strong className="font-semibold">{title}: </strong>}
                {curve.caption === null ? (
                  <span className="text-text-muted">no runs of this series match.</span>
                ) : (
                  <>
                    <span className="text-text-muted">{curve.caption.levels}. </span>
                    <span data-testid="capacity-knee">{curve.caption.knee}</span>{" "}
                    <span data-testid="capacity-sla">{curve.caption.sla}</span>
                  </>
                )}
              </p>
            );
          })}
        </div>
      </Card>
      {data.curves.map((curve) =>
        curve.curve === null || curve.curve.levels.length === 0 ? null : (
          <Card
            key={curve.side}
            title={`Load levels${curveTitle(curve) ? ` · ${curveTitle(curve)}` : ""}`}
            className="overflow-hidden"
            data-testid={`capacity-levels-${curve.side}`}
          >
            <div className="-m-4">
              <LevelsTable projectSlug={projectSlug} curve={curve} loadKey={loadKey} />
            </div>
          </Card>
        ),
      )}
    </div>
  );
}

function LevelsTable({
  projectSlug,
  curve,
  loadKey,
}: {
  projectSlug: string;
  curve: CapacityCurveData;
  loadKey: LoadLevelKey;
}) {
  const knee = curve.curve?.knee;
  const limit = curve.curve?.slaLimit;
  const kneeLoad = knee?.status === "knee" ? knee.load : null;
  const limitLoad = limit?.status === "limit" ? limit.load : limit?.status === "all-met" ? limit.highestLoad : null;
  return (
    <Table label="Load levels" className="rounded-none border-0">
      <thead>
        <tr>
          <Th>{loadKeyTitle(loadKey)}</Th>
          <Th>Runs</Th>
          <Th numeric>Throughput</Th>
          <Th numeric>p50</Th>
          <Th numeric>p95</Th>
          <Th numeric>p99</Th>
          <Th numeric>Error rate</Th>
          <Th>SLA</Th>
        </tr>
      </thead>
      <tbody>
        {(curve.curve?.levels ?? []).map((level) => (
          <tr key={level.load} className="hover:bg-surface-muted" data-testid="capacity-level">
            <Td>
              <span className="mr-1.5">{describeLoad(loadKey, level.load)}</span>
              {level.load === kneeLoad && <Badge tone="accent">knee</Badge>}{" "}
              {level.load === limitLoad && <Badge tone="good">SLA limit</Badge>}
            </Td>
            <Td>
              <span className="text-text-muted mr-1">
                {level.runIds.length === 1 ? "1 run" : `median of ${level.runIds.length}:`}
              </span>
              {level.runIds.map((runId, index) => (
                <Link
                  key={runId}
                  href={pagePaths.run(projectSlug, runId)}
                  className="text-accent mr-1 hover:underline"
                  title="Open the run"
                >
                  {level.runIds.length === 1 ? "open" : `#${index + 1}`}
                </Link>
              ))}
            </Td>
            <Td numeric>{formatRate(level.throughput)}</Td>
            <Td numeric>{formatMs(level.p50Ms)}</Td>
            <Td numeric>{formatMs(level.p95Ms)}</Td>
            <Td numeric>{formatMs(level.p99Ms)}</Td>
            <Td numeric>{formatPct(level.errorRate)}</Td>
            <Td title={level.sla?.failures.join("; ") || undefined}>
              {level.sla === null ? (
                <span className="text-text-muted">no target</span>
              ) : level.sla.passed === null ? (
                <span className="text-text-muted">no data</span>
              ) : level.sla.passed ? (
                <span className="text-good">✓ met</span>
              ) : (
                <span className="text-bad">✗ {level.sla.failures[0] ?? "missed"}</span>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
