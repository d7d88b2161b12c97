/**
 * Sorting of the run report's endpoint table, with its state in the URL (`?sort=p95&dir=desc`) so a
 * sorted table can be shared. Pure and isomorphic: the server render and the browser sort alike.
 */
import type { EndpointRow } from "@/server/domain/report/report-sections";

export const SORT_KEYS = ["name", "count", "rps", "avg", "p50", "p90", "p95", "p99", "max", "errors", "errorRate"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = "asc" | "desc";
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

/** The fields of a row the table sorts on (a subset of the report's EndpointRow). */
export type SortableRow = Pick<
  EndpointRow,
  "name" | "requests" | "requestsPerSecond" | "meanMs" | "p50Ms" | "p90Ms" | "p95Ms" | "p99Ms" | "maxMs" | "failures" | "errorRate"
>;

const NUMERIC_FIELD = {
  count: "requests",
  rps: "requestsPerSecond",
  avg: "meanMs",
  p50: "p50Ms",
  p90: "p90Ms",
  p95: "p95Ms",
  p99: "p99Ms",
  max: "maxMs",
  errors: "failures",
  errorRate: "errorRate",
} as const satisfies Record<Exclude<SortKey, "name">, keyof SortableRow>;

function isSortKey(value: string): value is SortKey {
  return (SORT_KEYS as readonly string[]).includes(value);
}

/** `?sort=p95&dir=desc` → the sort; no (or an unknown) `sort` → null, i.e. the order of the upload. */
export function parseSortState(params: { get(name: string): string | null }): SortState | null {
  const key = params.get("sort");
  if (key === null || !isSortKey(key)) return null;
  const dir = params.get("dir");
  return { key, direction: dir === "asc" || dir === "desc" ? dir : defaultDirection(key) };
}

/** Names read A→Z first; numbers worst-first (highest latency, most errors) — what one looks for. */
function defaultDirection(key: SortKey): SortDirection {
  return key === "name" ? "asc" : "desc";
}

/** Clicking a header: a new column starts in its default direction; the same column flips. */
export function nextSortState(current: SortState | null, key: SortKey): SortState {
  if (current?.key === key) return { key, direction: current.direction === "asc" ? "desc" : "asc" };
  return { key, direction: defaultDirection(key) };
}

/**
 * A sorted copy. Missing values go last in either direction (a "—" is never the best or the worst);
 * ties keep the upload order.
 */
export function sortEndpointRows<Row extends SortableRow>(rows: readonly Row[], sort: SortState | null): Row[] {
  if (sort === null) return [...rows];
  const sign = sort.direction === "asc" ? 1 : -1;
  const indexed = rows.map((row, index) => ({ row, index }));
  indexed.sort((a, b) => {
    let order: number;
    if (sort.key === "name") {
      order = sign * a.row.name.localeCompare(b.row.name, "en", { numeric: true, sensitivity: "base" });
    } else {
      const field = NUMERIC_FIELD[sort.key];
      const left = a.row[field];
      const right = b.row[field];
      if (left === null && right === null) order = 0;
      else if (left === null) order = 1;
      else if (right === null) order = -1;
      else order = sign * (left - right);
    }
    return order !== 0 ? order : a.index - b.index;
  });
  return indexed.map(({ row }) => row);
}

/** The query string with the sort set (or removed), other parameters kept: "?hist=GetListing&sort=p95&dir=desc". */
export function withSortParams(search: string, sort: SortState | null): string {
  const params = new URLSearchParams(search);
  if (sort === null) {
    params.delete("sort");
    params.delete("dir");
  } else {
    params.set("sort", sort.key);
    params.set("dir", sort.direction);
  }
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}
