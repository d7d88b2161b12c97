import type { FormatId } from "@/server/domain/run";

// What formats.db.test.ts checks a stored run against besides its parser: the file's own figures, read
// from the file independently of the parsers (load-test-facts.fixture.ts, benchmark-facts.fixture.ts),
// and the helpers both read them with.

/** Linear interpolation between the two nearest ranks (k6's and NumPy's default), written out here. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export function csvRows(text: string): string[][] {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(","));
}

/**
 * The file's own figures: for a load test, the aggregate's request count and a percentile (key → ms) when
 * the file states one; for a benchmark file, some benchmarks' sample counts and time per operation
 * (`latency` key → ms) as the file writes them.
 */
export interface FileFacts {
  requests?: number;
  percentile?: { key: string; valueMs: number; digits?: number };
  benchmarks?: { name: string; samples: number | null; key: string; valueMs: number; digits?: number }[];
  /** Benchmarks counted, not timed (Valgrind): a metric's value as the file states it. */
  counts?: { name: string; metric: string; value: number }[];
}

/** How a format's files (their fixture paths and texts) give their facts. */
export type FactsReader = (files: { path: string; text: string }[]) => FileFacts;

/** A format's facts reader, by format id: formats.db.test.ts joins the tables into one of every format. */
export type FactsTable = Partial<Record<FormatId, FactsReader>>;
