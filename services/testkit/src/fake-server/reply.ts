import type http from 'node:http';

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendText(
  res: http.ServerResponse,
  status: number,
  text: string,
  contentType = 'text/plain; charset=utf-8',
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** One recorded HTTP exchange, for fakes whose systems are not method-based like Telegram. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** Parsed body (JSON value or form map); `undefined` when empty. */
  body: unknown;
  status: number;
  at: Date;
}

export function queryOf(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) out[name] = value;
  return out;
}
