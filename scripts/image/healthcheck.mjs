// Container health check (70-deploy.md §5): exit 0 when GET /health answers 200 within 3 s,
// else 1. Written in Node because the runtime image has no curl, and busybox wget cannot
// bound the whole request time. Docker's HEALTHCHECK runs it as `node healthcheck.mjs`.
//
// The port follows the image's own variable: PORT in the API image, BOT_PORT in the Bot image
// (which does not set PORT).
/* global fetch, AbortSignal */
const port = process.env.PORT || process.env.BOT_PORT || '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3000) });
  process.exit(res.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
