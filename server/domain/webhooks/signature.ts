import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures (Stripe-style): every call carries `X-Benchtrack-Timestamp: <unix seconds>` and
 * `X-Benchtrack-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`, keyed with the
 * project's webhook secret (its UTF-8 bytes, as shown on the Settings page). Signing the timestamp with
 * the body lets a receiver refuse a replayed call: it checks the signature over the body it received,
 * then that the timestamp is recent (docs/notifications.md has a Node receiver).
 */

export const TIMESTAMP_HEADER = "X-Benchtrack-Timestamp";
export const SIGNATURE_HEADER = "X-Benchtrack-Signature";
/** How far from the receiver's clock a timestamp may be before verifyWebhookSignature refuses it. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** "sha256=<hex>" of `${timestamp}.${body}`. */
export function signWebhookBody(secret: string, timestampSeconds: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex")}`;
}

export type SignatureCheck = { valid: true } | { valid: false; reason: string };

/**
 * What a receiver does with a call: the signature must be the body's, with this secret, and the
 * timestamp within `toleranceSeconds` of `nowSeconds`. Constant-time comparison.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  nowSeconds: number;
  toleranceSeconds?: number;
}): SignatureCheck {
  const { secret, body, timestamp, signature, nowSeconds } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: `no ${TIMESTAMP_HEADER}` };
  if (!signature || !/^sha256=[0-9a-f]{64}$/.test(signature)) return { valid: false, reason: `no ${SIGNATURE_HEADER} of the form sha256=<64 hex digits>` };
  const expected = Buffer.from(signWebhookBody(secret, Number(timestamp), body));
  if (!timingSafeEqual(expected, Buffer.from(signature))) return { valid: false, reason: "the signature does not match the body" };
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return { valid: false, reason: `the timestamp is more than ${tolerance} s away: a replay?` };
  return { valid: true };
}
