/**
 * An endpoint named by the URL a tool hit (autocannon, wrk, k6's default request name): its path and
 * query, the part that stays when the host changes between environments.
 */

/** `http://host:8080/api/listings/42?x=1` → `/api/listings/42?x=1`; null for a text that is not a URL. */
export function pathAndQueryOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
