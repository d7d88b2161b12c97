import type { Verdict } from "@/server/domain/stats/verdict";
import { cn } from "@/components/lib/cn";

const STYLE: Record<Verdict, string> = {
  regressed: "border-bad text-bad",
  improved: "border-good text-good",
  unchanged: "border-border text-text-muted",
  inconclusive: "border-warn text-warn",
};
const ICON: Record<Verdict, string> = { regressed: "▲", improved: "▼", unchanged: "=", inconclusive: "?" };

/** A verdict in words and colour (never colour alone). */
export function VerdictBadge({ verdict, large = false, title }: { verdict: Verdict; large?: boolean; title?: string }) {
  return (
    <span
      title={title}
      className={cn(
        "inline-flex items-center gap-1 rounded border font-medium whitespace-nowrap",
        large ? "px-2.5 py-1 text-base" : "px-1.5 py-0.5 text-xs",
        STYLE[verdict],
      )}
    >
      <span aria-hidden="true">{ICON[verdict]}</span>
      {verdict}
    </span>
  );
}
