/**
 * Trends: per-endpoint percentile histories (the history cache, rollups, buckets, overlays), capacity,
 * markers and annotations.
 *
 * The module's public face: code outside server/services/trends/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { createAnnotation, createMarker, deleteAnnotation, listAnnotations, listRunAnnotations } from "./annotations";
export { getCapacity } from "./capacity";
export { resolveEndpointPage, resolveTrendScope } from "./endpoint-page";
export { getEndpointTrends } from "./endpoint-trends";
export { readTrendCandidates } from "./trend-history-sql";
export { listProjectsWithPendingRollups, markProjectPending, markRunsPending, readRollupBuckets, refreshRollups } from "./trend-rollups";
