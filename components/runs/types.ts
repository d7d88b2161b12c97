import type { RouterOutputs } from "@/server/api/root";

/** The run report as the tRPC procedure returns it (server/services/run-report.ts): types flow from the server. */
export type RunReportData = NonNullable<RouterOutputs["run"]["get"]>;
export type EndpointRowData = RunReportData["endpoints"][number];
