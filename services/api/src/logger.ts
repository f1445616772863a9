import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths that must never reach a log line, wherever they appear in a logged object. */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'newPassword',
  '*.newPassword',
  'currentPassword',
  '*.currentPassword',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers["x-internal-secret"]',
  '*.headers["x-internal-secret"]',
  'secret',
  '*.secret',
];

/** Error properties that may repeat SQL text or the values of a query (drizzle, node-postgres). */
const WITHHELD_ERROR_FIELDS = new Set([
  'query',
  'params',
  'parameters',
  'values',
  'detail',
  'where',
]);
const FAILED_QUERY = /Failed query: [\s\S]*?(?=\n {4}at |$)/;
/** PostgreSQL quotes the refused value in some messages (22P02): `…for type uuid: "<input>"`. */
const ECHOED_VALUE = /(invalid input (?:syntax|value) for [^:\n]*: )"(?:[^"\\]|\\.)*"/g;
const scrub = (text: string) =>
  text
    .replace(FAILED_QUERY, 'Failed query (text and parameters withheld)')
    .replace(ECHOED_VALUE, '$1"[value withheld]"');

/**
 * Serializes an error for a log line without anything a query carried: drizzle's wrapper message
 * ("Failed query: <sql> params: <values>") and its `query`/`params`, and the driver's `detail`
 * ("Key (username)=(alice) already exists"). The driver's own message and SQLSTATE stay, and each
 * `cause` is serialized the same way as its own object (issue 16).
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'string' ? scrub(value) : value;
  }
  if (depth > 5) return '[cause chain too deep]';
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (value instanceof Error) {
    out.type = value.constructor?.name ?? value.name;
    out.message = scrub(value.message);
    if (value.stack) out.stack = scrub(value.stack);
  }
  for (const [key, field] of Object.entries(source)) {
    if (WITHHELD_ERROR_FIELDS.has(key) || key in out) continue;
    if (key === 'cause' || key === 'err' || key === 'error' || key === 'errors') {
      out[key] = Array.isArray(field)
        ? field.map((f) => serializeError(f, depth + 1))
        : serializeError(field, depth + 1);
    } else {
      out[key] = typeof field === 'string' ? scrub(field) : field;
    }
  }
  // `cause` is often not enumerable (Error options): serialize it all the same.
  if (value instanceof Error && !('cause' in out) && value.cause !== undefined) {
    out.cause = serializeError(value.cause, depth + 1);
  }
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'usher-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError, error: serializeError, cause: serializeError },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** The one line logged per request (app.ts): fixed fields, none of which can carry a secret. */
export interface AccessLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  ip: string | null;
}

/**
 * Writes the per-request access line through a child without redaction: its fields are fixed and
 * never secret, and wildcard redaction cost ~5 % of a signed-in read and 14 % of a 404 (issue 21).
 * Everything else (handler and error logs) keeps the redacting logger. The child follows the
 * root's level, which the LOG_LEVEL setting changes at run time.
 */
export function accessLog(logger: Logger): (line: AccessLine) => void {
  const plain = logger.child({}, { redact: { paths: [] } });
  return (line) => {
    if (plain.level !== logger.level) plain.level = logger.level;
    plain.info(line, 'request');
  };
}
