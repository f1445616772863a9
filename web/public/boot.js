// Runs in <head> before Angular starts. A static file rather than an inline script: the CSP
// allows only 'self' scripts.
(function () {
  var store = function (key) {
    try {
      return localStorage.getItem(key);
    } catch {
      // Storage blocked (private mode, policy): nothing remembered.
      return null;
    }
  };

  // 1. Applies the remembered theme, so a dark page never flashes light (else the system
  //    preference). Keep in step with src/app/core/theme/theme.ts (same key, same attribute).
  var stored = store('usher.theme');
  var mode = stored === 'light' || stored === 'dark' ? stored : 'system';
  var root = document.documentElement;
  root.setAttribute('data-theme', mode);
  root.style.colorScheme = mode === 'system' ? 'light dark' : mode;

  // 2. Starts what the page being opened will need before Angular has even loaded (issue 14: on
  //    a phone link every round trip costs ~150 ms, and these used to wait for all the app's
  //    code): the code of a landing page (`<link rel="modulepreload">` for each file of its lazy
  //    chunks, instead of a chain of round trips after main), and the reads the app makes first —
  //    the language file, `GET /public/site`, with a session `GET /me`, and the landing page's own
  //    reads. The reads wait in `window.usherEarlyReads`, keyed by URL, for the app's
  //    earlyReadInterceptor (src/app/core/api/early-reads.ts), which answers each matching GET
  //    once with its reply, an error reply included (the interceptors before it map it as usual);
  //    only a read that got no reply at all is made again. The production build fills the config
  //    (scripts/route-preload.mjs); under `ng serve` it stays empty and nothing starts.
  var config = /* boot-config */ { landings: [], i18n: '' };
  var token = null;
  // SessionStore's hint that the account must change its password first: the page's reads would
  // only be refused (403), so none starts.
  var mustChangePassword = false;
  try {
    var session = JSON.parse(store('usher.session') || 'null');
    // As SessionStore reads it: a session past its expiresAt is none (the app signs it out).
    if (
      session &&
      typeof session.token === 'string' &&
      Date.parse(session.expiresAt) > Date.now()
    ) {
      token = session.token;
      mustChangePassword = session.mustChangePassword === true;
    }
  } catch {
    // A damaged session: the app clears it.
  }
  var path = location.pathname;
  var landing = null;
  for (var i = 0; i < config.landings.length && !landing; i++) {
    var candidate = config.landings[i];
    if (candidate.signedIn === (token !== null) && new RegExp(candidate.path).test(path)) {
      landing = candidate;
    }
  }
  // After the reads below (issue 36): on HTTP/1.1 the browser has six connections to the site,
  // and twenty-odd code files asked for first kept `/me` and the page's reads — the start of the
  // largest paint's chain — waiting for a free one.
  var preloadCode = function () {
    if (!landing) return;
    for (var j = 0; j < landing.files.length; j++) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = landing.files[j];
      document.head.appendChild(link);
    }
  };
  // 3. The service worker (sw.js: Angular's ngsw, the offline shell of the installed app, behind a
  //    rule that keeps other origins and /api away from it), for a signed-in visitor of a production build, once the page has
  //    loaded and settled: a first visit to /login downloads nothing for it (issue 36's budget).
  if (config.i18n && token !== null && 'serviceWorker' in navigator) {
    window.addEventListener('load', function () {
      window.setTimeout(function () {
        navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(function () {
          // No service worker (private mode, policy): the app works online as before.
        });
      }, 4000);
    });
  }
  if (!config.i18n || typeof fetch !== 'function') {
    preloadCode();
    return;
  }
  var reads = {};
  // Each read settles to its status and parsed body (null when the body is not JSON), or to
  // null when no reply came at all (the app then asks again and reports the outage itself).
  var read = function (url, authorized) {
    var headers = authorized ? { Authorization: 'Bearer ' + token } : {};
    var reply = fetch(url, { headers: headers }).then(
      function (response) {
        var reply = function (body) {
          return { status: response.status, body: body };
        };
        return response.json().then(reply, function () {
          return reply(null);
        });
      },
      function () {
        return null;
      },
    );
    reads[url] = { at: Date.now(), reply: reply };
    return reply;
  };
  // The poster a landing's largest paint is (issue 36): the first item's of the first of
  // `posters` (read replies, in the page's order) that has any — on the overview "continue
  // watching" when the member has something to continue, else the first "recently added" movie.
  // Each reply is waited for only while the ones before it had no poster.
  var firstPoster = function (posters, k) {
    if (k >= posters.length) return Promise.resolve(null);
    return posters[k].then(function (reply) {
      var items = reply && reply.status === 200 && reply.body && reply.body.items;
      return items && items.length > 0 ? items[0].posterUrl : firstPoster(posters, k + 1);
    });
  };
  var preloadPoster = function (poster) {
    if (typeof poster !== 'string' || !/^\/api\/v1\/media\/posters\/[^?]+\?/.test(poster)) return;
    if (/[?&]width=/.test(poster)) return;
    var image = document.createElement('link');
    image.rel = 'preload';
    image.setAttribute('as', 'image');
    // The same candidates and sizes as the rail's <img> (PosterImage's POSTER_WIDTHS, PosterRail's
    // RAIL_POSTER_SIZES), so the browser picks the same width and the image reuses this fetch.
    var widths = [160, 240, 320];
    var srcset = [];
    for (var w = 0; w < widths.length; w++) {
      srcset.push(poster + '&width=' + widths[w] + ' ' + widths[w] + 'w');
    }
    image.setAttribute('imagesrcset', srcset.join(', '));
    image.setAttribute('imagesizes', '(min-width: 600px) 160px, 140px');
    image.href = poster + '&width=' + widths[widths.length - 1];
    image.setAttribute('fetchpriority', 'high');
    document.head.appendChild(image);
  };
  // Keep in step with initialLanguage (src/app/core/i18n/language.ts): the stored choice, else
  // the first browser language that is Chinese (zh-CN) or English, else English.
  var lang = store('usher.lang');
  if (lang !== 'en' && lang !== 'zh-CN') {
    lang = 'en';
    var tags = navigator.languages || [];
    for (var k = 0; k < tags.length; k++) {
      var tag = String(tags[k]).toLowerCase();
      if (tag.indexOf('zh') === 0 || tag.indexOf('en') === 0) {
        lang = tag.indexOf('zh') === 0 ? 'zh-CN' : 'en';
        break;
      }
    }
  }
  read('/i18n/' + lang + '.json?v=' + config.i18n, false);
  read('/api/v1/public/site', false);
  if (token !== null) {
    // The page's own reads start beside /me, not after it (issue 36: one 150 ms round trip less
    // on a phone before the overview's largest paint). An expired session never gets here. When
    // /me refuses the token (revoked) or a password change is due, those replies are dropped
    // before the app sees /me's, so none is ever handed to the app (a later sign-in asks anew).
    var own = (!mustChangePassword && landing && landing.reads) || [];
    var page = {};
    read('/api/v1/me', true).then(function (me) {
      if (me && me.status === 200 && me.body && !me.body.mustChangePassword) return;
      for (var url in page) if (reads[url] && reads[url].reply === page[url]) delete reads[url];
    });
    for (var m = 0; m < own.length; m++) page[own[m]] = read(own[m], true);
    var posters = [];
    var named = (landing && landing.posters) || [];
    for (var p = 0; p < named.length; p++) if (page[named[p]]) posters.push(page[named[p]]);
    firstPoster(posters, 0).then(preloadPoster);
  }
  preloadCode();
  window.usherEarlyReads = reads;
})();
