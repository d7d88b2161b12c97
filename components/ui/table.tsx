import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/components/lib/cn";

/**
 * Table primitives: a horizontally scrollable frame (wide tables scroll inside their box at 375 px,
 * never the page), header and data cells with numeric alignment (right, tabular figures).
 */
export function Table({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
  return (
    <div className={cn("border-border bg-surface overflow-x-auto rounded-lg border", className)}>
      <table className="w-full border-collapse text-sm" aria-label={label}>
        {children}
      </table>
    </div>
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
  className,
  children,
  ...rest
}: {
  numeric?: boolean;
  /** Prose that wraps inside its cell (cn merges no conflicting classes). */ wrap?: boolean;
} & TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td
      className={cn(
        "border-border border-b px-3 py-2",
        wrap ? "whitespace-normal" : "whitespace-nowrap",
        numeric && "text-right tabular-nums",
        className,
      )}
      {...rest}
    >
      {children}
    </td>
  );
}
