import type { Comparison } from "../compare/compare-runs";
import {
  comparisonKindOf,
  describeNotJudged,
  describeResultMetric,
  explainInconclusive,
  headlineChanges,
  INCONCLUSIVE_KIND_WORDS,
} from "../compare/gate-summary";
import type { NamedRun } from "../compare/run-names";
import { describeRunSet } from "../compare/run-names";
import { formatDeltaPct } from "../format";
import { wordsOf } from "../result-kind";
import type { Verdict } from "../stats/verdict";

/**
 * What a comparison's preview image says, line by line (the route only draws it). An inconclusive
 * comparison says so and why, and lists the largest changes it saw as "not judged": a link preview
 * that read "no change" under a +73% was the bug this replaces.
 */
export interface ComparisonImageContent {
  verdict: Verdict;
  sides: string;
  /** Why no endpoint could be judged (what would decide), as a sentence; null when the verdict stands. */
  reason: string | null;
  /** The line above the changes: "Largest changes seen, not judged (too little history):"; null when the changes are verdicts. */
  changesHeading: string | null;
  changes: { delta: string; label: string; tone: "bad" | "good" | "muted"; isJudged: boolean }[];
  /** Said when there is no change to list, or beside the changes: endpoints not judged. */
  footnote: string | null;
}

/** Lines of the image hold about this many characters (at their sizes, 1,072 px wide): text beyond is cut at a word. */
const REASON_CHARS = 210;
const LABEL_CHARS = 48;
const FOOTNOTE_CHARS = 110;

/** Cut at a word, with an ellipsis: a line never runs off the image. */
export function clipText(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), Math.floor(length / 2)))}…`;
}

export function comparisonImageContent(comparison: Comparison, base: readonly NamedRun[], head: readonly NamedRun[]): ComparisonImageContent {
  const why = explainInconclusive(comparison);
  const noun = wordsOf(comparisonKindOf(comparison)).noun;
  const changes = headlineChanges(comparison, why === null ? 4 : 3).map(({ endpoint, protocol, metric, isJudged }) => ({
    delta: formatDeltaPct(metric.deltaPct),
    label: clipText(describeResultMetric(endpoint, protocol, metric.metric), LABEL_CHARS),
    tone: !isJudged ? ("muted" as const) : metric.verdict === "regressed" ? ("bad" as const) : ("good" as const),
    isJudged,
  }));
  const notJudged = describeNotJudged(comparison);
  return {
    verdict: comparison.verdict,
    sides: `${describeRunSet(base)} → ${describeRunSet(head)}`,
    reason: why === null ? null : clipText(`No ${noun} could be judged: ${why.reason}`, REASON_CHARS),
    changesHeading: why !== null && changes.length > 0 ? `Largest changes seen, not judged (${INCONCLUSIVE_KIND_WORDS[why.kind]}):` : null,
    changes,
    footnote:
      notJudged !== null
        ? clipText(notJudged, FOOTNOTE_CHARS)
        : why === null && changes.length === 0
          ? `No ${noun} changed beyond the noise.`
          : null,
  };
}
