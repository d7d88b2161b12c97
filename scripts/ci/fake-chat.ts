import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

/**
 * A stand-in for a Slack, Teams or JSON webhook receiver, for tests and end-to-end runs: a small HTTP
 * server on 127.0.0.1 that records every POST (path, headers, raw body, parsed JSON), checks its
 * signature the way docs/notifications.md tells a receiver to (node:crypto, on its own: not Benchtrack's
 * code) when it is given the secret, answers 200 "ok" as Slack does, and can be told to fail the next N
 * calls with a status (or hang, status 0, to test timeouts).
 *
 * In a test: `const chat = await startFakeChat({ secret })`, point a project's webhook at `chat.url`
 * (Benchtrack must be allowed to reach 127.0.0.1: BENCHTRACK_WEBHOOK_ALLOWED_HOSTS=127.0.0.1).
 * From the command line, for an end-to-end run or by hand:
 *   npx tsx scripts/ci/fake-chat.ts --port 3640 [--secret whsec_…]
 * then GET /__requests lists what it received (JSON), POST /__fail {"times":1,"status":503} fails the
 * next call, POST /__secret {"secret":"…"} sets the secret to check with, POST /__reset forgets all.
 */

export interface ChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** The body parsed, or null when it is not JSON. */
  json: unknown;
  /** The signature check against the secret; null when the fake was given none. */
  signature: { valid: boolean; reason: string | null } | null;
  /** What the fake answered (0: nothing, it hung). */
  status: number;
  at: string;
}

export interface FakeChat {
  /** The webhook URL to give Benchtrack (a path under the server, as Slack's and Teams' have). */
  url: string;
  /** The server's origin. */
  origin: string;
  requests: ChatRequest[];
  secret: string | null;
  /** Answer the next `times` calls with `status` (0: never answer). */
  failNext(times: number, status: number): void;
  reset(): void;
  close(): Promise<void>;
}

/** How far a timestamp may be from this clock, as the docs' receiver allows. */
export const TOLERANCE_SECONDS = 300;

/** What a receiver does (docs/notifications.md): HMAC-SHA256 of "<timestamp>.<raw body>", constant-time compare, a recent timestamp. */
export function checkSignature(secret: string, headers: IncomingHttpHeaders, body: string, nowSeconds = Date.now() / 1000): { valid: boolean; reason: string | null } {
  const timestamp = headers["x-benchtrack-timestamp"];
  const signature = headers["x-benchtrack-signature"];
  if (typeof timestamp !== "string" || typeof signature !== "string") return { valid: false, reason: "unsigned" };
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { valid: false, reason: "signature mismatch" };
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return { valid: false, reason: "stale timestamp" };
  return { valid: true, reason: null };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function answer(response: ServerResponse, status: number, body: string, type = "text/plain") {
  response.writeHead(status, { "content-type": type });
  response.end(body);
}

export async function startFakeChat(options: { secret?: string | null; port?: number; host?: string } = {}): Promise<FakeChat> {
  const failures: { times: number; status: number }[] = [];
  const chat: FakeChat = {
    url: "",
    origin: "",
    requests: [],
    secret: options.secret ?? null,
    failNext(times, status) {
      failures.push({ times, status });
    },
    reset() {
      chat.requests.length = 0;
      failures.length = 0;
    },
    close: async () => undefined,
  };
  const server = createServer((incoming, response) => {
    void (async () => {
      const path = new URL(incoming.url ?? "/", "http://fake.chat").pathname;
      const body = await readBody(incoming);
      // The control API (command-line use): never recorded.
      if (path.startsWith("/__")) {
        const input = (parseJson(body) ?? {}) as { times?: number; status?: number; secret?: string | null };
        if (path === "/__requests" && incoming.method === "GET") return answer(response, 200, JSON.stringify(chat.requests), "application/json");
        if (path === "/__fail" && incoming.method === "POST") {
          chat.failNext(input.times ?? 1, input.status ?? 503);
          return answer(response, 204, "");
        }
        if (path === "/__secret" && incoming.method === "POST") {
          chat.secret = input.secret ?? null;
          return answer(response, 204, "");
        }
        if (path === "/__reset" && incoming.method === "POST") {
          chat.reset();
          return answer(response, 204, "");
        }
        return answer(response, 404, "no such control");
      }
      const failure = failures.find((candidate) => candidate.times > 0);
      const status = failure ? failure.status : 200;
      if (failure) failure.times -= 1;
      chat.requests.push({
        method: incoming.method ?? "",
        path,
        headers: incoming.headers,
        body,
        json: parseJson(body),
        signature: chat.secret === null ? null : checkSignature(chat.secret, incoming.headers, body),
        status,
        at: new Date().toISOString(),
      });
      if (status === 0) return; // hang: the sender's timeout must end it
      answer(response, status, status < 300 ? "ok" : status === 400 ? "invalid_payload" : "upstream trouble");
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  chat.origin = `http://127.0.0.1:${port}`;
  chat.url = `${chat.origin}/services/T000/B000/fake-chat-token`;
  chat.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return chat;
}

// Run directly: a receiver for an end-to-end run or a try by hand.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const chat = await startFakeChat({ port: Number(arg("port") ?? 3640), secret: arg("secret") ?? null });
  console.log(`fake chat receiver: POST ${chat.url} (GET ${chat.origin}/__requests lists what came)`);
  const stop = () => void chat.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
