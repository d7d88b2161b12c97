/**
 * Transfer: a project's export and import (NDJSON, server/schemas/transfer.ts), and the server's backup
 * and restore built on them (docs/operations.md, "Backup and restore").
 *
 * The module's public face: code outside server/services/transfer/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export type { LineSink } from "./export-rows";
export type { ImportCounts } from "./import-context";
export { backupServer, importProject, prepareProjectExport, restoreServer } from "./transfer";
