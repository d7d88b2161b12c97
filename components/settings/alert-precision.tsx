"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { PrecisionBars } from "@/components/charts/precision-bars";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { formatPct } from "@/server/domain/format";
import { apiPaths } from "@/server/domain/urls";
import { formatInterval, precisionHeadline, toPrecisionBars } from "./alert-precision-view";
import type { AlertPrecisionData } from "./alert-precision-view";

type Row = AlertPrecisionData["byMonth"][number] | AlertPrecisionData["byDetectorVersion"][number];

/**
 * How far to trust an alert (server/domain/incidents/precision.ts): of the incidents the team closed, the
 * share that were real changes, overall, per detector version and per month they were closed. Read-only,
 * so shown to everyone who can read the project; the data comes from incident.precision (prefetched by
 * the page), as GET /api/v1/projects/:p/incidents/precision answers it.
 */
export function AlertPrecisionPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.incident.precision.queryOptions({ project }));
  const bars = toPrecisionBars(data.byMonth);
  return (
    <Card title="Alert precision" data-testid="alert-precision">
      <div className="space-y-3">
        <p className="text-sm font-medium" data-testid="alert-precision-headline">
          {precisionHeadline(data)}
        </p>
        <p className="text-xs text-text-muted">
          Of the incidents your team closed, the share that were real changes (fixed, backed out or accepted) rather than
          noise (marked invalid): how far to trust the next alert. Incidents still open or investigating
          {data.active > 0 ? ` (${data.active} now)` : ""} count once they are closed. With few closed incidents the share swings, so the 95% interval (Wilson) goes with
          it; per detector version it tells whether a change to the detector made alerts better or worse. Scripts read it
          at <code className="break-all">{apiPaths.alertPrecision(project)}</code>.
        </p>
        {data.closed > 0 && (
          <div className="grid gap-4 lg:grid-cols-2">
            <section aria-labelledby="precision-by-version" className="min-w-0">
              <h3 id="precision-by-version" className="mb-1.5 text-xs font-semibold text-text-muted uppercase">
                By detector version
              </h3>
              <PrecisionTable
                label="Alert precision by detector version"
                first="Detector"
                rows={data.byDetectorVersion.map((row) => ({ key: String(row.detectorVersion), name: `v${row.detectorVersion}`, row }))}
                testId="precision-by-version"
              />
            </section>
            <section aria-labelledby="precision-by-month" className="min-w-0">
              <h3 id="precision-by-month" className="mb-1.5 text-xs font-semibold text-text-muted uppercase">
                By month closed
              </h3>
              {bars.length > 1 && (
                <>
                  <PrecisionBars bars={bars} label={`Closed incidents per month, valid and invalid, ${bars.length} months`} />
                  <p className="mb-2 flex gap-3 text-xs text-text-muted" aria-hidden="true">
                    <span>
                      <span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-good align-middle" />
                      valid
                    </span>
                    <span>
                      <span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-bad align-middle" />
                      invalid
                    </span>
                  </p>
                </>
              )}
              <PrecisionTable
                label="Alert precision by month closed"
                first="Month"
                rows={data.byMonth.map((row) => ({ key: row.month, name: row.month, row }))}
                testId="precision-by-month"
              />
            </section>
          </div>
        )}
      </div>
    </Card>
  );
}

function PrecisionTable({ label, first, rows, testId }: { label: string; first: string; rows: { key: string; name: string; row: Row }[]; testId: string }) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>{first}</Th>
          <Th numeric>Valid</Th>
          <Th numeric>Invalid</Th>
          <Th numeric>Precision</Th>
          <Th numeric>95% CI</Th>
        </tr>
      </thead>
      <tbody data-testid={testId}>
        {rows.map(({ key, name, row }) => (
          <tr key={key}>
            <Td>{name}</Td>
            <Td numeric className="text-good">
              {row.valid}
            </Td>
            <Td numeric className={row.invalid > 0 ? "text-bad" : undefined}>
              {row.invalid}
            </Td>
            <Td numeric className="font-medium">
              {formatPct(row.precision, 1)}
            </Td>
            <Td numeric className="text-text-muted">
              {row.interval ? formatInterval(row.interval) : "—"}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
