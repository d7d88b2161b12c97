/**
 * A series: the runs whose results may be compared with one another — same tool, label, branch and
 * testbed (docs/statistics.md, "Series"; docs/benchmarks.md, "Testbeds"). Baselines, detection windows,
 * the overview, the trend page and compare each select by these; this is their one name for people.
 */
export interface SeriesIdentity {
  tool: string;
  label: string | null;
  branch: string | null;
  /** Absent or null: the runs that name no testbed (one testbed of their own). */
  testbed?: string | null;
}

/** "k6 · nightly · main", or "go · nightly · main · linux/amd64 · AMD EPYC" on a named testbed, as tooltips and notes name a series. */
export function seriesName(series: SeriesIdentity): string {
  const name = `${series.tool} · ${series.label ?? "no label"} · ${series.branch ?? "no branch"}`;
  return series.testbed ? `${name} · ${series.testbed}` : name;
}
