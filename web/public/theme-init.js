// Applies the remembered theme before Angular starts, so a dark page never flashes light.
// A static file rather than an inline script: the CSP allows only 'self' scripts.
// Keep in step with src/app/core/theme/theme.ts (same key, same attribute).
(function () {
  var mode = 'system';
  try {
    var stored = localStorage.getItem('usher.theme');
    if (stored === 'light' || stored === 'dark') mode = stored;
  } catch {
    // Storage blocked (private mode, policy): the system preference applies.
  }
  var root = document.documentElement;
  root.setAttribute('data-theme', mode);
  root.style.colorScheme = mode === 'system' ? 'light dark' : mode;
})();
