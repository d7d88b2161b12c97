import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { checkAgainstOpenApi } from "./openapi-responses";

/**
 * The REST route handlers behind a real HTTP socket, for tests of clients that speak HTTP (the CI
 * script in scripts/ci/): each request becomes the web Request Next.js would build, goes to the real
 * handler (real parsing, real database: the one the environment names, as rest-client.ts), and its
 * answer is checked against the published OpenAPI document, as `call` does.
 */
/** A route module's export, whatever its params (`never` accepts every route's; they come from the path's groups). */
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

export interface Route {
  /** Named groups become the route's params, e.g. /^\/api\/v1\/projects\/(?<project>[^/]+)\/runs$/. */
  path: RegExp;
  methods: Partial<Record<string, Handler>>;
}

export interface ServedRequest {
  method: string;
  url: URL;
  /** The request's headers, as received. */
  headers: Headers;
  status: number;
  /** The answer's body, as text. */
  answer: string;
}

export interface RouteServer {
  url: string;
  requests: ServedRequest[];
  /** Answers that did not match the OpenAPI document: a test should expect none. */
  mismatches: string[];
  close(): Promise<void>;
}

export async function serveRoutes(routes: Route[]): Promise<RouteServer> {
  const requests: ServedRequest[] = [];
  const mismatches: string[] = [];
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
      const method = incoming.method ?? "GET";
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
          headers.append(name, item);
      }
      const body = chunks.length > 0 && method !== "GET" && method !== "HEAD" ? Buffer.concat(chunks) : null;
      let response: Response;
      const route = routes.find((candidate) => candidate.path.test(url.pathname));
      const handler = route?.methods[method];
      if (!route || !handler) {
        response = Response.json(
          {
            error: {
              code: "not_found",
              message: `No route for ${method} ${url.pathname} in this test server`,
              details: [],
            },
          },
          { status: 404 },
        );
      } else {
        const params = { ...(route.path.exec(url.pathname)?.groups ?? {}) };
        response = await handler(new Request(url, { method, headers, body }), {
          params: Promise.resolve(params) as Promise<never>,
        });
        const mismatch = await checkAgainstOpenApi(method, url.pathname, response);
        if (mismatch) mismatches.push(mismatch);
      }
      const answer = Buffer.from(await response.arrayBuffer());
      requests.push({ method, url, headers, status: response.status, answer: answer.toString("utf8") });
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(answer);
    })().catch((error: unknown) => {
      outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(`test server: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mismatches,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
