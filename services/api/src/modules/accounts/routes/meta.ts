import type { Context } from 'hono';
import type { AppEnv } from '../../../http/context.js';
import type { RequestMeta } from '../../context.js';
import { localeFromHeader } from '../mail.js';

/** Request facts for the audit log. */
export function requestMeta(c: Context<AppEnv>): RequestMeta {
  return { ip: c.get('clientIp'), requestId: c.get('requestId') };
}

/** As `requestMeta`, plus the browser's language for mails to people without an account. */
export function mailMeta(c: Context<AppEnv>) {
  return { ...requestMeta(c), locale: localeFromHeader(c.req.header('accept-language')) };
}
