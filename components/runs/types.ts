import type { RouterOutputs } from "@/server/api/root";

/** The run report as the tRPC procedure returns it (server/domain/report/run-report.ts): types flow from the server. */
export type RunReportData = RouterOutputs["run"]["get"];
export type EndpointRowData = RunReportData["endpoints"][number];
export type CompareLinksData = RunReportData["compare"];
