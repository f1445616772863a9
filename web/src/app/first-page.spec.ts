import { prefetchFirstPage } from './app.config';

/** The first page's code is fetched alongside the startup calls (issue 14, /login's LCP). */
describe('prefetchFirstPage', () => {
  it('should fetch the chunks of the login, home and overview pages, and nothing for others', () => {
    expect(prefetchFirstPage('/login')).toBe(2);
    expect(prefetchFirstPage('/')).toBe(2);
    expect(prefetchFirstPage('/console/overview')).toBe(3);
    expect(prefetchFirstPage('/admin/users')).toBe(0);
  });
});
