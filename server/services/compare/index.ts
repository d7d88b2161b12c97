/**
 * Compare: base against head, one run or rounds against rounds, and the distributions behind them.
 *
 * The module's public face: code outside server/services/compare/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { compareProjectRuns, getCompareChoices, resolveComparisonRuns, toComparable } from "./comparisons";
