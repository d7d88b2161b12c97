/**
 * Deletion: deleting a run (and what rests on it), a project, and run retention's nightly sweep, each
 * with its audit entry (docs/operations.md, "Deleting and retention"). Above every other module: a
 * deletion touches what each of them keeps.
 *
 * The module's public face: code outside server/services/deletion/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { deleteProject } from "./delete-project";
export { deleteRun } from "./delete-runs";
export { RETENTION_BATCH_RUNS, applyRunRetention, previewRunRetention } from "./run-retention";
export type { RunRetentionReport } from "./run-retention";
