"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { formatMs, formatNumber, formatPct, formatRate } from "@/server/domain/format";
import { cn } from "@/components/lib/cn";
import { STACKED_ROW, Table, Td, Th } from "@/components/ui/table";
import { withoutUnit } from "./display";
import type { SortKey, SortState } from "./endpoint-sort";
import { SORT_KEYS, nextSortState, parseSortState, sortEndpointRows, withSortParams } from "./endpoint-sort";
import type { EndpointRowData } from "./types";

interface Column {
  key: Exclude<SortKey, "name">;
  label: string;
  /** The unit stated once in the header, so the cells show bare numbers. */
  unit?: string;
  title: string;
  render: (row: EndpointRowData) => string;
  isBad?: (row: EndpointRowData) => boolean;
}

const ms = (value: number | null) => withoutUnit(formatMs(value), "ms");
const hasErrors = (row: EndpointRowData) => (row.failures ?? 0) > 0;

const COLUMNS: readonly Column[] = [
  { key: "count", label: "Count", title: "Requests (calls) made", render: (row) => formatNumber(row.requests, 0) },
  {
    key: "rps",
    label: "RPS",
    unit: "req/s",
    title: "Throughput, requests per second",
    render: (row) => withoutUnit(formatRate(row.requestsPerSecond), "req/s"),
  },
  { key: "avg", label: "Avg", unit: "ms", title: "Mean latency", render: (row) => ms(row.meanMs) },
  { key: "p50", label: "P50", unit: "ms", title: "Median latency", render: (row) => ms(row.p50Ms) },
  { key: "p90", label: "P90", unit: "ms", title: "90th percentile latency", render: (row) => ms(row.p90Ms) },
  { key: "p95", label: "P95", unit: "ms", title: "95th percentile latency", render: (row) => ms(row.p95Ms) },
  { key: "p99", label: "P99", unit: "ms", title: "99th percentile latency", render: (row) => ms(row.p99Ms) },
  { key: "max", label: "Max", unit: "ms", title: "Slowest call", render: (row) => ms(row.maxMs) },
  { key: "errors", label: "Errors", title: "Failed requests", render: (row) => formatNumber(row.failures, 0), isBad: hasErrors },
  { key: "errorRate", label: "Error %", title: "Failed / all requests", render: (row) => formatPct(row.errorRate), isBad: hasErrors },
];

/** ✓/✗ against the SLA: shown only when the project has a policy. */
function SlaCell({ row }: { row: EndpointRowData }) {
  if (row.slaCompliant === null) return <span className="text-text-muted" title="No SLA check had data">—</span>;
  return row.slaCompliant ? (
    <span className="text-good" title="Every SLA check passed">
      ✓
    </span>
  ) : (
    <span className="text-bad" title="At least one SLA check failed">
      ✗
    </span>
  );
}

function ariaSortOf(sort: SortState | null, key: SortKey): "ascending" | "descending" | "none" {
  if (sort?.key !== key) return "none";
  return sort.direction === "asc" ? "ascending" : "descending";
}

function SortHeader({
  sortKey,
  sort,
  numeric,
  title,
  unit,
  onSort,
  className,
  children,
}: {
  sortKey: SortKey;
  sort: SortState | null;
  numeric: boolean;
  title: string;
  unit?: string;
  onSort: (key: SortKey) => void;
  className?: string;
  children: React.ReactNode;
}) {
  const ariaSort = ariaSortOf(sort, sortKey);
  const isActive = ariaSort !== "none";
  return (
    // Not the shared <Th>: the button carries the padding so the whole cell is the click target.
    <th
      scope="col"
      aria-sort={ariaSort}
      className={cn("border-b border-border bg-surface-muted p-0 text-xs whitespace-nowrap text-text-muted", className)}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        title={`${title}: sort`}
        data-sort-key={sortKey}
        className={cn(
          "group flex w-full flex-col px-3 py-1.5 font-semibold hover:text-text",
          numeric ? "items-end text-right" : "items-start text-left",
          isActive && "text-text",
        )}
      >
        {/* The arrow sits on the side away from the numbers, so labels line up with the figures below. */}
        <span className={cn("inline-flex items-center gap-0.5", numeric && "flex-row-reverse")}>
          {children}
          <span aria-hidden="true" className={cn("w-2 text-[9px]", isActive ? "text-accent" : "opacity-0 group-hover:opacity-50")}>
            {ariaSort === "ascending" ? "▲" : "▼"}
          </span>
        </span>
        <span className="text-[10px] font-normal">{unit ? `(${unit})` : "\u00a0"}</span>
      </button>
    </th>
  );
}

function EndpointName({ row }: { row: EndpointRowData }) {
  // "GET /api/listings" already says its method; "GetListing" with method GET does not.
  const method = row.method && !row.name.toUpperCase().startsWith(`${row.method.toUpperCase()} `) ? row.method : null;
  return (
    <span className="inline-flex max-w-[22rem] items-center gap-1.5">
      {method && <span className="rounded bg-surface-muted px-1 font-mono text-[10px] text-text-muted">{method}</span>}
      {row.href ? (
        <Link href={row.href} title={row.fullName ?? row.name} className="truncate font-medium text-accent underline-offset-2 hover:underline">
          {row.displayName}
        </Link>
      ) : (
        <span className="truncate font-semibold">{row.displayName}</span>
      )}
    </span>
  );
}

