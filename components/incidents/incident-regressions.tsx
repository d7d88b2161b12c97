import Link from "next/link";
import { ChangeLinks } from "@/components/regressions/change-links";
import { formatRunTime } from "@/components/history/run-time";
import { cn } from "@/components/lib/cn";
import { STACKED_LEAD, STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { formatDeltaPct, formatPValue } from "@/server/domain/format";
import { seriesKindsOf, wordsOf } from "@/server/domain/series-kind";
import { pagePaths } from "@/server/domain/urls";
import { describeSeries, formatBeforeAfter, runName } from "./display";

export type IncidentRegression = RouterOutputs["incident"]["inbox"]["incidents"][number]["regressions"][number];

/**
 * Below `sm` each regression is a card: its series and metric, the Δ and p, before → after, whether it
 * came back, then its links. At `sm` and wider, a table row.
 */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:[overflow-wrap:anywhere]",
  metric: "max-sm:order-2 max-sm:text-right max-sm:font-medium",
  delta: `max-sm:order-3 ${STACKED_LEAD}`,
  p: "max-sm:order-4 max-sm:self-end",
  values: "max-sm:order-5 max-sm:col-span-2 max-sm:text-left",
  returned: "max-sm:order-6 max-sm:col-span-2",
  links: "max-sm:order-7 max-sm:col-span-2",
} as const;

/**
 * An incident's regressions, the largest |Δ| first: each series' level before → after the step, Δ and
 * the change point's p-value, whether the series came back (the run detection saw it return at), and
 * links to the trend (the change point marked) and to the runs before vs after the step.
 */
export function IncidentRegressions({
  slug,
  regressions,
  label,
}: {
  slug: string;
  regressions: readonly IncidentRegression[];
  label: string;
}) {
  return (
    <Table label={label} stacked>
      <thead>
        <tr>
          <Th>
            {wordsOf(seriesKindsOf(regressions.map((regression) => regression.endpoint?.protocol ?? null))).nounTitle}
          </Th>
          <Th>Metric</Th>
          <Th numeric>Before → after</Th>
          <Th numeric>Δ</Th>
          <Th numeric>p</Th>
          <Th>Came back</Th>
          <Th>Links</Th>
        </tr>
      </thead>
      <tbody>
        {regressions.map((regression) => {
          const { series, metric } = describeSeries(regression);
          return (
            <tr
              key={regression.id}
              id={`regression-${regression.id}`}
              data-testid="incident-regression"
              className={cn(STACKED_PAIR_ROW, "target:bg-surface-muted")}
            >
              <Td className={cn("font-medium", PHONE.endpoint)} data-column="endpoint">
                {series}
              </Td>
              <Td className={PHONE.metric} data-column="metric">
                {metric}
              </Td>
              <Td numeric label="before → after" className={PHONE.values} data-column="values">
                {formatBeforeAfter(regression)}
              </Td>
              <Td numeric className={cn("text-bad", PHONE.delta)} data-column="delta">
                {formatDeltaPct(regression.deltaPct)}
              </Td>
              <Td numeric className={PHONE.p} data-column="p">
                {formatPValue(regression.pValue)}
              </Td>
              <Td label="came back" className={cn("text-xs", PHONE.returned)} data-column="returned">
                {regression.returnRun ? (
                  <span className="text-good">
                    came back at run{" "}
                    <Link href={pagePaths.run(slug, regression.returnRun.id)} className="text-accent hover:underline">
                      {runName(regression.returnRun)}
                    </Link>{" "}
                    <span className="text-text-muted">{formatRunTime(regression.returnRun.startedAt)}</span>
                  </span>
                ) : (
                  <span className="text-text-muted">not yet</span>
                )}
              </Td>
              <Td className={PHONE.links} data-column="links">
                <ChangeLinks links={regression.links} series={series} metric={metric} />
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
