import type { SlaGrade } from "@/server/domain/sla/grade";
import { cn } from "@/components/lib/cn";

const LETTER_STYLE: Record<string, string> = {
  A: "border-good text-good",
  B: "border-good text-good",
  C: "border-warn text-warn",
  D: "border-warn text-warn",
  F: "border-bad text-bad",
};

/** The run's SLA grade as a compact badge; "no SLA" when the project has no policy (never a fake grade). */
export function GradeBadge({ grade, className }: { grade: SlaGrade | null; className?: string }) {
  if (grade === null) {
    return (
      <span title="The project has no SLA policy" className={cn("rounded border border-border px-1.5 py-0.5 text-xs text-text-muted", className)}>
        no SLA
      </span>
    );
  }
  if (grade.letter === null) {
    return (
      <span title={grade.reason} className={cn("rounded border border-border px-1.5 py-0.5 text-xs text-text-muted", className)}>
        SLA: no data
      </span>
    );
  }
  return (
    <span
      title={`SLA grade ${grade.letter}: ${grade.passed}/${grade.evaluated} checks passed, ${grade.endpointsCompliant}/${grade.endpointsEvaluated} endpoints compliant`}
      className={cn("inline-flex items-baseline gap-1 rounded border px-1.5 py-0.5 text-xs font-semibold", LETTER_STYLE[grade.letter], className)}
      data-testid="grade-badge"
    >
      SLA {grade.letter}
      <span className="font-normal">{grade.score}%</span>
    </span>
  );
}

/** The grade in a list cell: letter and score from a compact summary (see gradeSummary). */
export function GradeChip({
  summary,
}: {
  summary: { letter: string | null; score: number | null; passed: number; evaluated: number } | null;
}) {
  if (!summary) return <span className="text-xs text-text-muted">—</span>;
  if (summary.letter === null) return <span className="text-xs text-text-muted" title="No SLA check had data">no data</span>;
  return (
    <span
      className={cn("rounded border px-1 text-xs font-semibold", LETTER_STYLE[summary.letter])}
      title={`SLA ${summary.letter}: ${summary.passed}/${summary.evaluated} checks passed (${summary.score}%)`}
      data-testid="grade-chip"
    >
      {summary.letter}
    </span>
  );
}
