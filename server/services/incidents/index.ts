/**
 * Incidents: change-point detection over the default branch and the incidents it opens and triagers move.
 *
 * The module's public face: code outside server/services/incidents/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { countIncidentsByState, getAlertPrecision, getIncident, listIncidents, toIncidentJson } from "./incident-views";
export { updateIncidents } from "./incidents";
export { detectAndQueueWebhooks, queueProjectRedetection } from "./regression-detection";
