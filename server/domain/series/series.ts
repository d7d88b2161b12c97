/**
 * A series: the runs whose results may be compared with one another — same tool, label and branch
 * (docs/statistics.md, "Series"). Baselines, detection windows, the overview, the trend page and
 * compare each select by these three; this is their one name for people.
 */
export interface SeriesIdentity {
  tool: string;
  label: string | null;
  branch: string | null;
}

/** "k6 · nightly · main", as tooltips and notes name a series. */
export function seriesName(series: SeriesIdentity): string {
  return `${series.tool} · ${series.label ?? "no label"} · ${series.branch ?? "no branch"}`;
}
