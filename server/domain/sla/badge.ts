import { BADGE_COLOURS, renderBadge } from "../badge";
import type { SlaGrade } from "./grade";

/**
 * The letters' colours, green to red, each dark enough for the badge's white 11px text (contrast with
 * white ≥ 4.5:1, WCAG AA, as domain/badge.ts's own colours): a yellow C read at 2:1 before.
 */
export const GRADE_COLOURS: Readonly<Record<string, string>> = { A: "#2e7d32", B: "#4e7a27", C: "#8a6a00", D: "#b04a00", F: "#c62828" };

/** A README badge for a project's SLA grade: "SLA | A 100%", in the letter's colour (domain/badge.ts draws it). */

export function renderGradeBadge(grade: SlaGrade | null | undefined, label = "SLA"): string {
  const message = grade === undefined ? "no runs" : grade === null ? "no SLA" : grade.letter === null ? "no data" : `${grade.letter} ${grade.score}%`;
  const colour = grade?.letter ? (GRADE_COLOURS[grade.letter] ?? BADGE_COLOURS.grey) : BADGE_COLOURS.grey;
  return renderBadge({ label, message, colour });
}
