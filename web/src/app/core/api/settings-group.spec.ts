import { settingsGroupFor } from './settings-group';

describe('settingsGroupFor', () => {
  it('should map NOT_CONFIGURED systems to the settings group that fixes them', () => {
    expect(settingsGroupFor('media_server')).toBe('media_server');
    expect(settingsGroupFor('webhook')).toBe('media_server');
    expect(settingsGroupFor('playback_reporting')).toBe('media_server');
    expect(settingsGroupFor('tmdb')).toBe('metadata');
    expect(settingsGroupFor('automation')).toBe('automation');
    expect(settingsGroupFor('smtp')).toBe('email');
    expect(settingsGroupFor('stripe')).toBe('payment');
    expect(settingsGroupFor('bot')).toBe('messenger');
    expect(settingsGroupFor('nothing')).toBeNull();
    expect(settingsGroupFor(null)).toBeNull();
  });
});
