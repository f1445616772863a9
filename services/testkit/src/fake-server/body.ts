import type http from 'node:http';

/** A parsed request body, keeping the raw bytes for signature checks and exact assertions. */
export interface ParsedBody {
  kind: 'empty' | 'json' | 'form' | 'multipart' | 'text';
  raw: Buffer;
  /** JSON value for `json`; a flat name → value map for `form` and `multipart`. */
  value: unknown;
  /** Whether a JSON body failed to parse (the fakes answer it the way their system does). */
  invalidJson: boolean;
}

export async function readRawBody(req: http.IncomingMessage, limitBytes = 20 * 1024 * 1024) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limitBytes) throw new Error(`request body over ${limitBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Decodes `a=1&b=2` keeping repeated names as the last value, as most form parsers do. */
export function parseUrlEncoded(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) out[name] = value;
  return out;
}

/** Ordered pairs, for parsers (Stripe) that need repeated and bracketed names. */
export function parseUrlEncodedPairs(text: string): [string, string][] {
  return [...new URLSearchParams(text)];
}

export function mediaType(req: http.IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Parses JSON, urlencoded and multipart bodies. Multipart goes through the WHATWG `Request`
 * parser built into Node, so boundaries and file parts behave like a real server's.
 * File parts are kept as `File` objects in the map.
 */
export async function parseBody(req: http.IncomingMessage): Promise<ParsedBody> {
  const raw = await readRawBody(req);
  const type = mediaType(req);
  if (raw.length === 0) return { kind: 'empty', raw, value: undefined, invalidJson: false };
  if (type === 'application/json') {
    try {
      return { kind: 'json', raw, value: JSON.parse(raw.toString('utf8')), invalidJson: false };
    } catch (_error) {
      // A syntax error is data here: each fake reports it in its own system's words.
      return { kind: 'json', raw, value: undefined, invalidJson: true };
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { kind: 'form', raw, value: parseUrlEncoded(raw.toString('utf8')), invalidJson: false };
  }
  if (type === 'multipart/form-data') {
    const request = new Request('http://fake.local/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: raw,
    });
    const form = await request.formData();
    const value: Record<string, string | File> = {};
    for (const [name, entry] of form) value[name] = entry;
    return { kind: 'multipart', raw, value, invalidJson: false };
  }
  return { kind: 'text', raw, value: raw.toString('utf8'), invalidJson: false };
}
