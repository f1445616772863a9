import { z } from 'zod';
import { probing, type IntegrationDeps, type ProbeResult } from '../common.js';
import { IntegrationError } from '../errors.js';
import type { HttpReply } from '../http/client.js';
import { ServarrClient } from './client.js';
import type {
  Automation,
  AutomationOutcome,
  AutomationRequest,
  AutomationSettings,
} from './types.js';

type ServarrSettings = Extract<AutomationSettings, { kind: 'servarr' }>;
export type ServarrRole = 'movies' | 'series';

const statusReply = z.object({ appName: z.string().nullish(), version: z.string().nullish() });
const profilesReply = z.array(z.object({ id: z.number(), name: z.string() }));
const foldersReply = z.array(z.object({ path: z.string() }));
const languageProfilesReply = z.array(z.object({ id: z.number() }));
const addedReply = z.object({ id: z.number() });
const validationReply = z.array(
  z.object({ errorMessage: z.string().nullish(), errorCode: z.string().nullish() }),
);

interface Target {
  status: z.infer<typeof statusReply>;
  profileId: number;
  profileName: string;
  rootFolderPath: string;
}

/** "MoviePilot v2.5.9", "Radarr 5.8.3.8933", or the address when the status is anonymous. */
const describe = (status: z.infer<typeof statusReply>, url: string) =>
  status.appName ? `${status.appName} ${status.version ?? ''}`.trim() : url;

/**
 * The Radarr/Sonarr-compatible path (50-integrations.md §4.2): add and monitor only. Works
 * against real Radarr/Sonarr and MoviePilot's `/api/v3` emulation by always sending the
 * superset body (tmdbId and tvdbId, profile and root folder).
 */
export class ServarrAutomation implements Automation {
  readonly kind = 'servarr' as const;
  private readonly clients: Record<ServarrRole, ServarrClient>;

  constructor(
    private readonly settings: ServarrSettings,
    deps: IntegrationDeps = {},
    options: { timeoutMs?: number } = {},
  ) {
    this.clients = {
      movies: new ServarrClient(settings.movies, deps, options.timeoutMs),
      series: new ServarrClient(settings.series, deps, options.timeoutMs),
    };
  }

  /** System status, then the configured (or first) quality profile and root folder. */
  private async target(role: ServarrRole): Promise<Target> {
    const client = this.clients[role];
    const status = await client.get('status', 'system/status', statusReply);
    const name = describe(status, client.url);
    // `qualityProfile` in this spelling: MoviePilot's FastAPI routes are case-sensitive and use
    // it, while Radarr/Sonarr match paths case-insensitively.
    const profiles = await client.get('profiles', 'qualityProfile', profilesReply);
    const folders = await client.get('root_folders', 'rootfolder', foldersReply);
    const wanted = this.settings.qualityProfile.toLowerCase();
    const profile = wanted ? profiles.find((p) => p.name.toLowerCase() === wanted) : profiles[0];
    if (!profile) {
      const known = profiles.map((p) => p.name).join(', ') || 'none';
      throw misconfigured(
        `${name} has no quality profile "${this.settings.qualityProfile}" (it has: ${known})`,
      );
    }
    const folder = this.settings.rootFolder
      ? folders.find((f) => f.path === this.settings.rootFolder)
      : folders[0];
    if (!folder) {
      const known = folders.map((f) => f.path).join(', ') || 'none';
      throw misconfigured(
        this.settings.rootFolder
          ? `${name} has no root folder "${this.settings.rootFolder}" (it has: ${known})`
          : `${name} lists no root folder`,
      );
    }
    return {
      status,
      profileId: profile.id,
      profileName: profile.name,
      rootFolderPath: folder.path,
    };
  }

  async submit(request: AutomationRequest): Promise<AutomationOutcome> {
    return request.type === 'movie' ? this.addMovie(request) : this.addSeries(request);
  }

