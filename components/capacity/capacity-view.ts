import type { CapacityXAxis } from "@/server/domain/capacity/capacity-curve";
import { LOAD_LEVEL_KEYS } from "@/server/domain/capacity/load-level";
import type { LoadLevelKey } from "@/server/domain/capacity/load-level";
import { AGGREGATE_URL_NAME } from "@/server/domain/run";

/**
 * The capacity page's view state, all in its URL (shareable, back-button friendly):
 * `?endpoint=GetListing&protocol=grpc&tool=ghz&label=capacity&base=branch:main&head=branch:feature-x&load=vus&x=load&lines=p95`.
 * Defaults are left out; unknown values fall back to the default. `label=` (empty) is the series of runs
 * without a label; no `label` at all is the default series. The path is `pagePaths.capacity(slug, query)`.
 */
export const CAPACITY_LINES = ["p50", "p95", "p99"] as const;
export type CapacityLine = (typeof CAPACITY_LINES)[number];

export interface CapacityView {
  /** The endpoint's name, or AGGREGATE_URL_NAME ("_all", the default) for the run aggregate. */
  endpoint: string;
  protocol: string | null;
  tool: string | null;
  /** undefined: the default series' label; null: runs without a label. */
  label: string | null | undefined;
  base: string | null;
  head: string | null;
  load: LoadLevelKey | null;
  x: CapacityXAxis;
  /** null: the default lines (p50, p95, p99; p95 alone when two curves share the chart). */
  lines: CapacityLine[] | null;
}

export const DEFAULT_CAPACITY_VIEW: CapacityView = {
  endpoint: AGGREGATE_URL_NAME,
  protocol: null,
  tool: null,
  label: undefined,
  base: null,
  head: null,
  load: null,
  x: "throughput",
  lines: null,
};

type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>;

function firstValue(params: SearchParamsLike, key: string): string | null {
  if (params instanceof URLSearchParams) return params.get(key);
  const value = params[key];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function parseCapacityView(params: SearchParamsLike): CapacityView {
  const nonEmpty = (key: string) => {
    const value = firstValue(params, key)?.trim() ?? "";
    return value === "" ? null : value;
  };
  const labelParam = firstValue(params, "label");
  const load = nonEmpty("load");
  const linesParam = nonEmpty("lines");
  const lines =
    linesParam === null
      ? []
      : CAPACITY_LINES.filter((line) =>
          linesParam
            .split(",")
            .map((part) => part.trim())
            .includes(line),
        );
  return {
    endpoint: nonEmpty("endpoint") ?? AGGREGATE_URL_NAME,
    protocol: nonEmpty("protocol"),
    tool: nonEmpty("tool"),
    label: labelParam === null ? undefined : labelParam.trim() === "" ? null : labelParam,
    base: nonEmpty("base"),
    head: nonEmpty("head"),
    load: LOAD_LEVEL_KEYS.find((key) => key === load) ?? null,
    x: firstValue(params, "x") === "load" ? "load" : "throughput",
    lines: lines.length === 0 ? null : lines,
  };
}

/** The query string for a view (without "?"), defaults left out, in a stable key order. */
export function serializeCapacityView(view: CapacityView): string {
  const params = new URLSearchParams();
  if (view.endpoint !== AGGREGATE_URL_NAME) params.set("endpoint", view.endpoint);
  if (view.protocol !== null) params.set("protocol", view.protocol);
  if (view.tool !== null) params.set("tool", view.tool);
  if (view.label !== undefined) params.set("label", view.label ?? "");
  if (view.base !== null) params.set("base", view.base);
  if (view.head !== null) params.set("head", view.head);
  if (view.load !== null) params.set("load", view.load);
  if (view.x !== "throughput") params.set("x", view.x);
  if (view.lines !== null) params.set("lines", CAPACITY_LINES.filter((line) => view.lines!.includes(line)).join(","));
  return params.toString();
}

/** The lines drawn: those asked for, else p50, p95 and p99 for one curve and p95 alone for two. */
export function capacityLinesOf(view: CapacityView, isComparison: boolean): CapacityLine[] {
  return view.lines ?? (isComparison ? ["p95"] : [...CAPACITY_LINES]);
}

/** The query the page prefetches for a URL; the client component asks for exactly the same key. */
export function capacityQueryInput(projectSlug: string, view: CapacityView) {
  return {
    project: projectSlug,
    endpoint: view.endpoint,
    protocol: view.protocol,
    tool: view.tool,
    ...(view.label !== undefined && { label: view.label }),
    base: view.base,
    head: view.head,
    load: view.load,
  };
}
