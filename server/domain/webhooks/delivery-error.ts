/**
 * What a failed webhook delivery says where people read it (the delivery log, the jobs list): the kind
 * of failure in a few words, never the error's own text, which names internal addresses and ports
 * ("connect ECONNREFUSED 10.0.0.5:8080"), host names or certificate details. The error in full goes to
 * the server's log only (server/services/notifications/webhooks.ts).
 */

/** Error codes (Node's, undici's) by what they mean to whoever reads the log. */
const KINDS: readonly (readonly [message: string, codes: readonly string[]])[] = [
  ["Connection refused", ["ECONNREFUSED"]],
  ["Connection timed out", ["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT"]],
  ["Timed out waiting for the answer", ["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]],
  ["Connection closed by the receiver", ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]],
  ["Host name not found", ["ENOTFOUND", "EAI_NONAME", "EAI_NODATA", "EAI_FAIL"]],
  ["DNS lookup failed", ["EAI_AGAIN", "ESERVFAIL"]],
  ["Host unreachable", ["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN", "EADDRNOTAVAIL"]],
  ["Invalid HTTP answer", ["UND_ERR_RES_CONTENT_LENGTH_MISMATCH"]],
];

const TLS_CODES = new Set([
  "EPROTO",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
]);

/** The codes and names along an error's `cause` chain (fetch wraps the useful one: "fetch failed" ← "connect ECONNREFUSED …"). */
function codesOf(error: unknown): { codes: string[]; names: string[] } {
  const codes: string[] = [];
  const names: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, name, cause } = current as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === "string") codes.push(code);
    if (typeof name === "string") names.push(name);
    current = cause;
  }
  return { codes, names };
}

/**
 * The failure of one attempt, as everyone may read it: "Connection refused", "TLS error", "Timed out:
 * no answer within 5000 ms", … or "Network error" for anything else. `timeoutMs` is the attempt's own
 * deadline (its AbortSignal).
 */
export function describeDeliveryError(error: unknown, timeoutMs: number): string {
  const { codes, names } = codesOf(error);
  if (names.includes("TimeoutError") || names.includes("AbortError"))
    return `Timed out: no answer within ${timeoutMs} ms`;
  for (const [message, kindCodes] of KINDS) {
    if (codes.some((code) => kindCodes.includes(code))) return message;
  }
  if (codes.some((code) => TLS_CODES.has(code) || /^ERR_(TLS|SSL)_|CERT/.test(code)))
    return "TLS error (handshake or certificate)";
  if (codes.some((code) => code.startsWith("HPE_"))) return "Invalid HTTP answer";
  return "Network error";
}

/** What a delivery refused after resolution says (the address at fault goes to the server's log). */
export const ADDRESS_NOT_ALLOWED =
  "Address not allowed: nothing was sent (the host resolves to a private or special-purpose address)";
