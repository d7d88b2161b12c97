import { BADGE_COLOURS, renderBadge } from "../badge";
import type { SlaGrade } from "./grade";

/** A README badge for a project's SLA grade: "SLA | A 100%", in the letter's colour (domain/badge.ts draws it). */
const COLOURS: Record<string, string> = { A: "#2e7d32", B: "#689f38", C: "#f9a825", D: "#ef6c00", F: "#c62828" };

export function renderGradeBadge(grade: SlaGrade | null | undefined, label = "SLA"): string {
  const message = grade === undefined ? "no runs" : grade === null ? "no SLA" : grade.letter === null ? "no data" : `${grade.letter} ${grade.score}%`;
  const colour = grade?.letter ? (COLOURS[grade.letter] ?? BADGE_COLOURS.grey) : BADGE_COLOURS.grey;
  return renderBadge({ label, message, colour });
}
