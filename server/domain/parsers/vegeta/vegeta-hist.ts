/**
 * `vegeta report -type=hist[…]` (lib/histogram.go): the request count per latency bucket, no percentiles.
 * Bucket i is [edge i, edge i+1) in vegeta, stored as (upper[i-1], upper[i]] (only a latency
 *   exactly on an edge, to the ns, can differ). The last row is always `[edge, +Inf]`; it ALSO holds the
 *   requests faster than the first edge (histogram.go `Add` falls through to the last bucket). That open
 *   bucket cannot be stored (JSON has no infinity): dropped when empty, else left out with a note.
 */
import type { HistogramBucket, ParsedRun } from "../../run";
import { emptyVegetaRun, goDurationNsOf, malformed, NS_PER_MS } from "./vegeta-report";

const HIST_HEADER = /^Bucket\s+#\s+%\s+Histogram$/;
const HIST_ROW =
  /^\[(?<lower>[^,\s]+),\s*(?<upper>[^\]\s]+)\]\s+(?<count>\d+)\s+(?<percent>\d+(?:\.\d+)?|NaN)%(?:\s+#*)?$/;

interface VegetaHistogram {
  requests: number;
  histogram: HistogramBucket[] | null;
  notes: string[];
}

export function parseVegetaHist(text: string, source: string): ParsedRun {
  const { requests, histogram, notes } = readVegetaHist(text, source);
  const run = emptyVegetaRun("vegeta-hist");
  run.aggregate.requests = requests;
  run.aggregate.histogram = histogram;
  run.notes.push(...notes);
  return run;
}

export function readVegetaHist(text: string, source: string): VegetaHistogram {
  const rows: {
    where: string;
    lowerNs: number;
    upperNs: number | null;
    lowerText: string;
    count: number;
    percent: string;
  }[] = [];
  let header = false;
  for (const [index, raw] of text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .entries()) {
    const line = raw.trim();
    const where = `${source}: line ${index + 1}`;
    if (line === "") continue;
    if (!header) {
      if (!HIST_HEADER.test(line))
        throw malformed(where, "expected vegeta's histogram header `Bucket  #  %  Histogram`");
      header = true;
      continue;
    }
    const groups = HIST_ROW.exec(line)?.groups;
    if (!groups?.lower || !groups.upper || !groups.count || !groups.percent) {
      throw malformed(where, `not a histogram row \`[lower, upper]  count  percent%  ###\`: "${line.slice(0, 80)}"`);
    }
    const previous = rows[rows.length - 1];
    if (previous && previous.upperNs === null) throw malformed(where, "a row after the open [.., +Inf] row");
    const lowerNs = goDurationNsOf(groups.lower, where);
    const upperNs = groups.upper === "+Inf" ? null : goDurationNsOf(groups.upper, where);
    if (previous && previous.upperNs !== lowerNs)
      throw malformed(where, `starts at ${groups.lower}, not where the row before ends`);
    if (upperNs !== null && upperNs <= lowerNs) throw malformed(where, "bucket edges must ascend");
    rows.push({
      where,
      lowerNs,
      upperNs,
      lowerText: groups.lower,
      count: Number(groups.count),
      percent: groups.percent,
    });
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last || last.upperNs !== null) {
    // vegeta always ends the table with its open bucket (histogram.go `Nth`): without it, rows are missing.
    throw malformed(
      `${source}: line ${text.split(/\r?\n/).length}`,
      "the table ends without vegeta's last `[edge, +Inf]` row: the file looks truncated",
    );
  }
  const requests = rows.reduce((sum, row) => sum + row.count, 0);
  for (const row of rows) {
    // Each row's % is its share of the total to 2 decimals: a count that does not match was altered or garbled.
    if (requests > 0 && Math.abs((row.count / requests) * 100 - Number(row.percent)) > 0.005 + 1e-9) {
      throw malformed(row.where, `${row.count} of ${requests} requests is not the ${row.percent}% the row says`);
    }
  }
  const buckets: HistogramBucket[] = first.lowerNs > 0 ? [{ upperMs: first.lowerNs / NS_PER_MS, count: 0 }] : [];
  for (const row of rows)
    if (row.upperNs !== null) buckets.push({ upperMs: row.upperNs / NS_PER_MS, count: row.count });
  const notes: string[] = [];
  if (last.count > 0) {
    const faster =
      first.lowerNs > 0 ? `, or faster than the first edge ${first.lowerText}, which vegeta counts there too` : "";
    notes.push(
      `${last.count} of ${requests} requests are not in the histogram: they are in vegeta's open last bucket [${last.lowerText}, +Inf] (at or above ${last.lowerText}${faster}), which cannot be stored.`,
    );
  }
  return { requests, histogram: requests - last.count > 0 ? buckets : null, notes };
}
