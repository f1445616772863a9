import { safeRedirect } from './redirect';

/**
 * The API route that starts single sign-on (docs/sso.md). It is opened as a page, not called:
 * the API answers with a redirect to the identity provider and sets its state cookie.
 */
export function ssoStartUrl(redirect: string | null | undefined): string {
  const target = safeRedirect(redirect);
  return `/api/v1/auth/oidc/start${target ? `?redirect=${encodeURIComponent(target)}` : ''}`;
}

/** Leaves the app for another page (the identity provider). A seam for specs. */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
