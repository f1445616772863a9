// Just enough RFC 5322 / MIME reading to let tests see what nodemailer sent: unfolded headers,
// RFC 2047 encoded words, addresses, multipart trees, base64 and quoted-printable bodies.
// `mailparser` would do this fully but is not installed; raw bytes are kept for anything else.

export interface MimePart {
  headers: Map<string, string[]>;
  contentType: string;
  params: Record<string, string>;
  /** Decoded text for text/* leaves; '' for containers and binary parts. */
  text: string;
  parts: MimePart[];
}

export interface Address {
  name: string;
  address: string;
}

function splitHead(raw: string): [string, string] {
  const match = /\r?\n\r?\n/.exec(raw);
  return match ? [raw.slice(0, match.index), raw.slice(match.index + match[0].length)] : [raw, ''];
}

export function parseHeaders(head: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return headers;
}

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch (_error) {
    // An unknown charset label: fall back to UTF-8 rather than losing the text.
    return bytes.toString('utf8');
  }
}

function quotedPrintable(text: string, underscoreIsSpace: boolean): Buffer {
  const source = underscoreIsSpace ? text.replace(/_/g, ' ') : text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const hex = source.slice(i + 1, i + 3);
    if (source[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Decodes `=?UTF-8?B?…?=` / `=?UTF-8?Q?…?=` words; whitespace between words disappears. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g,
      (_m, charset: string, enc: string, text: string) => {
        const bytes =
          enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintable(text, true);
        return decodeBytes(bytes, charset);
      },
    );
}

/** Splits an address list on commas outside quotes and angle brackets. */
export function parseAddresses(value: string | undefined): Address[] {
  if (!value) return [];
  const out: Address[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (const c of `${value},`) {
    if (c === '"') quoted = !quoted;
    if (!quoted && c === '<') angle = true;
    if (!quoted && c === '>') angle = false;
    if (c === ',' && !quoted && !angle) {
      const item = current.trim();
      if (item) {
        const match = /^(.*?)<([^>]+)>\s*$/.exec(item);
        const name = match ? decodeWords(match[1]!.trim().replace(/^"|"$/g, '')) : '';
        out.push({ name, address: (match ? match[2]! : item).trim() });
      }
      current = '';
    } else {
      current += c;
    }
  }
  return out;
}

function contentTypeOf(headers: Map<string, string[]>) {
  const [type = 'text/plain', ...rest] = (headers.get('content-type')?.[0] ?? 'text/plain').split(
    ';',
  );
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq > 0) {
      params[param.slice(0, eq).trim().toLowerCase()] = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
    }
  }
  return { contentType: type.trim().toLowerCase(), params };
}

export function parseMime(raw: string): MimePart {
  const [head, body] = splitHead(raw);
  const headers = parseHeaders(head);
  const { contentType, params } = contentTypeOf(headers);
  if (contentType.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const sections = body.split(delimiter).slice(1);
    const parts = sections
      .filter((section) => !section.startsWith('--'))
      .map((section) => parseMime(section.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
    return { headers, contentType, params, text: '', parts };
  }
  const encoding = (headers.get('content-transfer-encoding')?.[0] ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = quotedPrintable(body, false);
  else bytes = Buffer.from(body, 'utf8');
  // Line breaks come back as LF, as mailparser reports them.
  const text = contentType.startsWith('text/')
    ? decodeBytes(bytes, params.charset ?? 'utf-8').replace(/\r\n/g, '\n')
    : '';
  return { headers, contentType, params, text, parts: [] };
}

/** The first inline part of a type, searching depth-first like mail clients do. */
export function findPart(part: MimePart, type: string): MimePart | undefined {
  const disposition = part.headers.get('content-disposition')?.[0] ?? '';
  if (part.contentType === type && !disposition.startsWith('attachment')) return part;
  for (const child of part.parts) {
    const found = findPart(child, type);
    if (found) return found;
  }
  return undefined;
}
