import type { ReadDb } from "../../db";
/**
 * The trend page's history cache (docs/architecture.md, "The history version"). For the whole history
 * (range "all", the default), this process keeps per page scope (endpoint or aggregate, branch, label,
 * tool, testbed) the compact history (server/domain/series/trend-history.ts), the endpoint's testbeds,
 * and, while the history is unchanged, the custom metrics' series and the chosen candidates, all at the
 * project's history version: a counter that database triggers move in the same transaction as every
 * write to the project's runs, results or metrics, logging what the write appended. The drawn runs'
 * whole rows are kept apart, by result id: a stored result never changes.
 *
 * Each view reads the version with the project (one indexed lookup, on every replica: a cache never
 * outlives a write it did not see). When the version moved only by appended runs that come after the
 * cached history's last, only their rows are read (by run id) and appended, and run selection is done
 * again in memory; anything else (a deletion or an update, a run at or before the last, a change log
 * already pruned) reads the whole history again. A range counting back from now is not cached.
 *
 * Bounded: an LRU of HISTORY_CACHE_ROWS runs over all scopes (~110 bytes a run: ~55 MB when full).
 */
import { LRUCache } from "lru-cache";
import { recordCacheLookups } from "../platform";
import { CompactHistory } from "../../domain/series/trend-history";
import type { HistoryCandidate } from "../../domain/series/trend-history";
import type { HistoryScope } from "./endpoint-page";
import type { TrendRow } from "../../domain/series/trend-series";
import { readAppendedHistory, readTrendRows, readWholeHistory } from "./trend-history-sql";
import type { AppendedRow, TestbedCount } from "./trend-history-sql";

/** The most runs the cache holds over all scopes (the least recently viewed scope goes first). */
export const HISTORY_CACHE_ROWS = 500_000;

/** What the cache holds of one scope's whole history, at `version`. */
export interface CachedHistory {
  version: number;
  history: CompactHistory;
  /** Every testbed of the endpoint's runs of the scope's tool, most results first (as the database sorts them). */
  testbeds: TestbedCount[];
  /** Each testbed's place in the database's order of the last whole read: ties in count keep it. */
  testbedRanks: Map<string | null, number>;
  /** Values of this very history (the candidates chosen), by what they are; replaced when the history grows. */
  ofHistory: Map<string, unknown>;
  /** Values kept while no result or metric of the project is written (the custom metrics' series, by budget); replaced then. */
  kept: Map<string, unknown>;
  /** Replaced in the cache by a newer entry (an append): nothing more is kept in this one. */
  superseded: boolean;
}

const historyCache = new LRUCache<string, CachedHistory>({
  maxSize: HISTORY_CACHE_ROWS,
  sizeCalculation: (entry) => entry.history.size + 1,
});
/** Reads in flight by scope: views arriving meanwhile wait for them instead of reading the same rows. */
const reading = new Map<string, Promise<CachedHistory>>();

/** Empties the cache (tests compare a cached answer with a fresh one). */
export function clearHistoryCache(): void {
  historyCache.clear();
  projectValues.clear();
  trendRows.clear();
}

/** The drawn results' whole rows kept, at most (~300 bytes each: ~30 MB when full). */
const TREND_ROWS_KEPT = 100_000;
/**
 * Whole rows of drawn results by run and result id (a result id alone is only unique in its database): a
 * stored result and its run never change, so a row read once stays true.
 */
const trendRows = new LRUCache<string, TrendRow>({ max: TREND_ROWS_KEPT });

/**
 * The whole rows of these results (the drawn runs' points, with their run's label, branch and commit),
 * by result id, reading only those not kept: after an upload, the view that follows reads the new run's
 * row alone.
 */
export async function cachedTrendRows(db: ReadDb, results: readonly { id: number; runId: string }[]): Promise<Map<number, TrendRow>> {
  const rows = new Map<number, TrendRow>();
  const missing: number[] = [];
  for (const { id, runId } of results) {
    const kept = trendRows.get(`${runId}/${id}`);
    if (kept) rows.set(id, kept);
    else missing.push(id);
  }
  recordCacheLookups("trend-rows", rows.size, missing.length);
  if (missing.length === 0) return rows;
  for (const [id, row] of await readTrendRows(db, missing)) {
    trendRows.set(`${row.runId}/${id}`, row);
    rows.set(id, row);
  }
  return rows;
}

/**
 * The scope's whole history at the version a view read (or later), from the cache, brought up to date
 * by the rows appended since, or read whole.
 */
export async function cachedHistory(db: ReadDb, scope: HistoryScope, version: number): Promise<CachedHistory> {
  const key = scopeKey(scope);
  for (;;) {
    const pending = reading.get(key);
    if (pending) {
      const read = await pending.catch(() => null);
      if (read && read.version >= version) return read;
      continue;
    }
    const cached = historyCache.get(key);
    const fresh = cached !== undefined && cached.version >= version;
    recordCacheLookups("trend-history", fresh ? 1 : 0, fresh ? 0 : 1);
    if (fresh) return cached;
    const read = (cached ? appendTo(db, scope, cached) : Promise.resolve(null)).then((entry) => entry ?? readWhole(db, scope));
    reading.set(key, read);
    try {
      const entry = await read;
      historyCache.set(key, entry);
      return entry;
    } finally {
      reading.delete(key);
    }
  }
}

