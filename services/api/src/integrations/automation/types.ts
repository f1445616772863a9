import type { ProbeResult } from '../common.js';

/** One Radarr/Sonarr-compatible service (servarr path, 50-integrations.md §4.2). */
export interface ServarrService {
  url: string;
  apiKey: string;
}

/** The automation group (30-settings.md §4.4), per `AUTOMATION_KIND`. */
export type AutomationSettings =
  | { kind: 'moviepilot'; url: string; username: string; password: string }
  | {
      kind: 'servarr';
      movies: ServarrService;
      /** Sonarr, or the same service as `movies` when no separate URL is set. */
      series: ServarrService;
      /** Profile name, matched case-insensitively; empty = the first listed. */
      qualityProfile: string;
      /** Root folder path; empty = the first listed. */
      rootFolder: string;
    };

/** A request handed to the automation tool. */
export interface AutomationRequest {
  type: 'movie' | 'tv';
  tmdbId: number;
  title: string;
  year: number | null;
  /** A single season; null or absent = the whole series (or a movie). */
  season?: number | null;
  /** From TMDB `external_ids`; required by real Sonarr. */
  tvdbId?: number | null;
  /** The series' season numbers from TMDB, so a whole series monitors every season ≥ 1. */
  seasonNumbers?: number[];
}

export interface AutomationOutcome {
  /** The subscription / movie / series id the tool answered with, when it gave one. */
  externalId: number | null;
  /** Whether the tool already had it (counts as success). */
  alreadyExisted: boolean;
  message: string;
}

/** One indexer hit from MoviePilot's manual search. */
export interface TorrentCandidate {
  title: string;
  site: string;
  sizeBytes: number | null;
  seeders: number | null;
  peers: number | null;
  /** As MoviePilot sends it (`YYYY-MM-DD HH:mm:ss`, the server's local time). */
  publishedAt: string | null;
  volumeFactor: string | null;
  /** MoviePilot's `torrent_info` exactly as received: `download/add` wants it back unchanged. */
  torrentInfo: Record<string, unknown>;
}

/** What every automation kind can do: hand off a request, and be probed. */
export interface Automation {
  readonly kind: AutomationSettings['kind'];
  submit(request: AutomationRequest): Promise<AutomationOutcome>;
  probe(): Promise<ProbeResult>;
}
