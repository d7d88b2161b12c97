/**
 * Next.js calls register() once when a server process starts: it starts Benchtrack's background work
 * (server/jobs/worker.ts) and a parse thread (server/services/platform/cpu-pool.ts) in the Node.js runtime of `npm start` and `npm run dev`, never during a build.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startBackgroundWork } = await import("./server/jobs/worker");
  const { warmCpuPool } = await import("./server/services/platform");
  // A parse thread started (and its parsers loaded) now, not by the first upload.
  void warmCpuPool();
  await startBackgroundWork();
}
