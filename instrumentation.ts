/**
 * Next.js calls register() once when a server process starts: it starts Benchtrack's background work
 * (server/jobs/worker.ts) and a parse thread (server/services/platform/cpu-pool.ts) in the Node.js runtime of `npm start` and `npm run dev`, never during a build,
 * and registers the database's close as the last step of a stop (scripts/serve.ts, on SIGTERM or SIGINT).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startBackgroundWork } = await import("./server/jobs/worker");
  const { closeDb } = await import("./server/db");
  const { onShutdown, warmCpuPool } = await import("./server/services/platform");
  // A parse thread started (and its parsers loaded) now, not by the first upload.
  void warmCpuPool();
  const backgroundWork = startBackgroundWork();
  // Once the requests and jobs are over: the job queue (its pool, its maintenance), the pools, and the
  // embedded database, closed cleanly (a checkpoint: its next start needs no recovery) with its lock
  // released. A stop that comes while the background work still starts waits for it first (closing
  // the database under pg-boss's start failed it); its workers then stop with the queue.
  onShutdown({
    name: "database",
    phase: "close",
    run: async (deadline) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
      });
      const closing = backgroundWork.catch(() => undefined).then(async () => {
        await closeDb();
        return true as const;
      });
      const closed = await Promise.race([closing, late]);
      clearTimeout(timer);
      return closed ? [] : ["its connections were still busy at the limit"];
    },
  });
  await backgroundWork;
}
