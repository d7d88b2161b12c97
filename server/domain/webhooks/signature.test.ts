import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "./signature";

const SECRET = "whsec_0123456789abcdef0123456789abcdef";
const BODY = '{"event":"incident.opened","text":"Incident #3 opened"}';

describe("signWebhookBody", () => {
  it("is the hex HMAC-SHA256 of '<timestamp>.<body>' with the secret, as a receiver computes it with node:crypto", () => {
    const signature = signWebhookBody(SECRET, 1_764_147_600, BODY);
    // What docs/notifications.md tells a receiver to do, written out independently.
    const expected = createHmac("sha256", SECRET).update(`1764147600.${BODY}`, "utf8").digest("hex");
    expect(signature).toBe(`sha256=${expected}`);
    expect(timingSafeEqual(Buffer.from(signature), Buffer.from(`sha256=${expected}`))).toBe(true);
    // A hand-checked vector: HMAC-SHA256(key "key", "1.{}").
    expect(signWebhookBody("key", 1, "{}")).toBe(`sha256=${createHmac("sha256", "key").update("1.{}").digest("hex")}`);
  });
});

describe("verifyWebhookSignature", () => {
  const now = 1_764_147_600;
  const signed = { secret: SECRET, body: BODY, timestamp: String(now), signature: signWebhookBody(SECRET, now, BODY), nowSeconds: now + 10 };

  it("accepts the body it signed, within the tolerance", () => {
    expect(verifyWebhookSignature(signed)).toEqual({ valid: true });
  });

  it("refuses another body, another secret, another timestamp, a malformed header, and a replay after 5 minutes", () => {
    expect(verifyWebhookSignature({ ...signed, body: `${BODY} ` })).toEqual({ valid: false, reason: "the signature does not match the body" });
    expect(verifyWebhookSignature({ ...signed, secret: `${SECRET}x` }).valid).toBe(false);
    expect(verifyWebhookSignature({ ...signed, timestamp: String(now + 1) }).valid).toBe(false);
    expect(verifyWebhookSignature({ ...signed, signature: "sha256=abc" }).valid).toBe(false);
    expect(verifyWebhookSignature({ ...signed, signature: null }).valid).toBe(false);
    expect(verifyWebhookSignature({ ...signed, timestamp: "soon" }).valid).toBe(false);
    expect(verifyWebhookSignature({ ...signed, nowSeconds: now + 301 })).toEqual({ valid: false, reason: "the timestamp is more than 300 s away: a replay?" });
  });
});
