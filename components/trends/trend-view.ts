import { DEFAULT_TREND_LINES, TREND_LINES, TREND_RANGES } from "@/server/domain/series/trend-series";
import type { TrendLine, TrendRange, TrendXMode } from "@/server/domain/series/trend-series";

/**
 * The trend page's view state, which lives in its URL (shareable, back-button friendly):
 * `?lines=p50,p95,p99&x=order&branch=main&branch=feature%2Fx&label=baseline&tool=k6&range=90d`. Defaults are left out of the URL;
 * unknown or malformed values fall back to the default rather than failing the page. The page's path
 * is `pagePaths.endpoint(slug, name, serializeTrendView(view))` (server/domain/urls.ts).
 */
export interface TrendView {
  lines: TrendLine[];
  x: TrendXMode;
  /**
   * The branches drawn, one line each (`branch=` repeated, in order): names, `none` for the runs naming no
   * branch, `all` for every run as one series; empty: the project's default branch
   * (server/domain/series/trend-branches.ts).
   */
  branches: string[];
  label: string | null;
  /** One tool, "all", or null: the tool of the endpoint's latest run (one series by default). */
  tool: string | null;
  /** One testbed, "all", or "none" (runs naming none); null: the latest run's testbed (one series by default). */
  testbed: string | null;
  /**
   * The endpoint's protocol, part of its identity (gRPC and HTTP `GetListing` are two endpoints); null: the
   * one endpoint of that name, or the most recently measured of several.
   */
  protocol: string | null;
  range: TrendRange;
  /** `branch:<name>` or `pr:<n>`: runs drawn over the base branch (server/domain/series/trend-overlay.ts). */
  overlay: string | null;
}

export const DEFAULT_TREND_VIEW: TrendView = {
  lines: [...DEFAULT_TREND_LINES],
  x: "time",
  branches: [],
  label: null,
  tool: null,
  testbed: null,
  protocol: null,
  range: "all",
  overlay: null,
};

type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>;

function allValues(params: SearchParamsLike, key: string): string[] {
  const values = params instanceof URLSearchParams ? params.getAll(key) : [params[key] ?? []].flat();
  return values.filter((value) => value.trim() !== "");
}

function firstValue(params: SearchParamsLike, key: string): string | null {
  if (params instanceof URLSearchParams) return params.get(key);
  const value = params[key];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function parseTrendView(params: SearchParamsLike): TrendView {
  const linesParam = firstValue(params, "lines");
  const lines =
    linesParam === null
      ? [...DEFAULT_TREND_LINES]
      : TREND_LINES.filter((line) =>
          linesParam
            .split(",")
            .map((part) => part.trim())
            .includes(line),
        );
  const x = firstValue(params, "x") === "order" ? "order" : "time";
  const range = TREND_RANGES.find((candidate) => candidate === firstValue(params, "range")) ?? "all";
  const nonEmpty = (value: string | null) => (value === null || value.trim() === "" ? null : value);
  return {
    lines: linesParam !== null && lines.length === 0 ? [...DEFAULT_TREND_LINES] : lines,
    x,
    branches: [...new Set(allValues(params, "branch"))],
    label: nonEmpty(firstValue(params, "label")),
    tool: nonEmpty(firstValue(params, "tool")),
    testbed: nonEmpty(firstValue(params, "testbed")),
    protocol: nonEmpty(firstValue(params, "protocol")),
    range,
    overlay: nonEmpty(firstValue(params, "overlay")),
  };
}

/** The query string for a view (without "?"), defaults left out, in a stable key order. */
export function serializeTrendView(view: TrendView): string {
  const params = new URLSearchParams();
  if (view.protocol !== null) params.set("protocol", view.protocol);
  const lines = TREND_LINES.filter((line) => view.lines.includes(line));
  const isDefaultLines = lines.join(",") === DEFAULT_TREND_LINES.join(",");
  if (!isDefaultLines && lines.length > 0) params.set("lines", lines.join(","));
  if (view.x !== "time") params.set("x", view.x);
  for (const branch of view.branches) params.append("branch", branch);
  if (view.label !== null) params.set("label", view.label);
  if (view.tool !== null) params.set("tool", view.tool);
  if (view.testbed !== null) params.set("testbed", view.testbed);
  if (view.range !== "all") params.set("range", view.range);
  if (view.overlay !== null) params.set("overlay", view.overlay);
  return params.toString();
}

/** The line set with `line` switched on or off, in legend order. */
export function toggleTrendLine(lines: readonly TrendLine[], line: TrendLine): TrendLine[] {
  const next = lines.includes(line) ? lines.filter((candidate) => candidate !== line) : [...lines, line];
  return TREND_LINES.filter((candidate) => next.includes(candidate));
}

/** The query the page prefetches for a URL; the client component asks for exactly the same key. */
export function trendsQueryInput(projectSlug: string, endpoint: string, view: TrendView) {
  return {
    project: projectSlug,
    endpoint,
    protocol: view.protocol,
    branch: view.branches,
    label: view.label,
    tool: view.tool,
    testbed: view.testbed,
    range: view.range,
    overlay: view.overlay,
  };
}
