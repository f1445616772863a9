import { defaultTorrents, type Subscription, type TorrentContext } from './catalog.js';

export interface DownloadRecord {
  download_id: string;
  /** The torrent exactly as the client sent it back. */
  torrent_in: Record<string, unknown>;
  downloader: unknown;
  save_path: unknown;
  username: string;
}

export interface ServarrItem {
  id: number;
  title: string;
  year?: number;
  tmdbId?: number;
  tvdbId?: number;
  qualityProfileId?: number;
  rootFolderPath?: string;
  seasons?: { seasonNumber: number; monitored: boolean }[];
  [other: string]: unknown;
}

/** Everything the fake MoviePilot (or Radarr/Sonarr) holds; tests may read and seed it. */
export class MoviePilotState {
  subscriptions: Subscription[] = [];
  torrents: TorrentContext[] = defaultTorrents();
  downloads: DownloadRecord[] = [];
  /** tmdb ids whose subscription MoviePilot refuses (HTTP 200, success:false), with the message. */
  readonly refused = new Map<number, string>();
  /** When set, `download/add` answers success:false "任务添加失败" (the downloader said no). */
  failDownloads = false;
  /** Radarr movies / Sonarr series added through `/api/v3` in servarr modes. */
  servarrMovies: ServarrItem[] = [];
  servarrSeries: ServarrItem[] = [];
  private nextId = 1;

  allocateId() {
    return this.nextId++;
  }

  findSubscription(tmdbid: number, season: number | null | undefined) {
    return this.subscriptions.find(
      (s) =>
        s.tmdbid === tmdbid && (season === undefined || season === null || s.season === season),
    );
  }
}
