import { signal } from '@angular/core';
import type { User } from '@usher/contracts';
import { aUser } from '../testing/fixtures';
import { prefetchFirstPage, startFirstReads } from './app.config';

/** The first page's code is fetched alongside the startup calls (issue 14, /login's LCP). */
describe('prefetchFirstPage', () => {
  it('should fetch the chunks of the login, home and overview pages, and the public routes for others', () => {
    expect(prefetchFirstPage('/login')).toBe(2);
    expect(prefetchFirstPage('/')).toBe(2);
    expect(prefetchFirstPage('/console/overview')).toBe(4);
    // The router loads the public routes (the first `''` route) to match any URL.
    expect(prefetchFirstPage('/admin/users')).toBe(1);
  });

  it("should start the overview's rails with a session /me accepted, and nothing else", () => {
    const media = { prefetchLatest: jest.fn() };
    const me = signal<User | null>(aUser());
    expect(startFirstReads('/console/overview', { me }, media)).toBe(true);
    expect(media.prefetchLatest).toHaveBeenCalledTimes(1);
    expect(startFirstReads('/console/requests', { me }, media)).toBe(false);
    me.set(aUser({ mustChangePassword: true }));
    expect(startFirstReads('/console/overview', { me }, media)).toBe(false);
    me.set(null);
    expect(startFirstReads('/console/overview', { me }, media)).toBe(false);
    expect(media.prefetchLatest).toHaveBeenCalledTimes(1);
  });
});
