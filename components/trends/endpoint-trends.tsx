"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTransition } from "react";
import { cn } from "@/components/lib/cn";
import { DEFAULT_CAPACITY_VIEW, serializeCapacityView } from "@/components/capacity/capacity-view";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { AGGREGATE_URL_NAME, NO_TESTBED } from "@/server/domain/run";
import { resultKindOf, resultKindsOf, wordsOf } from "@/server/domain/result-kind";
import { MIN_TREND_RUNS } from "@/server/domain/series/trend-series";
import { pagePaths } from "@/server/domain/urls";
import { BucketTrends } from "./bucket-trends";
import { EndpointSwitcher } from "./endpoint-switcher";
import { LatestRunsTable } from "./latest-runs-table";
import { MetricTrends } from "./metric-trends";
import { SingleRun } from "./single-run";
import { describeShownRuns } from "./trend-chart-data";
import { TrendCharts } from "./trend-charts";
import { OverlaySelect, TrendFilters, XModeToggle } from "./trend-controls";
import { BranchControls, BranchNote } from "./branch-controls";
import { branchName, overlayBaseBranch } from "@/server/domain/series/trend-branches";
import { parseTrendView, serializeTrendView, trendsQueryInput } from "./trend-view";
import type { TrendView } from "./trend-view";

/**
 * `/projects/{p}/endpoints/{name}`: an endpoint's (or the aggregate's) trends. Data comes prefetched
 * by the page (first paint has it); view state lives in the URL. Lines and x mode only change the
 * drawing (URL replaced in place, no request); range, branch and label read other runs (navigation,
 * so the server prefetches them and the URL is shareable).
 */
