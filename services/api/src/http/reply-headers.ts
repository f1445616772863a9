/** The policy of API replies: data, which nothing may load as a page or frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every reply carries: the API's CSP and hono's `secureHeaders` with
 * `crossOriginResourcePolicy: 'same-origin'` and `referrerPolicy: 'no-referrer'` (its defaults
 * otherwise; tests/http/reply-path.test.ts checks the list still equals what it sets). A
 * handler's own value for any of them wins: pages that render HTML (the docs page, the web app)
 * set their own CSP, the web app `X-Frame-Options: DENY`.
 */
export const REPLY_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', API_CSP],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];
