import type { ReadDb } from "../db";
/**
 * The trend page's history cache (docs/architecture.md, "Indexes follow the pages' queries"). What is
 * read of the whole history ("all", the default range: the candidates, the metric series) is kept in
 * this process for the next view, against the endpoint's results signature: their count and highest id.
 * Results are never updated and their ids never reused, so an upload or a deletion changes it and the
 * next view reads again (on every replica: the signature is read from the database); a run's label,
 * branch, tool and commit never change, and a run's metrics come and go with its results. A range
 * counting back from now is read each time.
 */
import { LRUCache } from "lru-cache";
import { endpointCondition } from "./endpoint-page";
import type { HistoryScope } from "./endpoint-page";

const historyCache = new LRUCache<string, { signature: string; value: object }>({ max: 512 });

/** The signature the cache checks, or null (not cached) for a range counting back from now. */
export async function historySignature(db: ReadDb, scope: HistoryScope): Promise<string | null> {
  if (scope.since !== null) return null;
  const [stamp] = await db.$queryRaw<{ count: number; last: number | null }[]>`
    SELECT count(*)::int AS count, max(r.id) AS last FROM results r
     WHERE r.project_id = ${scope.projectId} AND ${endpointCondition(scope.endpointId)}`;
  return `${stamp?.count ?? 0}:${stamp?.last ?? ""}`;
}

/**
 * `read()`'s value, from the cache when it was read under the same signature; `what` names the read
 * and what else it depends on beside the scope (its budget of points, the marked runs).
 */
export async function cachedHistoryRead<T extends object>(
  signature: string | null,
  scope: HistoryScope,
  what: readonly unknown[],
  read: () => Promise<T>,
): Promise<T> {
  if (signature === null) return read();
  const cacheKey = JSON.stringify([...what, ...scopeKey(scope)]);
  const cached = historyCache.get(cacheKey);
  if (cached?.signature === signature) return cached.value as T;
  const value = await read();
  historyCache.set(cacheKey, { signature, value });
  return value;
}

/** The scope's part of a cache key (its range is "all" whenever a read is cached). */
const scopeKey = (scope: HistoryScope) => [scope.projectId, scope.endpointId, scope.branch, scope.label, scope.tool, scope.testbed?.name ?? (scope.testbed ? null : "all")];
