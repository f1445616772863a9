// "New item" webhooks as the servers send them (50-integrations.md §2): Emby's `library.new`
// (multipart with a `data` field, or JSON) and the Jellyfin Webhook plugin's `ItemAdded`.
import { isoDate } from './http.js';
import { itemDto } from './item-dto.js';
import { dashed } from './state.js';
import type { FakeItem, MediaState } from './types.js';

export interface WebhookOptions {
  /** Emby: `multipart` (4.7/4.8 default) or `json`; Jellyfin: `json` or `text` (plugin default). */
  format?: 'multipart' | 'json' | 'text';
  /** Emby only: an event fired before metadata exists (no ProviderIds, no index numbers). */
  early?: boolean;
  /** Jellyfin only: a Handlebars-style template; "Send All Properties" when absent. */
  template?: string;
  /** Extra headers, e.g. the Jellyfin destination's `X-Usher-Webhook-Token`. */
  headers?: Record<string, string>;
}

export interface WebhookDelivery {
  status: number;
  /** The receiver's reply body as text. */
  responseBody: string;
  /** The content type the fake sent (the multipart one carries its boundary). */
  contentType: string;
  /** The JSON (or rendered template) carried by the request. */
  payload: string;
}

function serverBlock(state: MediaState): Record<string, unknown> {
  return { Name: state.serverName, Id: state.serverId, Version: state.version };
}

/** Emby `library.new`: a notification envelope around the item's BaseItemDto. */
export function embyItemAddedPayload(
  state: MediaState,
  item: FakeItem,
  early = false,
): Record<string, unknown> {
  const fields = new Set([
    'providerids',
    'path',
    'datecreated',
    'parentid',
    'overview',
    'sortname',
  ]);
  const dto = itemDto(state, item, fields);
  if (early) {
    dto['ProviderIds'] = {};
    delete dto['IndexNumber'];
    delete dto['IndexNumberEnd'];
    delete dto['ParentIndexNumber'];
  }
  const title = item.seriesName ? `${item.seriesName} - ${item.name}` : item.name;
  return {
    Title: `New ${item.type === 'Episode' ? 'episode' : 'media'} added: ${title}`,
    Description: item.overview ?? '',
    Date: isoDate(state.now()),
    Event: 'library.new',
    Severity: 'Info',
    Item: dto,
    Server: serverBlock(state),
  };
}

