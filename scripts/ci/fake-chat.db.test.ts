import { createHmac, timingSafeEqual } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../server/domain/webhooks/signature";
import { startFakeChat, type FakeChat } from "./fake-chat";

// The stand-in receiver (for tests and end-to-end runs), and the receiver's check docs/notifications.md
// gives, copied here as a receiver would write it, against Benchtrack's own signatures.

/** docs/notifications.md, "Signatures": the Node snippet, as printed there. */
function isFromBenchtrack(secret: string, headers: Record<string, string | undefined>, rawBody: string, toleranceSeconds = 300) {
  const timestamp = headers["x-benchtrack-timestamp"];
  const signature = Buffer.from(headers["x-benchtrack-signature"] ?? "");
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex")}`);
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return false;
  return Math.abs(Date.now() / 1000 - Number(timestamp)) <= toleranceSeconds;
}

const SECRET = "whsec_test_0123456789abcdef";
const signed = (body: string, secret = SECRET, at = Math.floor(Date.now() / 1000)) => ({
  "content-type": "application/json",
  "x-benchtrack-timestamp": String(at),
  "x-benchtrack-signature": signWebhookBody(secret, at, body),
});

describe("the documented receiver check", () => {
  it("accepts Benchtrack's signature, and refuses another body, another secret and an old timestamp", () => {
    const body = '{"event":"incident.opened"}';
    expect(isFromBenchtrack(SECRET, signed(body), body)).toBe(true);
    expect(isFromBenchtrack(SECRET, signed(body), `${body} `)).toBe(false);
    expect(isFromBenchtrack(SECRET, signed(body, "another-secret-0123"), body)).toBe(false);
    expect(isFromBenchtrack(SECRET, signed(body, SECRET, Math.floor(Date.now() / 1000) - 600), body)).toBe(false);
    expect(isFromBenchtrack(SECRET, {}, body)).toBe(false);
  });
});

describe("startFakeChat", () => {
  let chat: FakeChat | null = null;
  afterEach(async () => {
    await chat?.close();
    chat = null;
  });

  it("records calls with their signature check, fails the next calls on request, and answers its control API", async () => {
    chat = await startFakeChat({ secret: SECRET });
    const post = (body: string, headers: Record<string, string>) => fetch(chat!.url, { method: "POST", body, headers });
    expect((await post('{"a":1}', signed('{"a":1}'))).status).toBe(200);
    expect((await post('{"a":2}', signed('{"a":1}'))).status).toBe(200);
    expect((await fetch(`${chat.origin}/__fail`, { method: "POST", body: JSON.stringify({ times: 1, status: 503 }) })).status).toBe(204);
    expect((await post("not json", {})).status).toBe(503);
    expect((await post("{}", signed("{}"))).status).toBe(200);

    const listed = (await (await fetch(`${chat.origin}/__requests`)).json()) as { json: unknown; signature: unknown; status: number }[];
    expect(listed.map(({ json, signature, status }) => ({ json, signature, status }))).toEqual([
      { json: { a: 1 }, signature: { valid: true, reason: null }, status: 200 },
      { json: { a: 2 }, signature: { valid: false, reason: "signature mismatch" }, status: 200 },
      { json: null, signature: { valid: false, reason: "unsigned" }, status: 503 },
      { json: {}, signature: { valid: true, reason: null }, status: 200 },
    ]);
    expect(chat.requests[0]!.path).toBe("/services/T000/B000/fake-chat-token");
    await fetch(`${chat.origin}/__reset`, { method: "POST" });
    expect(chat.requests).toEqual([]);
  });
});
