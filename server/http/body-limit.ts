import { ServiceError } from "../services/platform";

/**
 * A request body read as text with a cap, enforced as bytes arrive: a declared Content-Length over the
 * cap is refused before a byte is read, and a body that streams past it is cancelled there (413 naming
 * the limit), so no request can make the server hold more than `maxBytes` of it. Text must be UTF-8
 * (a 400 otherwise).
 */
export async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    // Decoded leniently, the bad bytes would be stored as U+FFFD without a word.
    throw new ServiceError("bad_request", "The body is not valid UTF-8", [{ path: "body", message: "invalid UTF-8 byte sequence" }]);
  }
}

export function bodyTooLarge(maxBytes: number): ServiceError {
  return new ServiceError("payload_too_large", `The body exceeds this route's limit of ${maxBytes.toLocaleString("en-US")} bytes`, [
    { path: "body", message: `more than ${maxBytes} bytes` },
  ]);
}
