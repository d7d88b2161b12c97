"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTransition } from "react";
import { cn } from "@/components/lib/cn";
import { useTRPC } from "@/components/providers/trpc-provider";
import { EndpointSwitcher } from "@/components/trends/endpoint-switcher";
import { LabeledSelect, LineToggles, Segmented } from "@/components/trends/trend-controls";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import type { CapacityXAxis } from "@/server/domain/capacity/capacity-curve";
import { describeLoad, loadKeyTitle, LOAD_LEVEL_KEYS } from "@/server/domain/capacity/load-level";
import type { LoadLevelKey } from "@/server/domain/capacity/load-level";
import { AGGREGATE_DISPLAY_NAME, AGGREGATE_URL_NAME } from "@/server/domain/run";
import { pagePaths } from "@/server/domain/urls";
import { drawableLevels } from "./capacity-chart-data";
import type { CapacityData } from "./capacity-chart-data";
import { CapacityCompareForm } from "./capacity-compare-form";
import { CapacityCurves } from "./capacity-curves";
import {
  CAPACITY_LINES,
  capacityLinesOf,
  capacityQueryInput,
  parseCapacityView,
  serializeCapacityView,
} from "./capacity-view";
import type { CapacityLine, CapacityView } from "./capacity-view";

/**
 * `/projects/{p}/capacity`: an endpoint's latency against throughput at each load level of one series,
 * its knee and the highest load that met the SLA; two curves (base and head) on one chart. Data comes
 * prefetched by the page; view state lives in the URL. Lines and the x axis only change the drawing
 * (URL replaced in place); the endpoint, series, load key and curves read other runs (navigation).
 */
