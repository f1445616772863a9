import { TestBed } from '@angular/core/testing';
import { aUser, storeSession } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import NotFound from './not-found';

/** Unknown paths link back to Home, or also to the overview when signed in (60-web.md §3). */
describe('NotFound', () => {
  async function render(signedIn: boolean): Promise<HTMLElement> {
    if (signedIn) storeSession();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    if (signedIn) TestBed.inject(SessionStore).me.set(aUser());
    const fixture = TestBed.createComponent(NotFound);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const links = (root: HTMLElement) =>
    [...root.querySelectorAll<HTMLAnchorElement>('main a')].map((a) => a.getAttribute('href'));

  afterEach(() => localStorage.clear());

  it('should offer only Home to a visitor', async () => {
    const root = await render(false);
    expect(root.querySelector('h1')!.textContent).toContain('Page not found');
    expect(links(root)).toEqual(['/']);
  });

  it('should offer the overview first to a signed-in member', async () => {
    const root = await render(true);
    expect(links(root)).toEqual(['/console/overview', '/']);
  });
});
