/**
 * Accepts a post-login target only when it stays inside the app: one leading `/` (not `//` or
 * `/\`, which browsers treat as another host), no control characters, and not the sign-in page
 * itself (which would loop). Anything else yields `null`, so callers fall back to the overview.
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || !target.startsWith('/')) return null;
  if (target.startsWith('//') || target.startsWith('/\\')) return null;
  // Control characters (tab, newline…) are stripped by URL parsers and can turn `/\t/x` into `//x`.
  for (const char of target) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return null;
  }
  if (target === '/login' || target.startsWith('/login?') || target.startsWith('/login/')) {
    return null;
  }
  return target;
}

export const OVERVIEW_URL = '/console/overview';
export const PASSWORD_SECTION_URL = '/console/account?section=password';

/** Where a new member lands after signing up: the short setup flow (issue 36). */
export const WELCOME_URL = '/console/overview/welcome';
