"use client";

import { ScopedLink } from "@/components/share/share-context";
import { usePathname, useSearchParams } from "next/navigation";
import { formatMs, formatNumber, formatPct } from "@/server/domain/format";
import { BreakableName } from "@/components/ui/breakable-name";
import { formatThroughput, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
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

const hasErrors = (row: EndpointRowData) => (row.failures ?? 0) > 0;

/** The time columns and the row field each shows. */
const TIME_FIELD = { avg: "meanMs", p50: "p50Ms", p90: "p90Ms", p95: "p95Ms", p99: "p99Ms", max: "maxMs" } as const;
type TimeKey = keyof typeof TIME_FIELD;

/**
 * The table's columns for the run's kind (server/domain/result-kind.ts). A load test's: count, RPS,
 * latency in ms (stated once in the header), errors. A run of benchmarks': samples, ops/s, time per
 * operation with its unit in every cell (ns, µs and ms side by side), and errors only when a benchmark
 * failed (hyperfine's non-zero exits): otherwise they are always empty; a percentile no benchmark of the
 * run has (vitest writes no p90 or p95) is left out too. A run with both kinds keeps the
 * load test's columns, and each row reads in its own words (a benchmark's time keeps its unit, its
 * throughput says ops/s).
 */
function columnsFor(kind: ResultKinds, rows: readonly EndpointRowData[]): Column[] {
  const anyFailures = rows.some(hasErrors);
  const words = wordsOf(kind);
  const isBenchmarks = kind === "benchmark";
  // In a table of benchmarks every time keeps its unit; elsewhere "ms" is said by the header.
  const timeUnit = isBenchmarks ? undefined : "ms";
  const time = (value: number | null) => (isBenchmarks ? formatMs(value) : withoutUnit(formatMs(value), "ms"));
  const throughput = (row: EndpointRowData) => {
    const formatted = formatThroughput(row.requestsPerSecond, row.kind);
    return row.kind === "benchmark" && !isBenchmarks ? formatted : withoutUnit(formatted, words.throughputUnit);
  };
  const latency = isBenchmarks ? "time per operation" : "latency";
  const timeColumn = (key: TimeKey, label: string, title: string): Column => ({
    key,
    label,
    unit: timeUnit,
    title,
    render: (row) => time(row[TIME_FIELD[key]]),
  });
  const times = [
    timeColumn("avg", isBenchmarks ? "Mean" : "Avg", `Mean ${latency}`),
    timeColumn("p50", "P50", `Median ${latency}`),
    timeColumn("p90", "P90", `90th percentile ${latency}`),
    timeColumn("p95", "P95", `95th percentile ${latency}`),
    timeColumn("p99", "P99", `99th percentile ${latency}`),
    timeColumn("max", "Max", isBenchmarks ? "Slowest sample" : "Slowest call"),
  ];
  const hasTime = (column: Column) => rows.some((row) => row[TIME_FIELD[column.key as TimeKey]] !== null);
  const columns: Column[] = [
    {
      key: "count",
      label: words.countTitle,
      title: isBenchmarks ? "Samples: repetitions, rounds or timed runs" : "Requests (calls) made",
      render: (row) => formatNumber(row.requests, 0),
    },
    {
      key: "rps",
      label: words.throughputTitle,
      unit: isBenchmarks ? undefined : words.throughputUnit,
      title: isBenchmarks ? "Operations per second" : "Throughput, requests per second",
      render: throughput,
    },
    ...(isBenchmarks ? times.filter(hasTime) : times),
  ];
  if (!words.hasLoad && !anyFailures) return columns;
  return [
    ...columns,
    { key: "errors", label: "Errors", title: `Failed ${words.count}`, render: (row) => formatNumber(row.failures, 0), isBad: hasErrors },
    { key: "errorRate", label: "Error %", title: `Failed / all ${words.count}`, render: (row) => formatPct(row.errorRate), isBad: hasErrors },
  ];
}

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
    <span className="inline-flex max-w-[22rem] items-center gap-1.5 break-words whitespace-normal">
      {method && <span className="rounded bg-surface-muted px-1 font-mono text-[10px] text-text-muted">{method}</span>}
      {row.href ? (
        <ScopedLink href={row.href} title={row.fullName ?? row.name} className="min-w-0 font-medium text-accent underline-offset-2 hover:underline">
          <BreakableName name={row.displayName} />
        </ScopedLink>
      ) : (
        <span className="min-w-0 font-semibold">
          <BreakableName name={row.displayName} />
        </span>
      )}
    </span>
  );
}

