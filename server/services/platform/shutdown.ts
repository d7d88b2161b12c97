/**
 * Whether this process has begun to shut down: GET /api/ready then answers 503 (checks.shutdown), so a
 * load balancer stops sending it requests while it drains. The hook for graceful shutdown (SIGTERM),
 * which sets it; until that lands, a serving process is never shutting down.
 */
export function isShuttingDown(): boolean {
  return false;
}
