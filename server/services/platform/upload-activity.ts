/**
 * The uploads in flight in this process, and when the last one ended: the coalescing job queues
 * (detection, rollups) take their next job in a lull between uploads (server/jobs/worker.ts), so that
 * during a burst the uploads keep the cores and the waiting job gathers the burst's runs.
 *
 * Kept on globalThis: Next bundles this module into several chunks (the upload route's, instrumentation.ts's
 * where the workers start), each with its own module scope, and the count made in one is read in the other.
 * Times are performance.now()'s, which a change of the system clock does not move.
 */
interface UploadActivity {
  inFlight: number;
  lastEndedAt: number;
}

const globalForActivity = globalThis as unknown as { benchtrackUploadActivity?: UploadActivity };

function activity(): UploadActivity {
  globalForActivity.benchtrackUploadActivity ??= { inFlight: 0, lastEndedAt: Number.NEGATIVE_INFINITY };
  return globalForActivity.benchtrackUploadActivity;
}

/** `work` (one upload, whole) counted as in flight until it settles. */
export async function trackUpload<T>(work: () => Promise<T>): Promise<T> {
  const state = activity();
  state.inFlight++;
  try {
    return await work();
  } finally {
    state.inFlight--;
    state.lastEndedAt = performance.now();
  }
}

/** How long this process has had no upload in flight, in ms (0 while one is); `now` is performance.now()'s. */
export function uploadQuietMs(now = performance.now()): number {
  const state = activity();
  return state.inFlight > 0 ? 0 : Math.max(0, now - state.lastEndedAt);
}
