/**
 * Gate: the CI gate's outcome for a run (its baselines, its history, pinned and A/B bases) and the run pages
 * and histories that show it.
 *
 * The module's public face: code outside server/services/gate/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { chooseBaseline, listBaselinePins, pinBaseline, unpinBaseline } from "./baselines";
export { findGateHead, gateAnswer, getRunGate, judgeRun, judgeWithHistoryOffThread, readGateHistory } from "./run-gate";
export type { GateHead, RunGateResult } from "./run-gate";
export { listRunFilterOptions, listRunHistory } from "./run-history";
export { getRunReport } from "./run-page";
