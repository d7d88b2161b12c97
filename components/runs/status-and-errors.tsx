import { formatNumber } from "@/server/domain/format";
import { Badge } from "@/components/ui/badge";
import { STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import { ReportSection } from "./report-section";
import type { RunReportData } from "./types";

/** Status codes per endpoint as chips, and error messages with their counts, when the tool gives them. */
export function StatusAndErrors({ statusCodes, errors }: Pick<RunReportData, "statusCodes" | "errors">) {
  return (
    <>
      {statusCodes.length > 0 && (
        <ReportSection id="status-codes" title="Status codes">
          <Table label="Status codes per endpoint">
            <thead>
              <tr>
                <Th>Endpoint</Th>
                <Th>Codes (count)</Th>
              </tr>
            </thead>
            <tbody>
              {statusCodes.map((entry) => (
                <tr key={entry.endpoint}>
                  <Td className="font-medium">{entry.displayName}</Td>
                  <Td wrap>
                    <ul className="flex flex-wrap gap-1.5">
                      {entry.codes.map(({ code, count, tone }) => (
                        <li key={code}>
                          <Badge tone={tone === "neutral" ? "neutral" : tone}>
                            <span className="font-mono">{code}</span>
                            <span className="ml-1 tabular-nums">{formatNumber(count, 0)}</span>
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ReportSection>
      )}
      {errors.length > 0 && (
        <ReportSection id="errors" title="Errors" description="Error messages as the tool reported them, most frequent first.">
          <Table label="Errors" stacked>
            <thead>
              <tr>
                <Th>Endpoint</Th>
                <Th>Message</Th>
                <Th numeric>Count</Th>
              </tr>
            </thead>
            <tbody>
              {errors.map((error) => (
                // Below `sm`: endpoint and count over the message.
                <tr key={`${error.endpoint}\u0000${error.message}`} className={STACKED_PAIR_ROW}>
                  <Td className="align-top font-medium max-sm:order-1 max-sm:[overflow-wrap:anywhere]">{error.displayName}</Td>
                  <Td wrap className="min-w-[12rem] font-mono text-xs break-words max-sm:order-3 max-sm:col-span-2 max-sm:min-w-0">
                    {error.message}
                  </Td>
                  <Td numeric className="align-top text-bad max-sm:order-2">
                    {formatNumber(error.count, 0)}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ReportSection>
      )}
    </>
  );
}
