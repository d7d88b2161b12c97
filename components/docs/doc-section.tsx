import type { ReactNode } from "react";
import { cn } from "@/components/lib/cn";

/** The building blocks of a documentation page: a titled section, inline code, a subheading. */
export function DocSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="border-border scroll-mt-6 border-t pt-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-2 space-y-3 text-sm leading-relaxed">{children}</div>
    </section>
  );
}

/** Inline code. Short snippets never break inside (`?format=`); long ones may, to fit a phone screen. */
export function Code({ children }: { children: ReactNode }) {
  const isShort = typeof children === "string" && children.length <= 24;
  return (
    <code className={cn("bg-surface-muted rounded px-1 py-0.5 text-[0.85em]", isShort ? "whitespace-nowrap" : "break-words")}>
      {children}
    </code>
  );
}

export function Subheading({ children }: { children: ReactNode }) {
  return <h3 className="pt-2 font-semibold">{children}</h3>;
}
