/**
 * One line per branch (docs/trends.md, "Branches"): a page that draws several branches gives each its own
 * colour and its own fields, so each line joins only its branch's runs, never a zig-zag through mixed
 * runs. Pure and tested (branch-lines.test.ts); the chart only draws what it is given.
 */
import type { TrendChartLine } from "@/components/charts/trend-chart";
import { branchName } from "@/server/domain/series/trend-branches";

/** A colour per drawn branch, in the URL's order (MAX_TREND_BRANCHES of them); CSS variables, so dark mode follows. */
export const BRANCH_COLORS = ["var(--chart-1)", "var(--chart-3)", "var(--chart-2)", "var(--chart-4)", "var(--chart-overlay)"] as const;

/** The colour of the i-th drawn branch. */
export function branchColor(index: number): string {
  return BRANCH_COLORS[index % BRANCH_COLORS.length]!;
}

/** The field holding branch i's value of `field` ("b1_p95Ms"). */
export function branchField(index: number, field: string): string {
  return `b${index}_${field}`;
}

/**
 * Each point with, for each drawn branch and each of `fields`, its value under that branch's field when
 * the point is that branch's run, else null (a line draws only its own branch's runs, joined across the
 * others'). A run of a branch not drawn gets nulls only.
 */
export function splitByBranch<P extends { branch: string | null }>(
  points: readonly P[],
  branches: readonly (string | null)[],
  fields: readonly string[],
): (P & Record<string, number | null>)[] {
  return points.map((point) => {
    const split: Record<string, number | null> = {};
    branches.forEach((branch, index) => {
      for (const field of fields) {
        const value = (point as unknown as Record<string, unknown>)[field];
        split[branchField(index, field)] = point.branch === branch && typeof value === "number" ? value : null;
      }
    });
    return { ...point, ...split };
  });
}

/**
 * The lines of several branches: for each branch (its colour), each given line on its branch's field,
 * named "main p95"; the second and later lines of a branch dashed, so percentiles stay apart.
 */
export function branchChartLines(branches: readonly (string | null)[], lines: readonly TrendChartLine[]): TrendChartLine[] {
  return branches.flatMap((branch, index) =>
    lines.map((line, k) => ({
      ...line,
      dataKey: branchField(index, line.dataKey),
      name: `${branchName(branch)} ${line.name}`,
      color: branchColor(index),
      dashed: k > 0,
    })),
  );
}
