import type { ReactNode } from "react";

/** What a view says when it has nothing to show, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-border bg-surface p-6 text-sm" role="status">
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1.5 text-text-muted">{children}</div>}
    </div>
  );
}
