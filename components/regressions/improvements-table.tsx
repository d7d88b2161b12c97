import Link from "next/link";
import { ChangeLinks } from "@/components/regressions/change-links";
import { formatRunTime } from "@/components/history/run-time";
import { describeSeries, formatBeforeAfter, runName } from "@/components/incidents/display";
import { cn } from "@/components/lib/cn";
import { STACKED_LEAD, STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { formatDeltaPct, formatPValue } from "@/server/domain/format";
import { seriesKindsOf, wordsOf } from "@/server/domain/series-kind";
import { pagePaths } from "@/server/domain/urls";

type Improvement = RouterOutputs["regression"]["improvements"][number];

/** Below `sm` each improvement is a card: series and metric, Δ and p, before → after, where it began, links. */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:[overflow-wrap:anywhere]",
  metric: "max-sm:order-2 max-sm:text-right max-sm:font-medium",
  delta: `max-sm:order-3 ${STACKED_LEAD}`,
  p: "max-sm:order-4 max-sm:self-end",
  values: "max-sm:order-5 max-sm:col-span-2 max-sm:text-left",
  run: "max-sm:order-6 max-sm:col-span-2 max-sm:text-xs",
  links: "max-sm:order-7 max-sm:col-span-2",
} as const;

/**
 * Lasting improvements detection recorded (a step down in latency, up in throughput), newest first. They
 * open no incident and need no triage: they start a new regime for the gate's baseline by themselves.
 */
export function ImprovementsTable({ slug, improvements }: { slug: string; improvements: readonly Improvement[] }) {
  const noun = wordsOf(seriesKindsOf(improvements.map((row) => row.endpoint?.protocol ?? null))).nounTitle;
  return (
    <Table label="Improvements, newest first" stacked>
      <thead>
        <tr>
          <Th>{noun}</Th>
          <Th>Metric</Th>
          <Th numeric>Before → after</Th>
          <Th numeric>Δ</Th>
          <Th numeric>p</Th>
          <Th>From run</Th>
          <Th>Links</Th>
        </tr>
      </thead>
      <tbody>
        {improvements.map((row) => {
          const { series, metric } = describeSeries(row);
          return (
            <tr key={row.id} id={`regression-${row.id}`} data-testid="improvement-row" className={STACKED_PAIR_ROW}>
              <Td className={cn("font-medium", PHONE.endpoint)} data-column="endpoint">
                {series}
              </Td>
              <Td className={PHONE.metric} data-column="metric">
                {metric}
              </Td>
              <Td numeric label="before → after" className={PHONE.values} data-column="values">
                {formatBeforeAfter(row)}
              </Td>
              <Td numeric className={cn("text-good", PHONE.delta)} data-column="delta">
                {formatDeltaPct(row.deltaPct)}
              </Td>
              <Td numeric className={PHONE.p} data-column="p">
                {formatPValue(row.pValue)}
              </Td>
              <Td className={PHONE.run} data-column="run">
                <Link href={pagePaths.run(slug, row.firstRunId)} className="text-accent hover:underline">
                  {runName(row.firstRun)}
                </Link>{" "}
                <span className="text-text-muted text-xs">{formatRunTime(row.firstRun.startedAt)}</span>
              </Td>
              <Td className={PHONE.links} data-column="links">
                <ChangeLinks links={row.links} series={series} metric={metric} />
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
