// HTTP for the CI script (scripts/ci/benchtrack-pr.mjs): fetch with a timeout, retries of what is safe
// to repeat, and errors that say which service answered what, with every secret blanked out.
// Plain Node (18+), no dependencies. See docs/ci.md.

/** A service answered with an error status, or could not be reached. */
export class ServiceCallError extends Error {
  /**
   * @param {string} message already redacted
   * @param {number | null} status null when the service was not reached
   */
  constructor(message, status) {
    super(message);
    this.name = "ServiceCallError";
    this.status = status;
  }
}

/** Replaces every secret (tokens) in a text by ***, so no message, error body or URL echoes one. */
export function redactor(secrets) {
  const present = secrets.filter((secret) => typeof secret === "string" && secret.length >= 4);
  return (text) => present.reduce((result, secret) => result.split(secret).join("***"), String(text));
}

const RETRIABLE = new Set([408, 429, 500, 502, 503, 504]);
const MAX_RETRY_AFTER_SECONDS = 30;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error message in an answer: Benchtrack's envelope, GitHub's or GitLab's `message`, else the text. */
export function errorDetail(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.trim().replace(/\s+/g, " ").slice(0, 300);
  }
  if (parsed && typeof parsed === "object") {
    const envelope = parsed.error;
    if (envelope && typeof envelope === "object" && typeof envelope.message === "string") {
      const detail = Array.isArray(envelope.details) && envelope.details[0] ? envelope.details[0] : null;
      const where =
        detail && typeof detail.path === "string" ? ` (${detail.path}: ${String(detail.message ?? "")})` : "";
      return `${String(envelope.code ?? "error")}: ${envelope.message}${where}`;
    }
    if (typeof parsed.message === "string") {
      const errors = Array.isArray(parsed.errors)
        ? parsed.errors.map((entry) => entry?.message ?? entry?.code).filter(Boolean)
        : [];
      return errors.length > 0 ? `${parsed.message} (${errors.join("; ")})` : parsed.message;
    }
    if (parsed.message && typeof parsed.message === "object") return JSON.stringify(parsed.message).slice(0, 300);
    if (typeof parsed.error === "string") return parsed.error;
  }
  return text.trim().slice(0, 300);
}

/**
 * One request. `retries` applies to what may safely be sent again (reads, PUT/PATCH, an upload with an
 * Idempotency-Key): network errors and 408/429/5xx answers, waiting Retry-After (at most 30 s) or 1, 2,
 * 4… s. Any other non-2xx answer is a ServiceCallError naming the service, the call and the answer.
 *
 * @returns {Promise<Response>} a 2xx response, body unread
 */
export async function send(
  service,
  { method, url, headers = {}, body, timeoutMs = 60_000, retries = 0, redact = (text) => text, hint },
) {
  const where = `${method} ${redact(new URL(url).origin + new URL(url).pathname)}`;
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(url, { method, headers, body, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
      if (attempt < retries) {
        await sleep(1000 * 2 ** attempt);
        continue;
      }
      const reason = error?.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : cause;
      throw new ServiceCallError(redact(`${service}: ${where} failed: ${reason}`), null);
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => "");
    if (RETRIABLE.has(response.status) && attempt < retries) {
      const after = Number(response.headers.get("retry-after"));
      await sleep(
        Number.isFinite(after) && after >= 0 ? Math.min(after, MAX_RETRY_AFTER_SECONDS) * 1000 : 1000 * 2 ** attempt,
      );
      continue;
    }
    const help = hint?.(response.status, text);
    const message = `${service}: ${where} answered ${response.status} ${response.statusText}: ${errorDetail(text) || "(no body)"}${help ? `\n  ${help}` : ""}`;
    throw new ServiceCallError(redact(message), response.status);
  }
}

/** `send`, then the answer's JSON (a ServiceCallError when it is not JSON). */
export async function sendJson(service, options) {
  const response = await send(service, options);
  const text = await response.text();
  try {
    return { json: JSON.parse(text), response };
  } catch {
    const redact = options.redact ?? ((value) => value);
    throw new ServiceCallError(
      redact(
        `${service}: ${options.method} ${new URL(options.url).pathname} answered ${response.status} with something other than JSON: ${text.slice(0, 200)}`,
      ),
      response.status,
    );
  }
}
