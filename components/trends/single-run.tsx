import Link from "next/link";
import { Card } from "@/components/ui/card";
import { pagePaths } from "@/server/domain/urls";
import { MIN_TREND_RUNS } from "@/server/domain/series/trend-series";
import { wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { MetricTrends } from "./metric-trends";
import { singleRunValues } from "./trend-chart-data";
import type { EndpointTrendsData } from "./trend-chart-data";

/** One run is not a trend: its values, a link to it, and its custom metrics' values. */
export function SingleRun({
  projectSlug,
  data,
  hasFilters,
  kind,
}: {
  projectSlug: string;
  data: EndpointTrendsData;
  hasFilters: boolean;
  kind: ResultKinds;
}) {
  const run = data.latest[0] ?? data.points[0];
  if (!run) return null;
  return (
    <div className="space-y-4" data-testid="single-run">
      <Card
        title="The only run so far"
        actions={
          <Link href={pagePaths.run(projectSlug, run.runId)} className="text-accent text-sm hover:underline">
            Open the run
          </Link>
        }
      >
        <p className="text-text-muted mb-3 text-sm" role="status">
          A trend needs at least {MIN_TREND_RUNS} runs;{" "}
          {hasFilters ? "these filters match" : `this ${wordsOf(kind).noun} has`} 1. Its values:
        </p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {singleRunValues(run, kind).map(({ name, value }) => (
            <div key={name} className="bg-surface-muted rounded-md px-3 py-2">
              <dt className="text-text-muted text-xs">{name}</dt>
              <dd className="font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <MetricTrends
        metrics={data.metrics}
        xMode="time"
        isAggregate={data.endpoint.isAggregate}
        onSelectRun={() => undefined}
      />
    </div>
  );
}