export function embyTestPayload(state: MediaState): Record<string, unknown> {
  return {
    Title: 'Test Notification',
    Description: 'Test Notification Description',
    Date: isoDate(state.now()),
    Event: 'system.notificationtest',
    Severity: 'Info',
    Server: serverBlock(state),
  };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function runTime(ticks: number | undefined): string {
  const s = Math.floor((ticks ?? 0) / 10_000_000);
  return `${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}`;
}

/**
 * The plugin's data object ("Send All Properties"). Guids are serialised 32-hex; an episode's
 * `Year` is its series' year, and provider ids become `Provider_<lower-case name>`.
 */
export function jellyfinItemAddedData(state: MediaState, item: FakeItem): Record<string, unknown> {
  const now = state.now();
  const series = item.seriesId ? state.items.get(item.seriesId) : undefined;
  const data: Record<string, unknown> = {
    ServerId: state.serverId,
    ServerName: state.serverName,
    ServerVersion: state.version,
    ServerUrl: '',
    NotificationType: 'ItemAdded',
    Timestamp: now.toISOString(),
    UtcTimestamp: now.toISOString(),
    Name: item.name,
    Overview: item.overview ?? '',
    Tagline: '',
    ItemId: item.id,
    ItemType: item.type,
    RunTimeTicks: item.runTimeTicks ?? 0,
    RunTime: runTime(item.runTimeTicks),
  };
  const year = item.type === 'Episode' ? series?.productionYear : item.productionYear;
  if (year !== undefined) data['Year'] = year;
  if (item.type === 'Episode' || item.type === 'Season') {
    Object.assign(data, { SeriesName: item.seriesName, SeriesId: item.seriesId });
  }
  if (item.type === 'Episode') {
    if (item.seasonId) data['SeasonId'] = item.seasonId;
    addNumber(data, 'SeasonNumber', item.parentIndexNumber);
    addNumber(data, 'EpisodeNumber', item.indexNumber);
    addNumber(data, 'EpisodeNumberEnd', item.indexNumberEnd);
  }
  for (const [k, v] of Object.entries(item.providerIds)) data[`Provider_${k.toLowerCase()}`] = v;
  if (item.video) {
    Object.assign(data, {
      Video_0_Title: `${item.video.width}x${item.video.height}`,
      Video_0_Type: 'Video',
      Video_0_Codec: item.video.codec,
      Video_0_Height: item.video.height,
      Video_0_Width: item.video.width,
      Video_0_VideoRange: item.video.hdr === 'SDR' ? 'SDR' : 'HDR',
    });
  }
  return data;
}

function addNumber(data: Record<string, unknown>, key: string, n: number | undefined): void {
  if (n === undefined) return;
  data[key] = n;
  data[`${key}00`] = pad(n, 2);
  data[`${key}000`] = pad(n, 3);
}

/** A typical admin template. Values are quoted strings, as most real templates produce. */
export const DEFAULT_JELLYFIN_TEMPLATE =
  '{"NotificationType":"{{NotificationType}}","ServerId":"{{ServerId}}","ItemId":"{{ItemId}}",' +
  '"ItemType":"{{ItemType}}","Name":"{{Name}}","Year":"{{Year}}","SeriesId":"{{SeriesId}}",' +
  '"SeriesName":"{{SeriesName}}","SeasonNumber":"{{SeasonNumber}}",' +
  '"EpisodeNumber":"{{EpisodeNumber}}","EpisodeNumberEnd":"{{EpisodeNumberEnd}}",' +
  '"Provider_tmdb":"{{Provider_tmdb}}"}';

const GUID_KEYS = new Set(['ServerId', 'ItemId', 'SeriesId', 'SeasonId']);
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/**
 * Handlebars-style rendering: `{{x}}` is HTML-escaped, `{{{x}}}` is raw, unknown keys are empty.
 * Guids print with dashes because the plugin hands Handlebars the Guid object (ToString "D").
 */
export function renderJellyfinTemplate(template: string, data: Record<string, unknown>): string {
  const value = (key: string): string => {
    const v = data[key];
    if (v === undefined || v === null) return '';
    return GUID_KEYS.has(key) && typeof v === 'string' ? dashed(v) : String(v);
  };
  return template
    .replace(/\{\{\{\s*(\w+)\s*\}\}\}/g, (_m, k: string) => value(k))
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, k: string) =>
      value(k).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c),
    );
}

async function post(url: string, body: string | FormData, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', body, headers });
  return { status: res.status, responseBody: await res.text() };
}

async function sendEmby(
  url: string,
  payload: Record<string, unknown>,
  opts: WebhookOptions,
  state: MediaState,
): Promise<WebhookDelivery> {
  const json = JSON.stringify(payload);
  const headers = { 'user-agent': `Emby Server/${state.version}`, ...opts.headers };
  if (opts.format === 'json') {
    const r = await post(url, json, { 'content-type': 'application/json', ...headers });
    return { ...r, contentType: 'application/json', payload: json };
  }
  // Emby 4.7/4.8 post multipart/form-data with the JSON in a field named `data`.
  const form = new FormData();
  form.append('data', json);
  const r = await post(url, form, headers);
  return { ...r, contentType: 'multipart/form-data', payload: json };
}

/** Sends the "item added" webhook for an item of the state to `targetUrl`. */
export async function emitItemAdded(
  state: MediaState,
  itemId: string,
  targetUrl: string,
  opts: WebhookOptions = {},
): Promise<WebhookDelivery> {
  const item = state.items.get(itemId);
  if (!item) throw new Error(`emitItemAdded: no item ${itemId} in the fake ${state.flavour}`);
  if (state.flavour === 'emby') {
    return sendEmby(targetUrl, embyItemAddedPayload(state, item, opts.early), opts, state);
  }
  const data = jellyfinItemAddedData(state, item);
  const payload = opts.template
    ? renderJellyfinTemplate(opts.template, data)
    : JSON.stringify(data);
  const contentType = opts.format === 'text' ? 'text/plain; charset=utf-8' : 'application/json';
  const headers = {
    'content-type': contentType,
    'user-agent': `Jellyfin-Server/${state.version}`,
    ...opts.headers,
  };
  return { ...(await post(targetUrl, payload, headers)), contentType, payload };
}

/** Emby's "Send test notification" button; the Jellyfin plugin has no equivalent event. */
export async function emitTestNotification(
  state: MediaState,
  targetUrl: string,
  opts: WebhookOptions = {},
): Promise<WebhookDelivery> {
  if (state.flavour !== 'emby') throw new Error('Only Emby sends system.notificationtest');
  return sendEmby(targetUrl, embyTestPayload(state), opts, state);
}