export function CapacityPage({ projectSlug }: { projectSlug: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const view = parseCapacityView(new URLSearchParams(searchParams.toString()));
  const [isPending, startTransition] = useTransition();
  const { data } = useSuspenseQuery(trpc.capacity.get.queryOptions(capacityQueryInput(projectSlug, view)));

  const replaceView = (next: CapacityView) => {
    const query = serializeCapacityView(next);
    window.history.replaceState(null, "", query === "" ? pathname : `${pathname}?${query}`);
  };
  const navigateView = (next: CapacityView) =>
    startTransition(() => router.push(pagePaths.capacity(projectSlug, serializeCapacityView(next)), { scroll: false }));
  // The endpoint's protocol and the series stay in the URL once known, so a link keeps naming them.
  const current: CapacityView = {
    ...view,
    endpoint: data.endpoint.name,
    protocol: data.endpoint.isAggregate ? null : data.endpoint.protocol,
    tool: data.series?.tool ?? view.tool,
    label: data.series ? data.series.label : view.label,
  };
  const identity = data.endpoint.isAggregate ? null : { name: data.endpoint.name, protocol: data.endpoint.protocol };
  const lines = capacityLinesOf(view, data.isComparison);
  const title = data.endpoint.isAggregate ? AGGREGATE_DISPLAY_NAME : data.endpoint.name;
  const trendsHref = pagePaths.endpoint(
    projectSlug,
    identity,
    new URLSearchParams(data.series ? { tool: data.series.tool } : {}),
  );

  return (
    <div className={cn("space-y-4", isPending && "opacity-70 transition-opacity")} aria-busy={isPending}>
      <PageHeader
        title={title}
        subtitle={
          <span className="flex flex-wrap items-center gap-x-2">
            <span>Capacity: latency against throughput at each load level</span>
            {data.endpoint.protocol && <Badge>{data.endpoint.protocol}</Badge>}
          </span>
        }
        actions={
          <>
            <EndpointSwitcher
              current={identity}
              endpoints={data.endpoints}
              onChange={(endpoint) =>
                navigateView({
                  ...view,
                  endpoint: endpoint?.name ?? AGGREGATE_URL_NAME,
                  protocol: endpoint?.protocol ?? null,
                })
              }
            />
            <Link
              href={trendsHref}
              className="text-accent self-center text-xs hover:underline"
              data-testid="capacity-trends-link"
            >
              Trends
            </Link>
          </>
        }
      />

      <SeriesControls
        data={data}
        view={current}
        lines={lines}
        onNavigate={navigateView}
        onReplace={(next) => replaceView({ ...view, ...next })}
      />
      <CapacityCompareForm projectSlug={projectSlug} data={data} view={current} />

      <CapacityBody projectSlug={projectSlug} data={data} view={current} lines={lines} />
    </div>
  );
}

function SeriesControls({
  data,
  view,
  lines,
  onNavigate,
  onReplace,
}: {
  data: CapacityData;
  view: CapacityView;
  lines: CapacityLine[];
  onNavigate: (next: CapacityView) => void;
  onReplace: (next: Partial<CapacityView>) => void;
}) {
  const options = [...data.seriesOptions];
  if (
    data.series &&
    !options.some((option) => option.tool === data.series!.tool && option.label === data.series!.label)
  ) {
    options.unshift({ ...data.series, runs: 0, levels: 0 });
  }
  // The drawing choices only show when there is a chart to draw.
  const canDraw = data.loadKey !== null && drawableLevels(data.curves) >= 2;
  const selected = options.findIndex(
    (option) => option.tool === data.series?.tool && option.label === data.series?.label,
  );
  // The toggles are the trend page's (their type is every trend line); only p50, p95 and p99 are offered.
  const toggle = (line: string) => {
    const next: string[] = lines.includes(line as CapacityLine)
      ? lines.filter((candidate) => candidate !== line)
      : [...lines, line];
    onReplace({ lines: CAPACITY_LINES.filter((candidate) => next.includes(candidate)) });
  };
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="capacity-controls">
      {options.length > 0 && (
        <LabeledSelect
          id="capacity-series"
          label="Series"
          value={String(selected)}
          onChange={(value) => {
            const option = options[Number(value)];
            if (option) onNavigate({ ...view, tool: option.tool, label: option.label, load: null });
          }}
        >
          {options.map((option, index) => (
            <option key={`${option.tool}\u0000${option.label ?? ""}`} value={String(index)}>
              {option.tool} · {option.label ?? "no label"} ({option.runs} runs, {option.levels} level
              {option.levels === 1 ? "" : "s"})
            </option>
          ))}
        </LabeledSelect>
      )}
      {data.loadKeys.length > 1 && data.loadKey !== null && (
        <LabeledSelect
          id="capacity-load"
          label="Load level"
          value={data.loadKey}
          onChange={(value) => onNavigate({ ...view, load: LOAD_LEVEL_KEYS.find((key) => key === value) ?? null })}
        >
          {data.loadKeys.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {loadKeyTitle(choice.key)} ({choice.levels} level{choice.levels === 1 ? "" : "s"})
            </option>
          ))}
        </LabeledSelect>
      )}
      {canDraw && (
        <>
          <Segmented<CapacityXAxis>
            label="X axis"
            options={[
              { value: "throughput", text: "Throughput" },
              { value: "load", text: "Load level" },
            ]}
            value={view.x}
            onChange={(x) => onReplace({ x })}
            testId="capacity-x-axis"
          />
          <LineToggles available={CAPACITY_LINES} enabled={lines} onToggle={toggle} />
        </>
      )}
    </div>
  );
}

/** The chart, or why there is none: no runs, or fewer than two load levels to draw a curve through. */
function CapacityBody({
  projectSlug,
  data,
  view,
  lines,
}: {
  projectSlug: string;
  data: CapacityData;
  view: CapacityView;
  lines: CapacityLine[];
}) {
  if (data.series === null) {
    return (
      <EmptyState title="No runs measured this endpoint yet">
        Upload runs that include it, at several load levels.
      </EmptyState>
    );
  }
  const loadKey = data.loadKey;
  const notes = curveNotes(projectSlug, data, view, loadKey);
  if (loadKey === null || drawableLevels(data.curves) < 2) {
    return (
      <>
        {notes}
        <SingleLevel data={data} loadKey={loadKey} />
      </>
    );
  }
  return (
    <>
      {notes}
      <CapacityCurves projectSlug={projectSlug} data={data} loadKey={loadKey} requestedAxis={view.x} lines={lines} />
    </>
  );
}

