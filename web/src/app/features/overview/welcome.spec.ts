import { Clipboard } from '@angular/cdk/clipboard';
import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { encode } from 'uqr';
import { aUser } from '../../../testing/fixtures';
import { flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import { qrPath } from './qr-code';
import Welcome, { APPS, guessPlatform } from './welcome';

/** The setup flow after sign-up (issue 36): apps per platform, the address with a QR code, a request. */
describe('Welcome', () => {
  const realUserAgent = navigator.userAgent;
  afterEach(() => {
    Object.defineProperty(navigator, 'userAgent', { value: realUserAgent, configurable: true });
  });

  async function render(kind: 'emby' | 'jellyfin', userAgent = realUserAgent) {
    Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
    TestBed.configureTestingModule({ providers: provideTestApp() });
    TestBed.inject(SessionStore).me.set(aUser({ username: 'new_member' }));
    const fixture = TestBed.createComponent(Welcome);
    await fixture.whenStable();
    TestBed.inject(HttpTestingController)
      .expectOne('/api/v1/media/server')
      .flush({ configured: true, kind, publicUrl: 'https://watch.example.org' });
    await flushAndRender(fixture);
    TestBed.inject(HttpTestingController).verify();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }
  const text = (root: HTMLElement, id: string) =>
    root.querySelector(`[data-testid="${id}"]`)!.textContent!.replace(/\s+/g, ' ').trim();
  const apps = (root: HTMLElement) =>
    [...root.querySelectorAll('[data-testid="welcome-app-list"] li')].map((li) =>
      li.textContent!.trim(),
    );

  it('should walk through the three steps in order, greeting the new member', async () => {
    const { root } = await render('jellyfin');
    expect(root.querySelector('h1')!.textContent).toContain('Welcome, new_member!');
    const steps = [...root.querySelectorAll('ol.steps > li')].map((li) =>
      li.getAttribute('data-testid'),
    );
    expect(steps).toEqual(['welcome-apps', 'welcome-connect', 'welcome-request']);
    expect(text(root, 'welcome-username')).toBe(
      'Then sign in as new_member with your Usher password.',
    );
    expect(root.querySelector('[data-testid="welcome-first-request"]')!.getAttribute('href')).toBe(
      '/console/requests/new',
    );
    expect(root.querySelector('[data-testid="welcome-done"]')!.getAttribute('href')).toBe(
      '/console/overview',
    );
  });

  it("should list the server's apps for the device guessed from the browser, and switch platform", async () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15';
    const { fixture, root } = await render('jellyfin', iphone);
    expect(apps(root)).toEqual([...APPS.jellyfin.phone]);
    expect(root.querySelector('[data-testid="platform-phone"]')!.classList).toContain(
      'mat-button-toggle-checked',
    );
    root.querySelector<HTMLButtonElement>('[data-testid="platform-tv"] button')!.click();
    await flushAndRender(fixture);
    expect(apps(root)).toEqual([...APPS.jellyfin.tv]);
    root.querySelector<HTMLButtonElement>('[data-testid="platform-browser"] button')!.click();
    await flushAndRender(fixture);
    expect(apps(root)).toEqual([]);
    expect(root.querySelector('[data-testid="welcome-browser"]')).not.toBeNull();
    const all = [...root.querySelectorAll<HTMLAnchorElement>('a')].find((a) =>
      a.textContent!.includes('All Jellyfin apps'),
    )!;
    expect(all.getAttribute('href')).toBe('https://jellyfin.org/downloads/');
    expect(all.getAttribute('rel')).toContain('noopener');
  });

  it('should name Emby apps on an Emby server', async () => {
    const { root } = await render('emby', 'Mozilla/5.0 (X11; Linux x86_64)');
    expect(apps(root)).toEqual(['Emby Theater (Windows, macOS)']);
  });

  it('should give the address with Copy and a QR code of exactly that address', async () => {
    const { root } = await render('emby');
    const copy = jest.spyOn(TestBed.inject(Clipboard), 'copy').mockReturnValue(true);
    expect(text(root, 'server-url')).toBe('https://watch.example.org');
    root.querySelector<HTMLButtonElement>('[data-testid="server-copy"]')!.click();
    expect(copy).toHaveBeenCalledWith('https://watch.example.org');
    const svg = root.querySelector('[data-testid="server-qr"] svg')!;
    const expected = encode('https://watch.example.org', { ecc: 'M', border: 2 });
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${expected.size} ${expected.size}`);
    expect(svg.querySelector('path')!.getAttribute('d')).toBe(
      qrPath('https://watch.example.org').path,
    );
    // One unit square per dark module.
    const dark = expected.data.flat().filter(Boolean).length;
    expect(svg.querySelector('path')!.getAttribute('d')!.match(/M/g)).toHaveLength(dark);
  });

  it('should guess the platform from the user agent', () => {
    expect(guessPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe('phone');
    expect(guessPlatform('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('phone');
    expect(guessPlatform('Mozilla/5.0 (Linux; Android 12; AFTKA Build)')).toBe('tv');
    expect(guessPlatform('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('computer');
  });
});
