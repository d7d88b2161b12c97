/**
 * Platform: what every feature stands on: the service error envelope, the job queue, the CPU threads
 * (parse and judge off the event loop), read replicas, rate limits and the process's lifecycle (a stop's
 * drain: isShuttingDown). It imports no other module.
 *
 * The module's public face: code outside server/services/platform/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export * from "./cpu-pool";
export { ServiceError, notFound, toServiceError } from "./errors";
export type { ErrorDetail, ServiceErrorCode } from "./errors";
export { beginShutdown, isShuttingDown, onShutdown, runShutdownPhase } from "./lifecycle";
export type { ShutdownPhase, ShutdownPhaseReport, ShutdownStep } from "./lifecycle";
export { JOB_HEARTBEAT_SECONDS, JOB_LEASE_SECONDS, JOB_NAMES, JOB_QUEUES, RETENTION_CRON, STATISTICS_CRON, jobQueueFor, queueSettings, jobQueueOf, markWorkers, workersState } from "./job-queue";
export type { CoalescedJob, JobData, JobName, JobQueue, WorkersState } from "./job-queue";
export { authFailureLimit, checkAuthFailures, clientAddressOf, recordAuthFailure, takeRateLimit, takeRateLimitWithRead } from "./rate-limits";
export { chooseReader, currentWalPosition, readWithPrimaryFallback, shouldRetryOnPrimary, walPositionHeaders, walPositionOf } from "./read-replicas";
export { captureLogLines, getLogger, prettyLogLine, resetLogger } from "./logger";
export { currentRequest, noteCaller, noteCallerKind, runInRequestContext } from "./request-context";
export type { CallerKind, RequestContext } from "./request-context";
export { checkReadiness } from "./readiness";
export type { Readiness, ReadinessCheck } from "./readiness";
export * from "./metrics";
export { checkLiveness } from "./health";
export { trackUpload, uploadQuietMs } from "./upload-activity";
export { findStaleTables, refreshStaleStatistics } from "./table-statistics";
export type { StaleTable, StatisticsRefresh } from "./table-statistics";
export type { Liveness } from "./health";
