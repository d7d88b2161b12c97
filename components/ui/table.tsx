import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/components/lib/cn";
import { ScrollFrame } from "./scroll-frame";

/**
 * Below `sm` (640 px) a stacked table reads as cards instead of scrolling sideways: its header row is
 * hidden, each body (`tbody`, `tfoot`) is a card and each row a section of it. A row lays its cells out
 * itself (STACKED_ROW, plus the order and spans it wants) and a cell names itself with `label`, since
 * no header is seen. The same cells, so the same numbers, as the table at 640 px and wider.
 */
const STACKED = [
  "max-sm:overflow-visible max-sm:rounded-none max-sm:border-0 max-sm:bg-transparent",
  "max-sm:[&>table]:block max-sm:[&_thead]:hidden",
  "max-sm:[&_tbody]:block max-sm:[&_tbody]:overflow-hidden max-sm:[&_tbody]:rounded-lg max-sm:[&_tbody]:border max-sm:[&_tbody]:border-border max-sm:[&_tbody]:bg-surface",
  "max-sm:[&_tfoot]:block max-sm:[&_tfoot]:overflow-hidden max-sm:[&_tfoot]:rounded-lg max-sm:[&_tfoot]:border max-sm:[&_tfoot]:border-border max-sm:[&_tfoot]:bg-surface",
  "max-sm:[&_tbody+tbody]:mt-3 max-sm:[&_tfoot]:mt-3",
  // Every row a one-column grid (its cells blockified), unless it gives its own columns: a property the frame leaves alone.
  "max-sm:[&_tr]:grid max-sm:[&_tr]:border-border max-sm:[&_tr:not(:last-child)]:border-b",
].join(" ");

/** A row of a stacked table below `sm`: a grid whose cells lose the table's padding and borders (add `grid-cols-*`, and `order-*`/`col-span-*` on cells). */
export const STACKED_ROW = "max-sm:gap-x-3 max-sm:gap-y-1.5 max-sm:px-3 max-sm:py-2.5 max-sm:[&>td]:border-0 max-sm:[&>td]:p-0 max-sm:[&>td]:whitespace-normal";

/** A stacked row in two columns: the wide one on the left, one as wide as its content on the right. */
export const STACKED_PAIR_ROW = `${STACKED_ROW} max-sm:grid-cols-[minmax(0,1fr)_auto]`;

/** The number a stacked row leads with (a Δ): large, on the left. */
export const STACKED_LEAD = "max-sm:text-left max-sm:text-lg max-sm:leading-tight max-sm:font-semibold";

/**
 * Table primitives: a horizontally scrollable frame (wide tables scroll inside their box at 375 px,
 * never the page, with a visible cue when they do), header and data cells with numeric alignment
 * (right, tabular figures). `stacked`: cards below `sm` (see STACKED).
 */
export function Table({
  children,
  className,
  label,
  stacked = false,
}: {
  children: ReactNode;
  className?: string;
  label?: string;
  stacked?: boolean;
}) {
  return (
    <ScrollFrame className={cn("border-border bg-surface rounded-lg border", stacked && STACKED, className)}>
      <table className="w-full border-collapse text-sm" aria-label={label}>
        {children}
      </table>
    </ScrollFrame>
  );
}

export function Th({
  numeric = false,
  className,
  children,
  ...rest
}: { numeric?: boolean } & ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        "border-border bg-surface-muted text-text-muted border-b px-3 py-2 text-xs font-semibold whitespace-nowrap",
        numeric ? "text-right" : "text-left",
        className,
      )}
      {...rest}
    >
      {children}
    </th>
  );
}

export function Td({
  numeric = false,
  wrap = false,
  label,
  className,
  children,
  ...rest
}: {
  numeric?: boolean;
  /** Prose that wraps inside its cell (cn merges no conflicting classes). */ wrap?: boolean;
  /** The cell's name, shown above it where a stacked table hides its header (below `sm`). */ label?: string;
} & TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td
      className={cn(
        "border-border border-b px-3 py-2",
        wrap ? "whitespace-normal" : "whitespace-nowrap",
        numeric && "text-right tabular-nums",
        label !== undefined &&
          "max-sm:before:block max-sm:before:text-[11px] max-sm:before:font-normal max-sm:before:text-text-muted max-sm:before:content-[attr(data-label)]",
        className,
      )}
      data-label={label}
      {...rest}
    >
      {children}
    </td>
  );
}
