/**
 * The Content-Security-Policy of every page: nothing loads from elsewhere, nothing frames a page
 * (clickjacking), and no inline script runs unless it carries the nonce proxy.ts drew for that one
 * response. Next.js reads the nonce back from the request's CSP header and puts it on its own scripts
 * (the runtime, the chunks, the inline RSC payload); the app's one inline script (the theme script,
 * app/layout.tsx) reads it from NONCE_HEADER. So an injected `<script>` or `onerror=` runs nowhere.
 *
 * Styles keep 'unsafe-inline': Recharts and the charts' colours set `style` attributes, which no nonce
 * can cover. A style cannot run code; the cost is that injected markup could restyle a page.
 *
 * `nonce: null` is the policy of what proxy.ts does not see (the APIs, Next's static files, the icons;
 * next.config.js sends it): the same rules, and no inline script at all.
 */
export const NONCE_HEADER = "x-nonce";

export interface PolicyOptions {
  /** This response's nonce (base64), or null where no inline script may run. */
  nonce: string | null;
  /** `next dev`: React rebuilds server error stacks in the browser with eval. Never in production. */
  isDev?: boolean;
}

export function contentSecurityPolicy({ nonce, isDev = false }: PolicyOptions): string {
  const scripts = ["'self'", ...(nonce === null ? [] : [`'nonce-${nonce}'`]), ...(isDev ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