/** The candidates run selection chooses from (see CompactHistory.selectCandidates), computed once per history. */
export function cachedCandidates(entry: CachedHistory, maxPoints: number, marked: { runIds: readonly string[]; times: readonly string[] }) {
  const key = JSON.stringify(["candidates", maxPoints, marked.runIds, marked.times]);
  let candidates = entry.ofHistory.get(key) as { rows: HistoryCandidate[]; total: number } | undefined;
  if (!candidates) {
    candidates = entry.history.selectCandidates(maxPoints, marked);
    entry.ofHistory.set(key, candidates);
  }
  return candidates;
}

/**
 * `read()`'s value, kept while no result or metric of the project is written (the custom metrics'
 * series); `what` names the read. A value read while the history moved on is used, not kept (it lands
 * in the map the history replaced).
 */
export async function keptWith<T>(
  entry: CachedHistory,
  what: readonly unknown[],
  read: () => Promise<T>,
  /** The history version the reading view saw (with its project): a view behind the entry reads from a snapshot (a lagging replica) that may lack rows the entry has. */
  readerVersion: number,
): Promise<T> {
  const key = JSON.stringify(what);
  const { kept } = entry;
  if (kept.has(key)) return kept.get(key) as T;
  const value = await read();
  // Kept only for the entry still cached (an append meanwhile replaced it: this value may belong to its
  // older history) and read at least as new as it.
  if (!entry.superseded && readerVersion >= entry.version) kept.set(key, value);
  return value;
}

const projectValues = new LRUCache<string, { version: number; value: unknown }>({ max: 1024 });

/**
 * `read()`'s value of a project, kept while its history version stays `version`: what only runs,
 * results or metrics decide (the filter options, the endpoints, the pull requests). An endpoint is
 * created with its first results and goes with them, so the version moves with it too.
 */
export async function keptAtVersion<T>(projectId: string, version: number, what: readonly unknown[], read: () => Promise<T>): Promise<T> {
  const key = JSON.stringify([projectId, ...what]);
  const kept = projectValues.get(key);
  recordCacheLookups("trend-project-values", kept?.version === version ? 1 : 0, kept?.version === version ? 0 : 1);
  if (kept?.version === version) return kept.value as T;
  const value = await read();
  projectValues.set(key, { version, value });
  return value;
}

async function readWhole(db: ReadDb, scope: HistoryScope): Promise<CachedHistory> {
  const read = await readWholeHistory(db, scope);
  return {
    version: read.version ?? 0,
    history: new CompactHistory(read.rows),
    testbeds: read.testbeds,
    testbedRanks: new Map(read.testbeds.map(({ testbed }, rank) => [testbed, rank])),
    ofHistory: new Map(),
    kept: new Map(),
    superseded: false,
  };
}

/**
 * Brings `entry` up to date with the runs appended since its version, or null when what moved the
 * version is anything else (then the caller reads the whole history).
 */
async function appendTo(db: ReadDb, scope: HistoryScope, entry: CachedHistory): Promise<CachedHistory | null> {
  const read = await readAppendedHistory(db, scope, entry.version);
  // The log holds every change since the entry's version (none pruned) and only insertions.
  if (read.version === null || read.changes !== read.version - entry.version || read.kinds.includes("rewrite")) return null;
  const rows = read.rows.filter((row) => isInScope(row, scope));
  if (rows.length > 0 && !entry.history.isAfterLast(rows[0]!.startedAtMs)) return null;
  const testbeds = countTestbeds(entry, read.rows.filter((row) => scope.tool === null || row.tool === scope.tool));
  if (testbeds === null) return null;

  // A new entry: views still working with the old one keep its values apart (keptWith). The compact
  // history itself is appended in place: a view chooses its candidates from it synchronously, and
  // rows past the size it saw do not change what it chose.
  entry.history.append(rows);
  entry.superseded = true;
  return {
    ...entry,
    superseded: false,
    testbeds,
    ofHistory: rows.length > 0 ? new Map<string, unknown>() : entry.ofHistory,
    kept: read.kinds.some((kind) => kind === "results" || kind === "metrics") ? new Map<string, unknown>() : entry.kept,
    version: read.version,
  };
}

/** The entry's testbed counts with `rows` added, in the database's order; null for a testbed it has never seen (its place is the database's to say). */
function countTestbeds(entry: CachedHistory, rows: readonly AppendedRow[]): TestbedCount[] | null {
  if (rows.length === 0) return entry.testbeds;
  const counts = new Map(entry.testbeds.map(({ testbed, runs }) => [testbed, runs]));
  for (const row of rows) {
    if (!entry.testbedRanks.has(row.testbed)) return null;
    counts.set(row.testbed, (counts.get(row.testbed) ?? 0) + 1);
  }
  return [...counts]
    .map(([testbed, runs]) => ({ testbed, runs }))
    .sort((a, b) => b.runs - a.runs || entry.testbedRanks.get(a.testbed)! - entry.testbedRanks.get(b.testbed)!);
}

/** Whether an appended row belongs to the scope's history (its filters, as historySource applies them). */
function isInScope(row: AppendedRow, scope: HistoryScope): boolean {
  return (
    (scope.branches === null || scope.branches.includes(row.branch)) &&
    (scope.label === null || row.label === scope.label) &&
    (scope.tool === null || row.tool === scope.tool) &&
    (scope.testbed === undefined || row.testbed === scope.testbed.name)
  );
}

/** The scope as a cache key (its range is "all" whenever it is cached). */
const scopeKey = (scope: HistoryScope) =>
  JSON.stringify([scope.projectId, scope.endpointId, scope.branches, scope.label, scope.tool, scope.testbed ?? null]);
