import Link from "next/link";
import { Sparkline } from "@/components/charts/sparkline";
import { cn } from "@/components/lib/cn";
import { MISSING, formatMs, formatPct } from "@/server/domain/format";
import { formatThroughput, resultKindOf, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { Badge } from "@/components/ui/badge";
import { BreakableName } from "@/components/ui/breakable-name";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { describeEndpointGate } from "./gate";
import { describeIncidentMark, describeTrend } from "./trend";
import { pagePaths } from "@/server/domain/urls";

type Overview = RouterOutputs["project"]["overview"];
type EndpointSummary = Overview["endpoints"][number];
type SeriesGate = Overview["gates"][number];

const TONE_CLASS = { bad: "text-bad", good: "text-good", neutral: "text-text-muted" } as const;
/**
 * A gate mark's look: framed when the gate named this row's change (a failure, an undecided or an improved
 * one) or could not tell; plain, in its outcome's colour, when it failed on other rows or passed.
 */
const GATE_MARK_CLASS = {
  bad: "border border-bad text-bad",
  warn: "border border-warn text-warn",
  good: "border border-good text-good",
} as const;
const GATE_MARK_PLAIN_CLASS = { bad: "border border-transparent text-bad", warn: "border border-transparent text-warn", good: "border border-transparent text-good" } as const;

type LatestColumn = "mean" | "p50" | "p95" | "p99";

/**
 * The column the CI gate judges, emphasised (bold, "gate" in its header): a benchmark's mean time/op; an
 * endpoint's the project's gate metric ("auto" is p95 where the runs support it). A gate metric with no
 * column here (p90, a custom metric) emphasises none rather than the wrong one.
 */
function gateColumnOf(kind: ResultKinds, gateMetric: string): LatestColumn | null {
  if (kind === "benchmark") return "mean";
  const metric = gateMetric === "auto" ? "p95" : gateMetric;
  return metric === "mean" || metric === "p50" || metric === "p95" || metric === "p99" ? metric : null;
}

const LATEST_FIELD = { mean: "meanMs", p50: "p50Ms", p95: "p95Ms", p99: "p99Ms" } as const;

/** Whether a row has a number to show: an aggregate of benchmarks has none (they are judged one by one). */
function hasLatestNumbers({ latest }: EndpointSummary): boolean {
  return [latest.meanMs, latest.p50Ms, latest.p95Ms, latest.p99Ms, latest.errorRate, latest.throughput].some((value) => value !== null && value !== undefined);
}

/** The project overview's endpoints (or benchmarks) table: latest numbers, sparkline, trend and gate mark per row. */
export function EndpointsTable({ overview, kind }: { overview: Overview; kind: ResultKinds }) {
  const words = wordsOf(kind);
  // Benchmarks fail no samples (hyperfine's exits aside): an error-rate column of zeros says nothing.
  const hasErrorRate = words.hasLoad || overview.endpoints.some((endpoint) => (endpoint.latest.errorRate ?? 0) > 0);
  const aggregate = overview.aggregate && hasLatestNumbers(overview.aggregate) ? overview.aggregate : null;
  // Benchmarks all say "benchmark": a column of it leaves the gate and trend less room, and says nothing.
  const hasProtocol = kind !== "benchmark";
  // A benchmark is judged on its mean time/op: that column leads; an endpoint's latency percentiles need no mean.
  const columns: LatestColumn[] = kind === "benchmark" ? ["mean", "p50", "p95", "p99"] : ["p50", "p95", "p99"];
  const gateColumn = gateColumnOf(kind, overview.project.gateMetric);
  return (
    <Table label={words.nounsTitle}>
      <thead>
        <tr>
          <Th>{words.nounTitle}</Th>
          {hasProtocol && <Th className="hidden sm:table-cell">Protocol</Th>}
          {columns.map((column) => (
            <Th key={column} numeric title={column === gateColumn ? `The CI gate judges each ${words.noun} on this metric` : undefined}>
              {column === "mean" ? "Mean" : column}
              {column === gateColumn && <span className="ml-1 text-xs font-normal text-text-muted">gate</span>}
            </Th>
          ))}
          {hasErrorRate && <Th numeric>Error rate</Th>}
          <Th numeric>Throughput</Th>
          <Th>{kind === "benchmark" ? "Mean time/op of its series" : "p95 of its series"}</Th>
          <Th
            title={`The CI gate's answer to the latest run of its series on ${overview.project.defaultBranch} for this row, then the trend: the latest p95 (a benchmark's mean time/op) vs the median of up to 10 earlier runs of its level: ↑ worse beyond +5%, ↓ better beyond −5%, and significant`}
          >
            Gate · trend
          </Th>
        </tr>
      </thead>
      <tbody data-testid="endpoints-table">
        {overview.endpoints.map((endpoint) => (
          <EndpointRow
            key={endpoint.id ?? "aggregate"}
            slug={overview.project.slug}
            endpoint={endpoint}
            gates={overview.gates}
            href={pagePaths.endpoint(overview.project.slug, endpoint)}
            aggregateName={words.aggregate}
            hasErrorRate={hasErrorRate}
            hasProtocol={hasProtocol}
            columns={columns}
            gateColumn={gateColumn}
          />
        ))}
      </tbody>
      {aggregate && (
        <tfoot data-testid="aggregate-row">
          <EndpointRow
            slug={overview.project.slug}
            endpoint={aggregate}
            gates={overview.gates}
            href={null}
            aggregateName={words.aggregate}
            hasErrorRate={hasErrorRate}
            hasProtocol={hasProtocol}
            columns={columns}
            gateColumn={gateColumn}
          />
        </tfoot>
      )}
    </Table>
  );
}

function EndpointRow({
  slug,
  endpoint,
  gates,
  href,
  aggregateName,
  hasErrorRate,
  hasProtocol,
  columns,
  gateColumn,
}: {
  slug: string;
  endpoint: EndpointSummary;
  gates: readonly SeriesGate[];
  href: string | null;
  aggregateName: string;
  hasErrorRate: boolean;
  hasProtocol: boolean;
  columns: readonly LatestColumn[];
  gateColumn: LatestColumn | null;
}) {
  const trendWord = endpoint.trendMetric === "mean" ? "mean time/op" : "p95";
  const trend = describeTrend(endpoint.trend, trendWord);
  const isAggregate = href === null;
  const kind = resultKindOf(endpoint);
  const stale = !isAggregate && !endpoint.isInLatestRun;
  return (
    <tr className={cn(isAggregate && "bg-surface-muted font-semibold", stale && "text-text-muted")}>
      {/* Wrapped, not cut: names of one package or service share a long prefix, and their ends tell them apart. */}
      <Td wrap className="max-w-[12.5rem] break-words sm:max-w-[15rem]">
        {href ? (
          <Link href={href} className="font-medium text-accent hover:underline" title={endpoint.name}>
            <BreakableName name={endpoint.name} />
          </Link>
        ) : (
          aggregateName
        )}
        {stale && (
          <span className="ml-2">
            <Badge title={`Last measured ${new Date(endpoint.latest.startedAt).toISOString().slice(0, 10)}`}>
              not in latest run
            </Badge>
          </span>
        )}
      </Td>
      {hasProtocol && <Td className="hidden text-text-muted sm:table-cell">{isAggregate ? "" : (endpoint.protocol ?? MISSING)}</Td>}
      {columns.map((column) => (
        <Td key={column} numeric className={cn(column === gateColumn && "font-semibold")} data-testid={column}>
          {formatMs(endpoint.latest[LATEST_FIELD[column]])}
        </Td>
      ))}
      {hasErrorRate && (
        <Td numeric>{kind === "benchmark" && !endpoint.latest.errorRate ? "" : formatPct(endpoint.latest.errorRate)}</Td>
      )}
      <Td numeric>{formatThroughput(endpoint.latest.throughput, kind)}</Td>
      <Td className="py-1">
        <Sparkline
          points={endpoint.series}
          label={`${trendWord} of ${endpoint.name} over the last ${endpoint.series.length} runs of its latest series (${endpoint.latest.series ?? "any"})`}
        />
      </Td>
      {/* relative: the sr-only text is absolutely positioned; it must stay inside the scrolling frame. */}
      <Td
        title={`${endpoint.incidents.map((incident) => `Incident #${incident.number} is being triaged on this series. `).join("")}${trend.title}${endpoint.latest.series ? ` Series: ${endpoint.latest.series}.` : ""}`}
        wrap
        className={cn("relative min-w-[12rem]", TONE_CLASS[trend.tone])}
        data-testid="trend"
      >
        <TrendCell slug={slug} endpoint={endpoint} gates={gates} trend={trend} />
      </Td>
    </tr>
  );
}

/**
 * The trend column: an incident still being triaged on the series first (a link to it), then what the CI
 * gate answered for this row in the latest run of its series on the default branch (a link to the run),
 * then the arrow. Beside an incident the arrow is shown only when it points somewhere: "no significant
 * change" next to an open incident would contradict it (the arrow then compares with the level before the
 * step anyway); with too few runs since a step the arrow says so instead (describeTrend).
 */
function TrendCell({
  slug,
  endpoint,
  gates,
  trend,
}: {
  slug: string;
  endpoint: EndpointSummary;
  gates: readonly SeriesGate[];
  trend: ReturnType<typeof describeTrend>;
}) {
  const kind = resultKindOf(endpoint);
  const hasIncident = endpoint.incidents.length > 0;
  const showsArrow = !hasIncident || trend.symbol === "↑" || trend.symbol === "↓";
  const gate = endpoint.gate;
  // Beside an incident mark the gate's own number would say the same change a third time (the arrow the second).
  const mark = gate
    ? describeEndpointGate(gate, gates.find((series) => series.key === gate.series), kind, { isAggregate: endpoint.id === null, showChange: !hasIncident })
    : null;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      {endpoint.incidents.map((incident) => {
        const mark = describeIncidentMark(incident, kind);
        return (
          <Link
            key={incident.number}
            href={pagePaths.incident(slug, incident.number)}
            title={mark.title}
            className="rounded border border-bad px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-bad hover:bg-surface-muted"
            data-testid="trend-incident"
          >
            {mark.text}
          </Link>
        );
      })}
      {gate && mark && (
        <Link
          href={pagePaths.run(slug, gate.runId)}
          title={mark.title}
          className={cn(
            "rounded px-1.5 py-0.5 text-xs font-medium hover:bg-surface-muted",
            gate.change !== null || gate.outcome === "inconclusive" ? GATE_MARK_CLASS[mark.tone] : GATE_MARK_PLAIN_CLASS[mark.tone],
          )}
          data-testid="trend-gate"
          data-outcome={gate.outcome}
        >
          {mark.text}
        </Link>
      )}
      {showsArrow && (
        <span className={trend.symbol === "·" && trend.text ? "text-xs" : "whitespace-nowrap"} data-testid="trend-arrow">
          <span aria-hidden="true" className="font-semibold">
            {trend.symbol}
          </span>{" "}
          <span className="text-xs tabular-nums">{trend.text}</span>
          <span className="sr-only">{trend.word}</span>
        </span>
      )}
    </span>
  );
}

