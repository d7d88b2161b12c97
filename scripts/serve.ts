// The production server `npm start` runs (scripts/start.ts spawns it, after the build and the
// migrations): Next's request handler on a node:http server of our own, so that a stop drains it.
//
// Why not `next start`: on SIGTERM or SIGINT it closes its HTTP server and waits, without a limit, for
// every connection to end (a keep-alive connection whose request was in flight stays open until its
// 65 s keep-alive timeout), then exits 143 or 130, without stopping the job workers or closing the
// database (the embedded one is left needing recovery). NEXT_MANUAL_SIG_HANDLE only removes that
// handler: Next gives instrumentation.ts no handle on its HTTP server to drain. `next({ dev: false })`
// (Next's custom server) serves through the same request handler `next start` builds
// (getRequestHandlers in next/dist/server/lib/start-server.js), with `next start`'s keep-alive timeout.
//
// A stop (SIGTERM or SIGINT; a repeat is ignored; or npm start's process gone), step by step (docs/operations.md, "Stopping,
// restarting and upgrading"):
// 1. isShuttingDown() turns true (a readiness check answers 503), and the listening socket closes.
// 2. Side by side, until BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS less CLOSE_RESERVE_MS: the HTTP drain
//    (scripts/lib/http-drain.ts: idle keep-alive connections closed, requests in flight answered with
//    `Connection: close`) then Next's own close; and the "drain" steps (the job workers take no new job;
//    the running one finishes, or is failed to be retried).
// 3. The "close" steps, by the limit: the database (the job queue, the pools, the embedded database).
// 4. Exit 0; or, if anything was cut off at the limit, each piece logged and exit 1.
import { createServer } from "node:http";
import { getEnv } from "../server/env";
import { beginShutdown, runShutdownPhase } from "../server/services/platform";
import { ROOT } from "./lib/build";
import { HttpDrain } from "./lib/http-drain";

const startedAt = Date.now();
// As `next start` does (bin/next): production, unless the environment says otherwise.
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
const env = getEnv();
process.env.PORT = String(env.PORT);
/** Kept for the database's close at the end of the limit: the drain stops this long before it. */
const CLOSE_RESERVE_MS = Math.min(2_000, (env.BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS * 1000) / 4);
// `next start`'s keep-alive (scripts/start.ts passed --keepAliveTimeout 65000): idle connections stay
// open 65 s, past the usual 60 s of proxies, so a proxy never reuses one the server is closing.
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

const { default: next } = await import("next");
const app = next({ dev: false, dir: ROOT, port: env.PORT, hostname: "localhost" });
const handle = app.getRequestHandler();
const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    // What `next start`'s own listener does with an error its handler let through.
    console.error(`Failed to handle request for ${request.url}`, error);
    if (!response.headersSent) response.writeHead(500).end("Internal Server Error");
    else response.destroy();
  });
});
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
// As `next start`: a port in use (or any error of the listening socket) ends the process. Without this,
// Next's uncaughtException logger (router-server) would keep it running, serving nothing.
server.on("error", (error) => {
  console.error("Failed to start server:", error);
  process.exit(1);
});
const drain = new HttpDrain(server);

let stopping = false;
/** Starts the stop once; a repeat (Ctrl+C reaches both npm start's process and this one) is ignored. */
function startStop(reason: string): void {
  if (stopping) {
    console.log(`${reason}: already stopping`);
    return;
  }
  stopping = true;
  stop(reason).catch((error: unknown) => {
    console.error("Stop failed:", error);
    process.exit(1);
  });
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => startStop(signal));
// scripts/start.ts gone (killed without passing a signal on: its IPC channel closed): stop the same way,
// rather than serve on as an orphan; its output pipe is gone too, so writes to it must not throw.
process.on("disconnect", () => {
  process.stdout.on("error", () => undefined);
  startStop("npm start's process exited");
});

async function stop(reason: string): Promise<void> {
  const signalAt = Date.now();
  const limitMs = env.BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS * 1000;
  const deadline = signalAt + limitMs;
  // Whatever happens below, the process is gone by the limit (a close that hangs included).
  setTimeout(() => {
    console.error(`Stop: still not done after ${env.BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS} s (BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS): exiting`);
    process.exit(1);
  }, limitMs + 500).unref();
  beginShutdown();
  console.log(
    `${reason}: stopping. No new connections; finishing ${drain.requestsInFlight} request(s) in flight and the running jobs, ` +
      `for up to ${env.BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS} s (BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS)`,
  );
  const drainDeadline = deadline - CLOSE_RESERVE_MS;
  const [requests, jobs] = await Promise.all([
    drain.drain(drainDeadline).then(async (cutOff) => {
      await app.close().catch((error: unknown) => console.error("Stop: Next's close failed:", error));
      return cutOff.map((what) => `request ${what}`);
    }),
    runShutdownPhase("drain", drainDeadline),
  ]);
  const closed = await runShutdownPhase("close", deadline);
  const cutOff = [...requests, ...jobs.cutOff, ...closed.cutOff];
  const seconds = ((Date.now() - signalAt) / 1000).toFixed(1);
  const done = ["HTTP server", ...jobs.ran, ...closed.ran].join(", ");
  if (cutOff.length === 0) {
    console.log(`Stopped in ${seconds} s: every request and job finished (${done}).`);
    process.exit(0);
  }
  console.error(`Stopped in ${seconds} s, at the limit (BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS=${env.BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS}); cut off:`);
  for (const what of cutOff) console.error(`  - ${what}`);
  process.exit(1);
}

await app.prepare();
// A stop that came while Next prepared has closed the server already: it never listens.
if (!stopping) server.listen(env.PORT, () => {
  // What `next start` sets once listening (the origin server actions are checked against).
  process.env.__NEXT_PRIVATE_ORIGIN = `http://localhost:${env.PORT}`;
  // scripts/start.ts waits for this line.
  console.log(`✓ Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
});
