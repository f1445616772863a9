import { ApiError } from '../../core/api/api-error';
import { MEDIA_KEY, MEDIA_URL, anItem } from './settings-fixtures';
import {
  addToList,
  fieldErrors,
  reentryKeys,
  inputKind,
  parseInteger,
  sectionsOf,
  shownValue,
  tokenFromBytes,
  webhookUrl,
  withCleared,
  withEdit,
} from './settings-logic';

describe('settings logic', () => {
  it('should pick the input for each type, and read-only for items that are not editable', () => {
    expect(inputKind(anItem({ type: 'boolean' }))).toBe('toggle');
    expect(inputKind(anItem({ type: 'integer' }))).toBe('number');
    expect(inputKind(anItem({ type: 'enum' }))).toBe('select');
    expect(inputKind(anItem({ type: 'list' }))).toBe('chips');
    expect(inputKind(anItem({ type: 'text' }))).toBe('textarea');
    expect(inputKind(anItem({ type: 'secret' }))).toBe('secret');
    expect(inputKind(anItem({ type: 'url' }))).toBe('text');
    expect(inputKind(anItem({ type: 'cron' }))).toBe('text');
    expect(inputKind(anItem({ type: 'string', editable: false }))).toBe('readonly');
  });

  it('should record an edit and drop it again when the value is back to the effective one', () => {
    const item = anItem({ value: 'Usher', source: 'db' });
    const edited = withEdit({}, item, 'My cinema');
    expect(edited).toEqual({ SITE_NAME: 'My cinema' });
    expect(withEdit(edited, item, 'Usher')).toEqual({});
  });

  it('should treat typing and deleting into an unset key as no edit', () => {
    const typed = withEdit({}, MEDIA_URL, 'http://emby:8096');
    expect(typed).toEqual({ MEDIA_SERVER_URL: 'http://emby:8096' });
    expect(withEdit(typed, MEDIA_URL, '')).toEqual({});
  });

  it('should leave an untouched (empty) secret out of the draft, and send a typed one', () => {
    expect(withEdit({}, MEDIA_KEY, '')).toEqual({});
    expect(withEdit({}, MEDIA_KEY, 'abcdefghijklmnop')).toEqual({
      MEDIA_SERVER_API_KEY: 'abcdefghijklmnop',
    });
    expect(withEdit({ MEDIA_SERVER_API_KEY: 'x' }, MEDIA_KEY, '')).toEqual({});
  });

  it('should clear with null, and never show a secret, not even a typed-then-cleared one', () => {
    expect(withCleared({}, MEDIA_KEY)).toEqual({ MEDIA_SERVER_API_KEY: null });
    expect(shownValue(MEDIA_KEY, {})).toBe('');
    expect(shownValue(MEDIA_KEY, { MEDIA_SERVER_API_KEY: null })).toBe('');
    const name = anItem({ value: 'Mine', default: 'Usher', source: 'db' });
    expect(shownValue(name, { SITE_NAME: null })).toBe('Usher');
    expect(shownValue(name, {})).toBe('Mine');
  });

  it('should send whole numbers as numbers and anything else as typed', () => {
    expect(parseInteger(' 42 ')).toBe(42);
    expect(parseInteger('-3')).toBe(-3);
    expect(parseInteger('4.5')).toBe('4.5');
    expect(parseInteger('')).toBe('');
  });

  it('should add list entries split on commas and spaces, without duplicates', () => {
    expect(addToList(['a'], 'b, c  a,,')).toEqual(['a', 'b', 'c']);
    expect(addToList([], '   ')).toEqual([]);
  });

  it('should turn SETTING_INVALID details into per-key messages and ignore other errors', () => {
    const invalid = new ApiError(400, 'SETTING_INVALID', 'Some values are not valid', 'r', [
      { key: 'MEDIA_SERVER_URL', message: 'must be an http(s) URL' },
      { nonsense: true },
    ]);
    expect(fieldErrors(invalid)).toEqual({ MEDIA_SERVER_URL: 'must be an http(s) URL' });
    expect(fieldErrors(new ApiError(500, 'INTERNAL_ERROR', 'x', 'r', undefined))).toBeNull();
    expect(fieldErrors(new Error('boom'))).toBeNull();
  });

  it('should read the secrets to type again from SECRET_REENTRY_REQUIRED only', () => {
    const reentry = new ApiError(422, 'SECRET_REENTRY_REQUIRED', 'x', 'r', {
      keys: ['SMTP_PASSWORD', 7],
      changed: ['SMTP_HOST'],
    });
    expect(reentryKeys(reentry)).toEqual(['SMTP_PASSWORD']);
    expect(reentryKeys(new ApiError(422, 'SECRET_REENTRY_REQUIRED', 'x', 'r', {}))).toBeNull();
    expect(
      reentryKeys(new ApiError(422, 'SETTING_UNKNOWN_KEY', 'x', 'r', { keys: ['A'] })),
    ).toBeNull();
    expect(reentryKeys(new Error('boom'))).toBeNull();
  });

  it('should build a 64-hex token and the webhook URL from the public address', () => {
    const token = tokenFromBytes(new Uint8Array(32).fill(171));
    expect(token).toBe('ab'.repeat(32));
    expect(webhookUrl('https://usher.example/', token)).toBe(
      `https://usher.example/api/v1/webhooks/media-server?token=${token}`,
    );
  });

  it('should split a group into foldable sections by key, keeping the order and unknown keys', () => {
    const item = (key: string, extra = {}) => anItem({ key, group: 'media_server', ...extra });
    const sections = sectionsOf([
      item('MEDIA_SERVER_URL'),
      item('MEDIA_SERVER_WEBHOOK_TOKEN'),
      item('MEMBER_STREAM_LIMIT'),
      item('SOMETHING_NEW'),
      item('TMDB_API_BASE'),
    ]);
    expect(sections.map((s) => [s.id, s.items.map((i) => i.key), s.folded])).toEqual([
      [null, ['MEDIA_SERVER_URL', 'SOMETHING_NEW'], false],
      ['webhook', ['MEDIA_SERVER_WEBHOOK_TOKEN'], false],
      ['members', ['MEMBER_STREAM_LIMIT'], false],
      ['overrides', ['TMDB_API_BASE'], true],
    ]);
    // A stored override opens its section.
    expect(sectionsOf([item('TMDB_API_BASE', { source: 'db' })])[0]!.folded).toBe(false);
  });
});
