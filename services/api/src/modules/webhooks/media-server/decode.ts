import { isSafeJson } from '@usher/contracts';
import type { Context } from 'hono';
import type { AppEnv } from '../../../http/context.js';
import { AppError } from '../../../errors/app-error.js';

const invalid = (message: string) => new AppError('WEBHOOK_PAYLOAD_INVALID', message);

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Unparsable JSON is the sender's problem; it gets the documented 400.
    throw invalid('The webhook body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('The webhook body must be a JSON object');
  }
  // PostgreSQL refuses NUL in text and jsonb: such a body is refused here, not by a 500 later.
  if (!isSafeJson(value)) {
    throw invalid('The webhook body contains NUL characters or unpaired surrogates');
  }
  return value as Record<string, unknown>;
}

/**
 * Decodes the body by content type (50-integrations.md §2.2): multipart field `data` (Emby
 * 4.7/4.8), JSON (Emby 4.9 option, Jellyfin with the header), JSON sent as `text/plain`
 * (the Jellyfin plugin's default). Form-encoded bodies (Jellyfin "Generic Form") answer 415.
 */
export async function decodeWebhookBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Form-encoded webhooks are not supported: use the "Generic" destination with ' +
        '"Send All Properties" and the header Content-Type: application/json',
    );
  }
  if (type.startsWith('multipart/form-data')) {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      // A broken multipart body cannot be decoded at all.
      throw invalid('The multipart body cannot be read');
    }
    const data = form['data'];
    if (typeof data === 'string') return parseObject(data);
    if (data instanceof Blob) return parseObject(await data.text());
    throw invalid('The multipart body has no "data" field');
  }
  return parseObject(await c.req.text());
}
