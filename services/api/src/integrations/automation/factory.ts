import {
  notConfigured,
  PerSettings,
  type IntegrationDeps,
  type SettingsReader,
} from '../common.js';
import { MoviePilotAutomation } from './adapter.js';
import { MoviePilotTokens } from './client.js';
import { ServarrAutomation } from './servarr.js';
import type { AutomationSettings } from './types.js';

export type AutomationAdapter = MoviePilotAutomation | ServarrAutomation;

/** Reads the automation group (30-settings.md §4.4), applying the series fallbacks. */
export async function readAutomationSettings(
  settings: SettingsReader,
): Promise<AutomationSettings> {
  const url = await settings.getString('AUTOMATION_URL');
  if ((await settings.getString('AUTOMATION_KIND')) === 'moviepilot') {
    return {
      kind: 'moviepilot',
      url,
      username: await settings.getString('MOVIEPILOT_USERNAME'),
      password: await settings.getString('MOVIEPILOT_PASSWORD'),
    };
  }
  const apiKey = await settings.getString('AUTOMATION_API_KEY');
  return {
    kind: 'servarr',
    movies: { url, apiKey },
    series: {
      url: (await settings.getString('AUTOMATION_SERIES_URL')) || url,
      apiKey: (await settings.getString('AUTOMATION_SERIES_API_KEY')) || apiKey,
    },
    qualityProfile: await settings.getString('AUTOMATION_QUALITY_PROFILE'),
    rootFolder: await settings.getString('AUTOMATION_ROOT_FOLDER'),
  };
}

/** The settings still missing for the chosen kind (30-settings.md §5); empty = configured. */
export function missingAutomationSettings(settings: AutomationSettings): string[] {
  if (settings.kind === 'moviepilot') {
    const missing = settings.url ? [] : ['AUTOMATION_URL'];
    if (!settings.username) missing.push('MOVIEPILOT_USERNAME');
    if (!settings.password) missing.push('MOVIEPILOT_PASSWORD');
    return missing;
  }
  const missing = settings.movies.url ? [] : ['AUTOMATION_URL'];
  if (!settings.movies.apiKey) missing.push('AUTOMATION_API_KEY');
  return missing;
}

/** Builds the adapter of the settings' kind; `not_configured` when something is missing. */
export function createAutomation(
  settings: AutomationSettings,
  deps: IntegrationDeps = {},
  options: { tokens?: MoviePilotTokens; timeoutMs?: number } = {},
): AutomationAdapter {
  const missing = missingAutomationSettings(settings);
  if (missing.length) throw notConfigured('automation', 'configure', missing);
  return settings.kind === 'moviepilot'
    ? new MoviePilotAutomation(settings, deps, options)
    : new ServarrAutomation(settings, deps, options);
}

/**
 * The automation adapter for the current settings, rebuilt when they change. MoviePilot tokens
 * live here, outside the adapters, so they survive unrelated edits (keyed by URL and user).
 */
export class AutomationFactory {
  private readonly tokens = new MoviePilotTokens();
  private readonly adapters: PerSettings<AutomationSettings, AutomationAdapter>;

  constructor(
    private readonly settings: SettingsReader,
    deps: IntegrationDeps = {},
  ) {
    this.adapters = new PerSettings((s) => createAutomation(s, deps, { tokens: this.tokens }));
  }

  async get(): Promise<AutomationAdapter> {
    const current = await readAutomationSettings(this.settings);
    const missing = missingAutomationSettings(current);
    if (missing.length) throw notConfigured('automation', 'configure', missing);
    return this.adapters.get(current);
  }
}
