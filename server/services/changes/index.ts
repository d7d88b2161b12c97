/**
 * Changes: the rows change-point detection stores (regressions and improvements) and their links.
 *
 * The module's public face: code outside server/services/changes/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { listIncidentChanges, listProjectChanges, setChangeStatus, toChangeJson } from "./changes";
export type { IncidentChangeRow } from "./changes";
