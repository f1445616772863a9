// A small client for the Usher API as the web console talks to it (JSON, bearer token), for the
// demo seeding. Every reply that is not the expected status throws with the route and the error
// body, so a seeding step that the API refuses says which and why.

export interface Session {
  token: string;
  username: string;
}

export class UsherApiError extends Error {
  constructor(
    readonly route: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${route} answered ${status}: ${JSON.stringify(body).slice(0, 400)}`);
  }
}

export class UsherClient {
  constructor(private readonly baseUrl: string) {}

  async call<T>(
    method: string,
    path: string,
    options: { session?: Session; body?: unknown; expect?: number[] } = {},
  ): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(options.session ? { authorization: `Bearer ${options.session.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const body: unknown = text ? JSON.parse(text) : null;
    if (!(options.expect ?? [200, 201, 202, 204]).includes(res.status)) {
      throw new UsherApiError(`${method} ${path}`, res.status, body);
    }
    return body as T;
  }

  async signIn(username: string, password: string): Promise<Session> {
    const reply = await this.call<{ token: string }>('POST', '/api/v1/auth/login', {
      body: { username, password },
    });
    return { token: reply.token, username };
  }
}
