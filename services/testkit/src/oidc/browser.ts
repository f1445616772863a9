// A minimal browser for API tests: follows redirects by hand, keeps cookies per host, and fills
// in the fake provider's login form. It stops at the first redirect to `stopAt` (the relying
// party's callback), so the test hands that URL to the app under test itself.

/** Cookies per host, as a browser keeps them (name=value only; enough for these flows). */
export class CookieJar {
  private readonly jar = new Map<string, Map<string, string>>();

  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(host, cookies);
  }

  header(url: string): string {
    const cookies = this.jar.get(new URL(url).host);
    return cookies ? [...cookies].map(([n, v]) => `${n}=${v}`).join('; ') : '';
  }
}

export interface ProviderSignIn {
  /** The redirect back to the relying party (`…/callback?code=…&state=…`). */
  callbackUrl: string;
}

/**
 * From the provider's authorization URL to the redirect back: the login form is posted with
 * `username`/`password`. Throws when the provider answers anything unexpected.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  credentials: { username: string; password: string },
  stopAt: string,
  jar = new CookieJar(),
): Promise<ProviderSignIn> {
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(stopAt)) return { callbackUrl: url };
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: jar.header(url),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    jar.store(url, response);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const text = await response.text();
    const action = /<form method="post" action="([^"]+)">/.exec(text)?.[1];
    if (response.status !== 200 || !action || method === 'POST') {
      throw new Error(`provider answered ${response.status} at ${url}: ${text.slice(0, 200)}`);
    }
    url = new URL(action.replace(/&#38;/g, '&'), url).href;
    method = 'POST';
    body = new URLSearchParams(credentials).toString();
  }
  throw new Error('too many redirects at the provider');
}
