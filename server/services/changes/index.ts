/**
 * Changes: the rows change-point detection stores (regressions and improvements) and their links.
 *
 * The module's public face: code outside server/services/changes/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { listIncidentRegressions, listProjectRegressions, setRegressionStatus, toRegressionJson } from "./regressions";
export type { IncidentRegressionRow } from "./regressions";
