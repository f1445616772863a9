import {
  notConfigured,
  PerSettings,
  type IntegrationDeps,
  type SettingsReader,
} from '../common.js';
import { TmdbAdapter } from './adapter.js';
import type { TmdbSettings } from './types.js';

/** Reads the metadata group (30-settings.md §4.3). */
export async function readTmdbSettings(settings: SettingsReader): Promise<TmdbSettings> {
  return {
    apiKey: await settings.getString('TMDB_API_KEY'),
    language: await settings.getString('TMDB_LANGUAGE'),
    includeAdult: await settings.get('TMDB_INCLUDE_ADULT'),
    apiBase: await settings.getString('TMDB_API_BASE'),
  };
}

/** Builds an adapter from explicit settings; `not_configured` without an API key. */
export function createTmdb(
  settings: TmdbSettings,
  deps: IntegrationDeps = {},
  options: { timeoutMs?: number } = {},
): TmdbAdapter {
  if (!settings.apiKey) throw notConfigured('tmdb', 'configure', ['TMDB_API_KEY']);
  return new TmdbAdapter(settings, deps, options);
}

/**
 * The TMDB adapter for the current settings, rebuilt when they change (so an edit applies
 * without a restart) and reused while they do not.
 */
export class TmdbFactory {
  private readonly adapters: PerSettings<TmdbSettings, TmdbAdapter>;

  constructor(
    private readonly settings: SettingsReader,
    deps: IntegrationDeps = {},
  ) {
    this.adapters = new PerSettings((s) => new TmdbAdapter(s, deps));
  }

  async get(): Promise<TmdbAdapter> {
    const current = await readTmdbSettings(this.settings);
    if (!current.apiKey) throw notConfigured('tmdb', 'configure', ['TMDB_API_KEY']);
    return this.adapters.get(current);
  }
}
