import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpDrain } from "./http-drain";

// A real node:http server with 65 s keep-alive (as scripts/serve.ts), real keep-alive clients.

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/** A server answering `/` at once, `/slow` after 500 ms, and never answering `/hang`. */
async function startServer() {
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/hang")) return;
    setTimeout(() => res.end("ok"), req.url === "/slow" ? 500 : 0);
  });
  server.keepAliveTimeout = 65_000;
  const drain = new HttpDrain(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { server, drain, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, agent: Agent): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    })
      .on("error", reject)
      .end();
  });
}

describe("HttpDrain", () => {
  it("closes idle keep-alive connections at once, answers the requests in flight with Connection: close, and refuses new connections", async () => {
    const { server, drain, port } = await startServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    // Two connections kept alive: one idle at the signal, one with a request in flight.
    await Promise.all([get(port, "/", agent), get(port, "/", agent)]);
    const inFlight = get(port, "/slow", agent);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(drain.requestsInFlight).toBe(1);

    const started = Date.now();
    const cutOff = await drain.drain(Date.now() + 10_000);
    const answer = await inFlight;
    expect(cutOff).toEqual([]);
    expect(answer).toMatchObject({ status: 200, headers: { connection: "close" } });
    // Well before the 65 s keep-alive: server.close() alone waits for it (Node 20).
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.listening).toBe(false);
    await expect(get(port, "/", new Agent())).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("cuts off at the deadline what is still running, and names it", async () => {
    const { drain, port } = await startServer();
    const hanging = get(port, "/hang?token=secret", new Agent({ keepAlive: true }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const cutOff = await drain.drain(Date.now() + 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(1_500);
    // The path only: a query may carry secrets.
    expect(cutOff).toEqual([expect.stringMatching(/^GET \/hang, running for 0\.\d s$/)]);
    await expect(hanging).rejects.toMatchObject({ code: "ECONNRESET" });
  });
});
