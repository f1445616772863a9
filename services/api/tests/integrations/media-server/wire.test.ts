// Normalisation rules of §1.1: ids, times and ticks.
import { isGuid, normaliseId, usherDeviceId } from '../../../src/integrations/media-server/port.js';
import {
  isoUtc,
  posterItemOf,
  ticksToSeconds,
  toMediaItem,
} from '../../../src/integrations/media-server/wire.js';

describe('media-server normalisation', () => {
  it.each([
    ['0123ABCD-0123-4567-89AB-0123456789AB', '0123abcd0123456789ab0123456789ab'],
    ['{0123abcd-0123-4567-89ab-0123456789ab}', '0123abcd0123456789ab0123456789ab'],
    ['0123ABCD0123456789AB0123456789AB', '0123abcd0123456789ab0123456789ab'],
    [' 1042 ', '1042'],
    ['alice-firefox', 'alice-firefox'],
  ])('should normalise the id %s to %s', (raw, want) => {
    expect(normaliseId(raw)).toBe(want);
  });

  it('should tell GUIDs from other ids', () => {
    expect(isGuid('0123abcd-0123-4567-89ab-0123456789ab')).toBe(true);
    expect(isGuid('1042')).toBe(false);
    expect(usherDeviceId('42')).toBe('usher-42');
  });

  it.each([
    ['2024-05-01T12:34:56.1234567Z', '2024-05-01T12:34:56.123Z'],
    ['2024-05-01T12:34:56', '2024-05-01T12:34:56.000Z'],
    ['2024-05-01T14:34:56.5+02:00', '2024-05-01T12:34:56.500Z'],
    ['0001-01-01T00:00:00.0000000Z', undefined],
    ['not a date', undefined],
    [null, undefined],
  ])('should read the server time %s as %s', (raw, want) => {
    expect(isoUtc(raw)).toBe(want);
  });

  it('should count 10,000,000 ticks per second', () => {
    expect(ticksToSeconds(45 * 600_000_000)).toBe(2700);
    expect(ticksToSeconds(null)).toBeUndefined();
  });

  it('should mark virtual items and drop empty provider ids', () => {
    const item = toMediaItem({
      Id: 'ABCDEF01-2345-6789-ABCD-EF0123456789',
      LocationType: 'Virtual',
      ProviderIds: { Tmdb: '1', Imdb: null, Tvdb: '' },
    });
    expect(item).toEqual({
      id: 'abcdef0123456789abcdef0123456789',
      name: '',
      type: '',
      tmdbId: '1',
      providerIds: { Tmdb: '1' },
      virtual: true,
    });
  });

  it("should take an episode's poster from its show, else the item's own Primary image", () => {
    const show = 'ABCDEF01-2345-6789-ABCD-EF0123456789';
    const episode = { Id: '1042', Type: 'Episode', SeriesId: show, ImageTags: { Primary: 'e' } };
    expect(posterItemOf({ ...episode, SeriesPrimaryImageTag: 's' })).toBe(
      'abcdef0123456789abcdef0123456789',
    );
    expect(toMediaItem({ ...episode, SeriesPrimaryImageTag: 's' }).posterItemId).toBe(
      'abcdef0123456789abcdef0123456789',
    );
    // A show without a poster: the episode's still, which beats a placeholder.
    expect(posterItemOf({ ...episode, SeriesPrimaryImageTag: null })).toBe('1042');
    // A season keeps its own poster; an item without any image has none.
    expect(
      posterItemOf({
        Id: '7',
        Type: 'Season',
        SeriesId: show,
        SeriesPrimaryImageTag: 's',
        ImageTags: { Primary: 't' },
      }),
    ).toBe('7');
    expect(posterItemOf({ Id: '8', Type: 'Movie', ImageTags: {} })).toBeUndefined();
    expect(posterItemOf({ Id: '9', Type: 'Movie', ImageTags: { Primary: null } })).toBeUndefined();
    expect(posterItemOf({ Id: '9', Type: 'Movie' })).toBeUndefined();
  });
});
