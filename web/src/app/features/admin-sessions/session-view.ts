import type { Session, SessionList } from '@usher/contracts';
import type { Tone } from '../../shared/status-chip';
import { numberFormat } from '../../core/i18n/intl';

type PlayMethod = NonNullable<Session['playState']>['playMethod'];

/** How each play method looks (60-web.md §6.6 "play method"). Labels are keys. */
export const PLAY_METHOD_CHIPS: Record<PlayMethod, { tone: Tone; icon: string; key: string }> = {
  DirectPlay: { tone: 'success', icon: 'play_circle', key: 'liveSessions.method.DirectPlay' },
  DirectStream: { tone: 'info', icon: 'stream', key: 'liveSessions.method.DirectStream' },
  Transcode: { tone: 'warning', icon: 'swap_horiz', key: 'liveSessions.method.Transcode' },
  unknown: { tone: 'neutral', icon: 'help', key: 'liveSessions.method.unknown' },
};

/** "S01E02" for an episode with both numbers, else null. */
export function episodeCode(np: NonNullable<Session['nowPlaying']>): string | null {
  if (np.season === null || np.episode === null) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return `S${two(np.season)}E${two(np.episode)}`;
}

/** A playback position as a clock: "4:05", "1:02:03". */
export function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** Bits per second as "6.0 Mbps" / "850 kbps" in the UI language. */
export function bitrate(bps: number, lang: string): string {
  const mbps = bps >= 1_000_000;
  const value = mbps ? bps / 1_000_000 : bps / 1000;
  const number = numberFormat(lang, {
    minimumFractionDigits: mbps ? 1 : 0,
    maximumFractionDigits: mbps ? 1 : 0,
  }).format(value);
  return `${number} ${mbps ? 'Mbps' : 'kbps'}`;
}

/** Title lines of a playing session: a show over "S01E02 · Episode", a film over nothing. */
export function titleLines(np: NonNullable<Session['nowPlaying']>): {
  title: string;
  subtitle: string | null;
} {
  if (!np.seriesName) return { title: np.name, subtitle: null };
  const code = episodeCode(np);
  return { title: np.seriesName, subtitle: code ? `${code} · ${np.name}` : np.name };
}

/** The sessions that play something now, and how many of them transcode. */
export function liveStreams(list: SessionList | null): { playing: Session[]; transcoding: number } {
  const playing = (list?.data ?? []).filter((s) => s.nowPlaying !== null);
  return { playing, transcoding: playing.filter((s) => s.playState?.transcoding).length };
}
