import { getEnv } from "./env";

/**
 * The absolute base URL for links Benchtrack hands out (run URLs in upload answers, curl examples):
 * BENCHTRACK_PUBLIC_URL when set, else derived from the request's Host (and a proxy's forwarded
 * protocol), which is right for a single server reached directly.
 */
export function publicBaseUrl(requestHeaders: Headers): string {
  const configured = getEnv().BENCHTRACK_PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, "");
  const host = requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host") ?? "localhost:3000";
  const protocol = requestHeaders.get("x-forwarded-proto") ?? "http";
  return `${protocol}://${host}`;
}
