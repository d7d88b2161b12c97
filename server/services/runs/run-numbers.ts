import type { ReadDb } from "../../db";
import { LRUCache } from "lru-cache";
import { numbersOfResult } from "../../domain/run";
import type { LoadedRun } from "./stored-runs";
import { loadParsedRuns } from "./stored-runs";
import { recordCacheLookups } from "../platform";

/**
 * The numbers of stored runs as the CI gate reads them (a run's results and custom metrics, without
 * histograms, status codes, errors or timelines), kept in memory: a stored run never changes (it is
 * deleted or kept whole: docs/architecture.md), so a run read once for one upload's baseline serves the
 * next uploads of its series without reading its rows again. Bounded by result rows, not runs: a run of
 * 500 endpoints weighs 500 times one of none. Each server process keeps its own.
 */
const MAX_RESULT_ROWS = 200_000;

const cache = new LRUCache<string, LoadedRun>({
  maxSize: MAX_RESULT_ROWS,
  sizeCalculation: (loaded) => 1 + loaded.run.endpoints.length,
});

const cacheKey = (projectId: string, runId: string) => `${projectId}/${runId}`;

/** The numbers of the project's runs of these ids (those that exist), reading only those not in memory. */
export async function loadRunNumbers(db: ReadDb, projectId: string, runIds: readonly string[]): Promise<Map<string, LoadedRun>> {
  const missing = runIds.filter((id) => !cache.has(cacheKey(projectId, id)));
  recordCacheLookups("run-numbers", runIds.length - missing.length, missing.length);
  const read = await loadParsedRuns(db, projectId, missing, { numbersOnly: true });
  for (const [id, loaded] of read) cache.set(cacheKey(projectId, id), loaded);
  return new Map(
    runIds.flatMap((id) => {
      const loaded = read.get(id) ?? cache.get(cacheKey(projectId, id));
      return loaded ? [[id, loaded] as const] : [];
    }),
  );
}

/**
 * Keeps the numbers of a run this process has just stored (after its transaction committed): they are
 * what loadParsedRuns would read back for the gate (the stored form, stored-runs.ts asStoredRun, without
 * histograms, status codes, errors or timelines), so the series' next upload reads none of its rows.
 */
export function rememberStoredRun(projectId: string, loaded: LoadedRun): void {
  const { run } = loaded;
  cache.set(cacheKey(projectId, loaded.stored.id), {
    ...loaded,
    run: { ...run, aggregate: numbersOfResult(run.aggregate), endpoints: run.endpoints.map(numbersOfResult) },
  });
}

/** Drops deleted runs from this process's memory (a deleted run's id is never read again, but its rows go at once). */
export function forgetRunNumbers(projectId: string, runIds: readonly string[]): void {
  for (const id of runIds) cache.delete(cacheKey(projectId, id));
}
