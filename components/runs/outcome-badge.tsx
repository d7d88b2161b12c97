import { Badge } from "@/components/ui/badge";
import type { Outcome } from "@/server/domain/gate/outcome";

/** The CI gate's three outcomes, one look each wherever they are shown (run page, history, compare). */
export const OUTCOME_LOOK: Record<Outcome, { tone: "good" | "bad" | "warn"; label: string; short: string }> = {
  pass: { tone: "good", label: "✓ PASS", short: "✓ pass" },
  fail: { tone: "bad", label: "✗ FAIL", short: "✗ fail" },
  inconclusive: { tone: "warn", label: "? INCONCLUSIVE", short: "? inconclusive" },
};

/** Full class names (Tailwind only generates classes it can read whole in the source). */
export const OUTCOME_TEXT_CLASS: Record<Outcome, string> = { pass: "text-good", fail: "text-bad", inconclusive: "text-warn" };

export function OutcomeBadge({ outcome, title, testId }: { outcome: Outcome; title?: string; testId?: string }) {
  const look = OUTCOME_LOOK[outcome];
  return (
    <Badge tone={look.tone} title={title}>
      <span data-testid={testId}>{look.label}</span>
    </Badge>
  );
}