/** What the reader must know about the runs drawn: several branches mixed, runs without a level, a cut. */
function curveNotes(projectSlug: string, data: CapacityData, view: CapacityView, loadKey: LoadLevelKey | null) {
  const notes: React.ReactNode[] = [];
  const [only] = data.curves;
  if (!data.isComparison && only && only.selector === null && only.branches.length > 1) {
    const base = only.branches.find((branch) => branch === "main" || branch === "master") ?? only.branches[0]!;
    const head = only.branches.find((branch) => branch !== base)!;
    const href = pagePaths.capacity(
      projectSlug,
      serializeCapacityView({ ...view, base: `branch:${base}`, head: `branch:${head}`, lines: null }),
    );
    notes.push(
      <p key="branches" data-testid="capacity-branches-note">
        These runs come from {only.branches.length} branches ({only.branches.join(", ")}), pooled into one curve.{" "}
        <Link href={href} className="text-accent hover:underline">
          Compare {base} with {head}
        </Link>
      </p>,
    );
  }
  for (const curve of data.curves) {
    const prefix = curve.side === "all" ? "" : `${curve.side}: `;
    if (loadKey !== null && curve.withoutLevel > 0) {
      notes.push(
        <p key={`without-${curve.side}`}>
          {prefix}
          {curve.withoutLevel} run{curve.withoutLevel === 1 ? "" : "s"} of this series state
          {curve.withoutLevel === 1 ? "s" : ""} no {loadKeyTitle(loadKey).toLowerCase()}: not drawn.
        </p>,
      );
    }
    if (curve.isTruncated)
      notes.push(
        <p key={`cut-${curve.side}`}>
          {prefix}only the newest {curve.runCount} runs are drawn.
        </p>,
      );
  }
  return notes.length === 0 ? null : (
    <div className="text-text-muted space-y-1 text-xs" data-testid="capacity-notes">
      {notes}
    </div>
  );
}

/** The honest empty state: a capacity curve needs the same test run at several loads. */
function SingleLevel({ data, loadKey }: { data: CapacityData; loadKey: LoadLevelKey | null }) {
  const levels = [...new Set(data.curves.flatMap((curve) => curve.curve?.levels.map((level) => level.load) ?? []))];
  const runs = data.curves.reduce((sum, curve) => sum + curve.runCount, 0);
  const series = `${data.series!.tool} · ${data.series!.label ?? "no label"}`;
  const where =
    loadKey !== null && levels.length === 1
      ? `all at ${describeLoad(loadKey, levels[0]!)}`
      : runs === 0
        ? "none match"
        : "none states a load level (VUs, users, concurrency, connections or a request rate)";
  return (
    <EmptyState title="Capacity needs runs at 3 or more load levels: upload runs with different VUs/rate">
      <p data-testid="capacity-empty-detail">
        This series ({series}) has {runs} run{runs === 1 ? "" : "s"}, {where}. Run the same test at three or more loads
        and upload each with its level as metadata, for example <code className="font-mono">config.vus=50</code> (or{" "}
        <code className="font-mono">config.rate</code>, <code className="font-mono">config.users</code>,{" "}
        <code className="font-mono">config.concurrency</code>), under one label:
      </p>
      <pre className="bg-surface-muted mt-2 overflow-x-auto rounded-md p-2 font-mono text-xs">
        {`curl --data-binary @summary.json -H "Authorization: Bearer $BENCHTRACK_TOKEN" \\\n  "$BENCHTRACK_URL/api/v1/projects/<project>/runs?label=capacity&config.vus=50"`}
      </pre>
    </EmptyState>
  );
}