  private async addMovie(request: AutomationRequest): Promise<AutomationOutcome> {
    const target = await this.target('movies');
    const reply = await this.clients.movies.post('add_movie', 'movie', {
      title: request.title,
      ...(request.year === null ? {} : { year: request.year }),
      tmdbId: request.tmdbId,
      ...(request.tvdbId ? { tvdbId: request.tvdbId } : {}),
      qualityProfileId: target.profileId,
      rootFolderPath: target.rootFolderPath,
      monitored: true,
      minimumAvailability: 'released',
      addOptions: { searchForMovie: true },
    });
    return this.outcome(this.clients.movies, reply, 'add_movie');
  }

  private async addSeries(request: AutomationRequest): Promise<AutomationOutcome> {
    if (!request.tvdbId) {
      throw new IntegrationError('automation', 'add_series', 'rejected', 'no TVDB id');
    }
    const target = await this.target('series');
    const single = request.season ?? null;
    const numbers = new Set(request.seasonNumbers ?? []);
    if (single !== null) numbers.add(single);
    // A whole series monitors every regular season; a single-season request only that one.
    const seasons = [...numbers]
      .sort((a, b) => a - b)
      .map((n) => ({ seasonNumber: n, monitored: single === null ? n >= 1 : n === single }));
    // Sonarr v3 still requires a language profile; v4 and the emulation ignore it.
    const languageProfileId = target.status.version?.startsWith('3.')
      ? (
          await this.clients.series.get(
            'language_profiles',
            'languageprofile',
            languageProfilesReply,
          )
        )[0]?.id
      : undefined;
    const reply = await this.clients.series.post('add_series', 'series', {
      title: request.title,
      ...(request.year === null ? {} : { year: request.year }),
      tmdbId: request.tmdbId,
      tvdbId: request.tvdbId,
      qualityProfileId: target.profileId,
      rootFolderPath: target.rootFolderPath,
      seasonFolder: true,
      monitored: true,
      seasons,
      addOptions: { searchForMissingEpisodes: true },
      ...(languageProfileId === undefined ? {} : { languageProfileId }),
    });
    return this.outcome(this.clients.series, reply, 'add_series');
  }

  /** 200/201 → added; a 400 saying it already exists → success; any other 400 → rejected. */
  private outcome(client: ServarrClient, reply: HttpReply, operation: string): AutomationOutcome {
    if (reply.status !== 400) {
      const { id } = client.parse(reply, operation, addedReply);
      return { externalId: id, alreadyExisted: false, message: 'Added and monitored' };
    }
    const entries = client.parse(reply, operation, validationReply);
    const exists = entries.some(
      (e) =>
        /ExistsValidator$/.test(e.errorCode ?? '') ||
        /already (been added|exists)/i.test(e.errorMessage ?? ''),
    );
    if (exists) return { externalId: null, alreadyExisted: true, message: 'Already added' };
    const reason = entries
      .map((e) => e.errorMessage ?? e.errorCode ?? '')
      .join('; ')
      .slice(0, 300);
    throw new IntegrationError(
      'automation',
      operation,
      'rejected',
      `The automation tool refused the request: ${reason || 'no reason given'}`,
      400,
      reason,
    );
  }

  /** One service's probe: status, and that the chosen profile and root folder exist. */
  probeService(role: ServarrRole): Promise<ProbeResult> {
    return probing(async () => {
      const target = await this.target(role);
      return {
        ok: true,
        message:
          `${describe(target.status, this.clients[role].url)}: quality profile ` +
          `"${target.profileName}", root folder ${target.rootFolderPath}`,
        details: [],
      };
    });
  }

  async probe(): Promise<ProbeResult> {
    const movies = await this.probeService('movies');
    const series = await this.probeService('series');
    return {
      ok: movies.ok && series.ok,
      message: `Movies: ${movies.message}. Series: ${series.message}`,
      details: [],
      kind: movies.kind ?? series.kind,
    };
  }
}

/** The settings name a profile or folder the service does not have. */
const misconfigured = (message: string) =>
  new IntegrationError('automation', 'lookup', 'rejected', message);
