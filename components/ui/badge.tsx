import type { ReactNode } from "react";
import { cn } from "@/components/lib/cn";

type Tone = "neutral" | "good" | "bad" | "warn" | "accent";

const TONES: Record<Tone, string> = {
  neutral: "bg-surface-muted text-text-muted",
  good: "bg-surface-muted text-good",
  bad: "bg-surface-muted text-bad",
  warn: "bg-surface-muted text-warn",
  accent: "bg-surface-muted text-accent",
};

export function Badge({ tone = "neutral", children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span title={title} className={cn("inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium", TONES[tone])}>
      {children}
    </span>
  );
}
