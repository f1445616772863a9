import type { PlaybackSummary } from '@usher/contracts';
import { dateFormat } from '../../core/i18n/intl';
import type { ChartSpec } from '../chart/chart-options';
import { formatHours, hoursOf } from './playback-format';

/** Translates a `portrait.*` key (the playback words the charts share). */
type Translate = (key: string, params?: Record<string, unknown>) => string;

/** Plays per day of a summary, one bar a day, labelled "11/21" in the UI language. */
export function playsPerDaySpec(s: PlaybackSummary, lang: string, t: Translate): ChartSpec {
  const day = dateFormat(lang, { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
  return {
    type: 'bar',
    items: s.byDay.map((d) => ({
      label: day.format(new Date(`${d.day}T00:00:00Z`)),
      value: d.count,
    })),
    categoryHeader: t('day'),
    valueHeader: t('plays'),
    format: (n: number) => t('playsValue', { n }),
  };
}

/** How plays played: a donut of the methods anyone used. */
export function playMethodsSpec(m: PlaybackSummary['playMethods'], t: Translate): ChartSpec {
  return {
    type: 'donut',
    items: [
      { label: t('method.DirectPlay'), value: m.directPlay },
      { label: t('method.DirectStream'), value: m.directStream },
      { label: t('method.Transcode'), value: m.transcode },
    ].filter((item) => item.value > 0),
    categoryHeader: t('methodHeader'),
    valueHeader: t('plays'),
    format: (n: number) => t('playsValue', { n }),
  };
}

/** Apps or devices by watch time (at most 8), in hours. */
export function usageSpec(
  rows: PlaybackSummary['clients'],
  header: string,
  type: ChartSpec['type'],
  lang: string,
  t: Translate,
): ChartSpec {
  return {
    type,
    items: rows.slice(0, 8).map((r) => ({ label: r.name, value: hoursOf(r.durationSeconds) })),
    categoryHeader: header,
    valueHeader: t('watchTime'),
    format: (value: number) => formatHours(value, lang),
  };
}
