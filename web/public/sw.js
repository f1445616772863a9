/* global self, importScripts */
// The service worker boot.js registers (issue 36): Angular's (ngsw-worker.js, the installed app's
// offline shell, ngsw-config.json) behind one rule. Requests to other origins (TMDB's images) and
// to the API never reach it: a worker's fetch is bound by the page's `connect-src 'self'`
// (70-deploy.md §5), so Angular's would answer every TMDB poster with its 504, and API replies,
// which carry member data, never pass a worker at all. This listener is registered first, so
// stopping the event keeps Angular's from answering and the browser fetches as without a worker.
self.addEventListener('fetch', function (event) {
  var url = new URL(event.request.url);
  var api = /^\/(api|health|metrics)(\/|$)/.test(url.pathname);
  if (url.origin !== self.location.origin || api) event.stopImmediatePropagation();
});
importScripts('./ngsw-worker.js');
