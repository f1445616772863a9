import { TMDB_TIMEOUT_MS } from '../../../integrations/tmdb/client.js';
import { createTmdb, readTmdbSettings } from '../../../integrations/tmdb/factory.js';
import { fail, fromProbe, runCheck, type GroupTest } from './check.js';

/** `tmdb`: `GET /configuration` with the key (30-settings.md §6). */
export const testMetadata: GroupTest = async (ctx) => {
  const settings = await readTmdbSettings(ctx.settings);
  return [
    await runCheck('tmdb', ctx, async () => {
      if (!settings.apiKey) return fail('TMDB_API_KEY is not set', 'not_configured');
      const timeoutMs = Math.min(TMDB_TIMEOUT_MS, ctx.timeoutMs);
      const tmdb = createTmdb(settings, ctx.deps, { timeoutMs });
      return fromProbe(await tmdb.probe());
    }),
  ];
};
