/**
 * Runs: a stored run read back (its identity, its document and numbers, its ids), the run list and SLA
 * grades computed on read, and raw-file retention.
 *
 * The module's public face: code outside server/services/runs/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { applyRawRetention } from "./raw-retention";
export { getRunDocument, runPageUrl, toRunDocument } from "./run-document";
export { newRunId } from "./run-ids";
export { defaultBranchSeriesKey } from "./series-key";
export { NOT_AB_BASE, notAbBaseSql, seriesRunsSql } from "./series-runs";
export type { SeriesOfRuns } from "./series-runs";
export { RUN_IDENTITY_SELECT, runIdentityOf } from "./run-identity";
export type { RunIdentity, UploadPlacement } from "./run-identity";
export { forgetRunNumbers, loadRunNumbers, rememberStoredRun } from "./run-numbers";
export { findRawUploads, listRuns, readRawGzip } from "./runs";
export type { RunFilters } from "./runs";
export { getSlaPolicy, gradeLoadedRun, gradeParsedRun, gradeRuns, gradeSummary } from "./sla";
export { asStoredRun, loadParsedRun, loadParsedRuns } from "./stored-runs";
export type { LoadedRun } from "./stored-runs";