/** A column's name with the unit its cells leave out: "P95 (ms)". */
function columnName(column: Column): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

function Row({ row, columns, showSla }: { row: EndpointRowData; columns: readonly Column[]; showSla: boolean }) {
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
      {columns.map((column) => (
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

/** "P95 (highest first)", "Endpoint (A→Z)": a sort in words, in the direction it has (or would start in). */
function describeSort(label: string, key: SortKey, sort: SortState | null): string {
  const direction = sort?.key === key ? sort.direction : nextSortState(null, key).direction;
  if (key === "name") return `${label} (${direction === "asc" ? "A→Z" : "Z→A"})`;
  return `${label} (${direction === "desc" ? "highest" : "lowest"} first)`;
}

/** The sort as a menu below `sm`, where the table's header buttons are hidden: any column, in its default direction. */
function PhoneSort({
  nameLabel,
  columns,
  sort,
  onSort,
}: {
  nameLabel: string;
  columns: readonly Column[];
  sort: SortState | null;
  onSort: (sort: SortState | null) => void;
}) {
  const choices: { key: SortKey; label: string }[] = [{ key: "name", label: nameLabel }, ...columns];
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
        {choices.map(({ key, label }) => (
          <option key={key} value={key}>
            {describeSort(label, key, sort)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Per-endpoint (or per-benchmark) numbers, sortable by any column (the sort lives in the URL:
 * `?sort=p95&dir=desc`), the aggregate pinned last when the run has one worth a row. Headers are
 * buttons, so sorting works from the keyboard.
 */
export function EndpointTable({
  kind,
  endpoints,
  aggregate,
  showSla,
}: {
  kind: ResultKinds;
  endpoints: EndpointRowData[];
  aggregate: EndpointRowData | null;
  showSla: boolean;
}) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const sort = parseSortState(searchParams);
  const words = wordsOf(kind);
  const columns = columnsFor(kind, endpoints);
  // A sort on a column this table does not have (errors, in a table of benchmarks) sorts nothing.
  const shownSort = sort && (sort.key === "name" || columns.some((column) => column.key === sort.key)) ? sort : null;
  const rows = sortEndpointRows(endpoints, shownSort);

  const setSort = (next: SortState | null) => {
    // The native history API keeps Next's router (and useSearchParams) in sync without a server round trip.
    window.history.replaceState(null, "", `${pathname}${withSortParams(searchParams.toString(), next)}`);
  };
  const onSort = (key: SortKey) => setSort(nextSortState(shownSort, key));

  return (
    <>
      <PhoneSort nameLabel={words.nounTitle} columns={columns} sort={shownSort} onSort={setSort} />
      <Table label={words.nounsTitle} className="max-h-[70vh] overflow-y-auto max-sm:max-h-none" stacked>
        <thead className="sticky top-0 z-20">
          <tr>
            <SortHeader
              sortKey="name"
              sort={shownSort}
              numeric={false}
              title={`${words.nounTitle} name`}
              onSort={onSort}
              className="sticky left-0 z-30"
            >
              {words.nounTitle}
            </SortHeader>
            {columns.map((column) => (
              <SortHeader
                key={column.key}
                sortKey={column.key}
                sort={shownSort}
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
            <Row key={`${row.kind}:${row.name}`} row={row} columns={columns} showSla={showSla} />
          ))}
        </tbody>
        {aggregate && (
          <tfoot className="sticky bottom-0 z-20 border-t-2 border-border max-sm:static">
            <Row row={aggregate} columns={columns} showSla={showSla} />
          </tfoot>
        )}
      </Table>
    </>
  );
}