export function EndpointTrends({ projectSlug, endpoint }: { projectSlug: string; endpoint: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const view = parseTrendView(new URLSearchParams(searchParams.toString()));
  const [isPending, startTransition] = useTransition();
  const { data } = useSuspenseQuery(trpc.endpoint.trends.queryOptions(trendsQueryInput(projectSlug, endpoint, view)));

  const replaceView = (next: TrendView) => {
    const query = serializeTrendView(next);
    window.history.replaceState(null, "", query === "" ? pathname : `${pathname}?${query}`);
  };
  const navigateTo = (href: string) => startTransition(() => router.push(href, { scroll: false }));
  // The endpoint's protocol stays in the URL once known, so the view keeps naming one endpoint.
  const identity = data.endpoint.isAggregate ? null : { name: data.endpoint.name, protocol: data.endpoint.protocol };
  const navigateView = (next: TrendView) =>
    navigateTo(pagePaths.endpoint(projectSlug, identity, serializeTrendView({ ...next, protocol: null })));
  const openRun = (runId: string) => router.push(pagePaths.run(projectSlug, runId));

  // An endpoint's or a benchmark's words (server/domain/result-kind.ts); the aggregate's are the project's.
  const kind = data.endpoint.isAggregate ? resultKindsOf(data.endpoints) : resultKindOf(data.endpoint);
  const words = wordsOf(kind);
  const title = data.endpoint.isAggregate ? words.aggregate : data.endpoint.name;
  const hasFilters =
    view.branches.length > 0 || view.label !== null || view.tool !== null || view.testbed !== null || view.range !== "all";

  return (
    <div className={cn("space-y-4", isPending && "opacity-70 transition-opacity")} aria-busy={isPending}>
      <PageHeader
        title={title}
        subtitle={
          <span className="flex flex-wrap gap-x-2">
            <span>{data.endpoint.isAggregate ? "The run aggregate trends" : words.trends}</span>
            {data.endpoint.fullName && data.endpoint.fullName !== data.endpoint.name && (
              <span className="font-mono text-xs">{data.endpoint.fullName}</span>
            )}
            {data.endpoint.protocol && kind !== "benchmark" && <Badge>{data.endpoint.protocol}</Badge>}
          </span>
        }
        actions={
          <>
            <EndpointSwitcher
              current={identity}
              endpoints={data.endpoints}
              onChange={(endpoint) =>
                navigateTo(pagePaths.endpoint(projectSlug, endpoint, serializeTrendView({ ...view, protocol: null })))
              }
            />
            {/* Capacity is load against latency: a benchmark has no load to chart it against. */}
            {words.hasLoad && (
              <Link
                href={pagePaths.capacity(
                  projectSlug,
                  serializeCapacityView({
                    ...DEFAULT_CAPACITY_VIEW,
                    endpoint: identity?.name ?? AGGREGATE_URL_NAME,
                    protocol: identity?.protocol ?? null,
                    tool: data.tool,
                  }),
                )}
                className="text-accent self-center text-xs hover:underline"
                data-testid="trend-capacity-link"
              >
                Capacity
              </Link>
            )}
          </>
        }
      />

      <BranchControls
        branches={data.branches}
        defaultBranch={data.defaultBranch}
        options={data.filters.branches}
        onChange={(branches) => navigateView({ ...view, branches })}
      />
      <BranchNote
        branches={data.branches}
        defaultBranch={data.defaultBranch}
        hrefFor={(branches) => pagePaths.endpoint(projectSlug, identity, serializeTrendView({ ...view, protocol: null, branches }))}
      />
      <TrendFilters
        range={view.range}
        label={view.label}
        labels={data.filters.labels}
        tool={data.tool}
        tools={data.filters.tools}
        onRange={(range) => navigateView({ ...view, range })}
        onLabel={(label) => navigateView({ ...view, label })}
        onTool={(tool) => navigateView({ ...view, tool })}
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <OverlaySelect
          value={view.overlay}
          baseBranch={data.overlay?.baseBranch ?? overlayBaseBranch(data.branches, data.defaultBranch)}
          branches={data.filters.branches}
          pullRequests={data.filters.pullRequests}
          onChange={(overlay) => navigateView({ ...view, overlay })}
        />
        {data.overlay && data.branches.kind === "some" && data.branches.why === "default" && (
          <p className="text-text-muted text-xs" data-testid="trend-overlay-base">
            Base: {data.defaultBranch}, the default branch, only.
          </p>
        )}
      </div>
      {view.tool === null && data.tool !== null && data.filters.tools.length > 1 && (
        <p className="text-text-muted text-xs" data-testid="trend-tool-note">
          Showing {data.tool} runs only, the tool of the latest run: runs of different tools are different series.
        </p>
      )}
      {data.testbeds.length > 1 && (
        <p className="text-text-muted text-xs" data-testid="trend-testbed-note">
          {data.testbed
            ? `Showing runs on testbed ${data.testbed.name ?? "(none named)"} only${view.testbed === null ? ", the latest run's" : ""}: runs on different hardware are different series. Other testbeds: `
            : "Showing every testbed's runs, as asked: they are different series. One testbed: "}
          {data.testbeds
            .filter((entry) => !data.testbed || entry.testbed !== data.testbed.name)
            .map((entry, index) => (
              <span key={entry.testbed ?? NO_TESTBED}>
                {index > 0 && ", "}
                <Link
                  className="text-accent hover:underline"
                  href={pagePaths.endpoint(
                    projectSlug,
                    identity,
                    serializeTrendView({ ...view, protocol: null, testbed: entry.testbed ?? NO_TESTBED }),
                  )}
                >
                  {entry.testbed ?? "none named"} ({entry.runs} {entry.runs === 1 ? "run" : "runs"})
                </Link>
              </span>
            ))}
        </p>
      )}

      {data.totalRuns === 0 ? (
        <EmptyState
          title={
            hasFilters
              ? "No runs match these filters"
              : `No runs measured this ${data.endpoint.isAggregate ? "project" : words.noun} yet`
          }
        >
          {hasFilters ? (
            <Link href={pagePaths.endpoint(projectSlug, identity)} className="text-accent hover:underline">
              Clear the filters
            </Link>
          ) : (
            "Upload a run that includes it and its trend appears here."
          )}
        </EmptyState>
      ) : data.endpoint.isAggregate && kind === "benchmark" ? (
        <EmptyState title="Benchmarks have no aggregate trend">
          A run of benchmarks holds no numbers for all its benchmarks together (a mean over unrelated benchmarks means
          nothing): each benchmark is its own series, judged one by one. Pick one above.
        </EmptyState>
      ) : data.buckets ? (
        <>
          {data.buckets.isFirstBranchOnly && (
            <p className="text-text-muted text-xs" data-testid="trend-bucket-branch-note">
              Zoomed out, one branch is drawn: {branchName(data.buckets.branch)}. Pick a shorter range (30 or 90 days) to draw one line
              per branch.
            </p>
          )}
          <BucketTrends
            projectSlug={projectSlug}
            data={data}
            buckets={data.buckets}
            kind={kind}
            filters={{ branch: data.buckets.branch, label: view.label }}
          />
          <Card title={`Latest ${data.latest.length} runs`} className="overflow-hidden" data-testid="latest-runs-card">
            <div className="-m-4">
              <LatestRunsTable projectSlug={projectSlug} runs={data.latest} kind={kind} />
            </div>
          </Card>
        </>
      ) : data.totalRuns < MIN_TREND_RUNS ? (
        <SingleRun projectSlug={projectSlug} data={data} hasFilters={hasFilters} kind={kind} />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-text-muted text-sm" data-testid="trend-count">
              {describeShownRuns(data.points.length, data.totalRuns, data.isDownsampled)}
            </p>
            <XModeToggle value={view.x} onChange={(x) => replaceView({ ...view, x })} />
          </div>
          <TrendCharts
            data={data}
            kind={kind}
            view={view}
            isDefaultLines={!searchParams.has("lines")}
            onLinesChange={(lines) => replaceView({ ...view, lines })}
            onSelectRun={openRun}
          />
          <MetricTrends
            metrics={data.metrics}
            xMode={view.x}
            isAggregate={data.endpoint.isAggregate}
            onSelectRun={openRun}
          />
          <Card title={`Latest ${data.latest.length} runs`} className="overflow-hidden" data-testid="latest-runs-card">
            <div className="-m-4">
              <LatestRunsTable projectSlug={projectSlug} runs={data.latest} kind={kind} />
            </div>
          </Card>
        </>
      )}
    </div>
  );
}
