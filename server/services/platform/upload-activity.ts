/**
 * The uploads in flight in this process, and when the last one ended: the coalescing job queues
 * (detection, rollups) take their next job in a lull between uploads (server/jobs/worker.ts), so that
 * during a burst the uploads keep the cores and the waiting job gathers the burst's runs.
 */
let inFlight = 0;
let lastEndedAt = Number.NEGATIVE_INFINITY;

/** `work` (one upload, whole) counted as in flight until it settles. */
export async function trackUpload<T>(work: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
    lastEndedAt = Date.now();
  }
}

/** How long this process has had no upload in flight (0 while one is). */
export function uploadQuietMs(now = Date.now()): number {
  return inFlight > 0 ? 0 : Math.max(0, now - lastEndedAt);
}