/** A column's name with the unit its cells leave out: "P95 (ms)". */
function columnName(column: Column): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

function Row({ row, showSla }: { row: EndpointRowData; showSla: boolean }) {
  return (
    <tr
      data-testid={row.isAggregate ? "aggregate-row" : "endpoint-row"}
      data-endpoint={row.name}
      // Below `sm`: the name (and the SLA mark beside it) over a grid of the numbers, each named.
      className={cn(STACKED_ROW, "max-sm:grid-cols-4", row.isAggregate ? "bg-surface-muted font-semibold" : "hover:bg-surface-muted/60")}
    >
      <Td
        className={cn(
          "sticky left-0 z-10 max-sm:static max-sm:bg-transparent",
          showSla ? "max-sm:col-span-3" : "max-sm:col-span-4",
          row.isAggregate ? "bg-surface-muted" : "bg-surface",
        )}
        data-column="name"
      >
        <EndpointName row={row} />
      </Td>
      {COLUMNS.map((column) => (
        <Td
          key={column.key}
          numeric
          label={columnName(column)}
          data-column={column.key}
          className={cn("max-sm:text-left", column.isBad?.(row) && "text-bad")}
        >
          {column.render(row)}
        </Td>
      ))}
      {showSla && (
        <Td label="SLA" className="text-center max-sm:col-start-4 max-sm:row-start-1 max-sm:text-right" data-column="sla">
          <SlaCell row={row} />
        </Td>
      )}
    </tr>
  );
}

const COLUMN_LABELS: Record<SortKey, string> = {
  name: "Endpoint",
  ...(Object.fromEntries(COLUMNS.map((column) => [column.key, column.label])) as Record<Exclude<SortKey, "name">, string>),
};

/** "P95 (highest first)", "Endpoint (A→Z)": a sort in words, in the direction it has (or would start in). */
function describeSort(key: SortKey, sort: SortState | null): string {
  const direction = sort?.key === key ? sort.direction : nextSortState(null, key).direction;
  if (key === "name") return `${COLUMN_LABELS[key]} (${direction === "asc" ? "A→Z" : "Z→A"})`;
  return `${COLUMN_LABELS[key]} (${direction === "desc" ? "highest" : "lowest"} first)`;
}

/** The sort as a menu below `sm`, where the table's header buttons are hidden: any column, in its default direction. */
function PhoneSort({ sort, onSort }: { sort: SortState | null; onSort: (sort: SortState | null) => void }) {
  return (
    <label className="mb-2 flex items-center gap-2 text-xs text-text-muted sm:hidden">
      Sort by
      <select
        value={sort?.key ?? ""}
        onChange={(event) => {
          const key = SORT_KEYS.find((candidate) => candidate === event.target.value);
          onSort(key ? nextSortState(null, key) : null);
        }}
        className="rounded border border-border bg-surface px-2 py-1 text-sm text-text"
      >
        <option value="">upload order</option>
        {SORT_KEYS.map((key) => (
          <option key={key} value={key}>
            {describeSort(key, sort)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Per-endpoint numbers, sortable by any column (the sort lives in the URL: `?sort=p95&dir=desc`), the
 * aggregate pinned last. Headers are buttons, so sorting works from the keyboard.
 */
export function EndpointTable({
  endpoints,
  aggregate,
  showSla,
}: {
  endpoints: EndpointRowData[];
  aggregate: EndpointRowData;
  showSla: boolean;
}) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const sort = parseSortState(searchParams);
  const rows = sortEndpointRows(endpoints, sort);

  const setSort = (next: SortState | null) => {
    // The native history API keeps Next's router (and useSearchParams) in sync without a server round trip.
    window.history.replaceState(null, "", `${pathname}${withSortParams(searchParams.toString(), next)}`);
  };
  const onSort = (key: SortKey) => setSort(nextSortState(sort, key));

  return (
    <>
      <PhoneSort sort={sort} onSort={setSort} />
      <Table label="Endpoints" className="max-h-[70vh] overflow-y-auto max-sm:max-h-none" stacked>
        <thead className="sticky top-0 z-20">
          <tr>
            <SortHeader sortKey="name" sort={sort} numeric={false} title="Endpoint name" onSort={onSort} className="sticky left-0 z-30">
              Endpoint
            </SortHeader>
            {COLUMNS.map((column) => (
              <SortHeader
                key={column.key}
                sortKey={column.key}
                sort={sort}
                numeric
                title={column.title}
                unit={column.unit}
                onSort={onSort}
              >
                {column.label}
              </SortHeader>
            ))}
            {showSla && <Th className="text-center">SLA</Th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Row key={row.name} row={row} showSla={showSla} />
          ))}
        </tbody>
        <tfoot className="sticky bottom-0 z-20 border-t-2 border-border max-sm:static">
          <Row row={aggregate} showSla={showSla} />
        </tfoot>
      </Table>
    </>
  );
}
