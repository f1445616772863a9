// A username for an account created by a first sign-in (docs/sso.md): from the provider's
// preferred username, else the e-mail's local part, else the name — reduced to Usher's rule
// (3–32 letters, digits, underscores) and made unique in Usher and on the media server.
import { randomInt } from 'node:crypto';
import type { ModuleContext } from '../context.js';
import { mediaServerFailure } from '../membership/index.js';
import { usernameInUse } from './queries.js';

/** Reduces any text to the username alphabet, or '' when nothing usable is left. */
export function usernameBase(text: string | null | undefined): string {
  const cleaned = (text ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 26);
  return cleaned.length >= 3 ? cleaned : '';
}

export async function pickUsername(
  ctx: ModuleContext,
  p: { preferredUsername: string | null; email: string | null; name: string | null },
  options: { mediaServer: boolean },
): Promise<string> {
  const base =
    usernameBase(p.preferredUsername) ||
    usernameBase(p.email?.split('@')[0]) ||
    usernameBase(p.name) ||
    'member';
  let taken = new Set<string>();
  if (options.mediaServer) {
    try {
      const server = await ctx.integrations.mediaServer.get();
      taken = new Set((await server.listUsers()).map((u) => u.name.toLowerCase()));
    } catch (err) {
      throw mediaServerFailure(err, 'check the username');
    }
  }
  const candidates = [base, ...[2, 3, 4, 5].map((n) => `${base}${n}`)];
  for (let i = 0; i < 5; i++) candidates.push(`${base}_${randomInt(1000, 10000)}`);
  for (const name of candidates) {
    if (taken.has(name.toLowerCase())) continue;
    if (!(await usernameInUse(ctx.db, name))) return name;
  }
  return `${base.slice(0, 20)}_${randomInt(100000, 1000000)}`;
}
