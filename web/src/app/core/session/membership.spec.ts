import { aUser } from '../../../testing/fixtures';
import { membershipOf } from './membership';

describe('membershipOf', () => {
  const now = new Date('2026-05-01T12:00:00.000Z');

  it('should show no expiry for admins, whatever the date says', () => {
    const user = aUser({ role: 'admin', expiresAt: '2020-01-01T00:00:00.000Z', isExpired: true });
    expect(membershipOf(user, now)).toEqual({
      state: 'no_expiry',
      daysLeft: null,
      expiresAt: null,
    });
  });

  it('should show no expiry without an expiry date', () => {
    expect(membershipOf(aUser({ expiresAt: null }), now).state).toBe('no_expiry');
  });

  it('should show expired from the API flag', () => {
    const user = aUser({ expiresAt: '2026-04-30T00:00:00.000Z', isExpired: true });
    expect(membershipOf(user, now)).toMatchObject({ state: 'expired', daysLeft: 0 });
  });

  it('should count whole days left for an active member', () => {
    const user = aUser({ expiresAt: '2026-05-08T11:00:00.000Z', isExpired: false });
    expect(membershipOf(user, now)).toMatchObject({ state: 'active', daysLeft: 6 });
  });
});
