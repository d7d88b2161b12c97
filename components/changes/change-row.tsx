import type { ReactNode } from "react";
import { describeSeries, formatBeforeAfter, type RegressionLike } from "@/components/incidents/display";
import { cn } from "@/components/lib/cn";
import { ChangeLinks } from "@/components/changes/change-links";
import { STACKED_LEAD, STACKED_PAIR_ROW, Td, Th } from "@/components/ui/table";
import { formatDeltaPct, formatPValue } from "@/server/domain/format";

/**
 * One recorded change as a row of a stacked table, shared by an incident's regressions and the
 * improvements: its series, metric, before → after, Δ and p, one column of the table's own (`extra`:
 * when it came back, or its first run), then its links. Below `sm` it is a card in that order.
 */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:[overflow-wrap:anywhere]",
  metric: "max-sm:order-2 max-sm:text-right max-sm:font-medium",
  delta: `max-sm:order-3 ${STACKED_LEAD}`,
  p: "max-sm:order-4 max-sm:self-end",
  values: "max-sm:order-5 max-sm:col-span-2 max-sm:text-left",
  extra: "max-sm:order-6 max-sm:col-span-2",
  links: "max-sm:order-7 max-sm:col-span-2",
} as const;

/** The header: `noun` ("Endpoint", "Benchmark"), then `extra`'s title. */
export function ChangeHeader({ noun, extra }: { noun: string; extra: string }) {
  return (
    <tr>
      <Th>{noun}</Th>
      <Th>Metric</Th>
      <Th numeric>Before → after</Th>
      <Th numeric>Δ</Th>
      <Th numeric>p</Th>
      <Th>{extra}</Th>
      <Th>Links</Th>
    </tr>
  );
}

export function ChangeRow({
  change,
  tone,
  extra,
  testId,
  className,
}: {
  change: RegressionLike & { id: string; deltaPct: number; pValue: number | null; links: { trendPath: string; comparePath: string | null } };
  /** bad: a regression; good: an improvement. */
  tone: "bad" | "good";
  extra: { label: string; column: string; className?: string; content: ReactNode };
  testId: string;
  className?: string;
}) {
  const { series, metric } = describeSeries(change);
  return (
    <tr id={`regression-${change.id}`} data-testid={testId} className={cn(STACKED_PAIR_ROW, className)}>
      <Td className={cn("font-medium", PHONE.endpoint)} data-column="endpoint">
        {series}
      </Td>
      <Td className={PHONE.metric} data-column="metric">
        {metric}
      </Td>
      <Td numeric label="before → after" className={PHONE.values} data-column="values">
        {formatBeforeAfter(change)}
      </Td>
      <Td numeric className={cn(tone === "bad" ? "text-bad" : "text-good", PHONE.delta)} data-column="delta">
        {formatDeltaPct(change.deltaPct)}
      </Td>
      <Td numeric className={PHONE.p} data-column="p">
        {formatPValue(change.pValue)}
      </Td>
      <Td label={extra.label} className={cn(extra.className, PHONE.extra)} data-column={extra.column}>
        {extra.content}
      </Td>
      <Td className={PHONE.links} data-column="links">
        <ChangeLinks links={change.links} series={series} metric={metric} />
      </Td>
    </tr>
  );
}
