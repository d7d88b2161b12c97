"use client";

import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { cn } from "@/components/lib/cn";

interface Edges {
  /** Content hidden to the left (the frame was scrolled). */
  left: boolean;
  /** Content hidden to the right. */
  right: boolean;
}

/**
 * A box that scrolls sideways when its content is wider (a table at 375 px), and says so: the edge
 * with more content fades out and a line under the box says which way to scroll. Nothing shows while
 * everything fits, so wide screens look as before. Measured after hydration (the server cannot know
 * the width), again on every scroll and resize.
 */
export function ScrollFrame({ className, children }: { className?: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<Edges>({ left: false, right: false });

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => {
      // A pixel of slack: zoomed pages report fractional widths.
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setEdges((current) => (current.left === left && current.right === right ? current : { left, right }));
    };
    measure();
    element.addEventListener("scroll", measure, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    if (element.firstElementChild) resizes.observe(element.firstElementChild);
    return () => {
      element.removeEventListener("scroll", measure);
      resizes.disconnect();
    };
  }, []);

  const overflows = edges.left || edges.right;
  return (
    <div className="min-w-0">
      <div className="relative">
        <div ref={frame} className={cn("overflow-x-auto", className)} data-overflows={overflows ? "true" : undefined}>
          {children}
        </div>
        {edges.left && (
          <div aria-hidden="true" className="pointer-events-none absolute inset-y-px left-px w-8 rounded-l-lg bg-linear-to-r from-surface to-transparent" />
        )}
        {edges.right && (
          <div aria-hidden="true" className="pointer-events-none absolute inset-y-px right-px w-8 rounded-r-lg bg-linear-to-l from-surface to-transparent" />
        )}
      </div>
      {overflows && (
        <p className="mt-1 text-right text-[11px] text-text-muted" data-testid="scroll-cue">
          {edges.right ? "scroll → for more columns" : "← more columns"}
        </p>
      )}
    </div>
  );
}
