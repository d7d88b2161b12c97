import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * The drain of a node:http server for a stop (scripts/serve.ts): no new connection is accepted (the
 * listening socket closes: a load balancer or client sees the connection refused, which it may retry
 * elsewhere, POSTs included, since nothing was sent), idle keep-alive connections close at once, every
 * request in flight is answered with `Connection: close` (and its connection closed after it), and a
 * request still arriving on an open connection is served the same way. What is still in flight at the
 * deadline is cut off (its connection destroyed) and named.
 *
 * Why not `server.close()` alone (what `next start` does on SIGTERM): on Node 20 a request in flight at
 * close() is still answered `Connection: keep-alive`, and its connection then stays open, idle, until
 * the keep-alive timeout (65 s here), so close() calls back only then; and it has no limit.
 */
export class HttpDrain {
  private readonly inFlight = new Map<ServerResponse, { method: string; url: string; startedAt: number }>();
  private draining = false;

  constructor(private readonly server: Server) {
    // First of the 'request' listeners: the header is set before the app writes any.
    server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => this.track(request, response));
  }

  /** Requests being answered now. */
  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  private track(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight.set(response, { method: request.method ?? "?", url: request.url ?? "?", startedAt: Date.now() });
    if (this.draining) response.setHeader("Connection", "close");
    response.once("close", () => {
      this.inFlight.delete(response);
      // A response whose headers left before the signal kept its connection alive: close it now it is idle.
      if (this.draining) setImmediate(() => this.server.closeIdleConnections());
    });
  }

  /**
   * Stops accepting connections and waits, until `deadline` (epoch ms), for every connection to end.
   * Answers the requests it cut off at the deadline (empty: all were answered).
   */
  async drain(deadline: number): Promise<string[]> {
    this.draining = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const response of this.inFlight.keys()) {
      if (!response.headersSent) response.setHeader("Connection", "close");
    }
    this.server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    });
    const finished = await Promise.race([closed.then(() => true as const), late]);
    clearTimeout(timer);
    if (finished) return [];
    const now = Date.now();
    const cutOff = [...this.inFlight.values()].map(
      ({ method, url, startedAt }) => `${method} ${url.split("?")[0]}, running for ${((now - startedAt) / 1000).toFixed(1)} s`,
    );
    this.server.closeAllConnections();
    return cutOff;
  }
}
