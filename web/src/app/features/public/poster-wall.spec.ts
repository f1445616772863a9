import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { provideTestApp } from '../../../testing/providers';
import { AuthPage } from './auth-page';
import Login from './login';
import { PosterWall } from './poster-wall';

/** Images as the browser loads them: `broken` in the URL fails, anything else loads. */
class FakeImage {
  static created: FakeImage[] = [];
  decoding = '';
  fetchPriority = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private url = '';
  constructor() {
    FakeImage.created.push(this);
  }
  set src(url: string) {
    this.url = url;
    setTimeout(() => (url.includes('broken') ? this.onerror?.() : this.onload?.()), 0);
  }
  get src() {
    return this.url;
  }
}

/** The sign-in pages' poster wall (issue 36): decoration that never delays the page. */
describe('PosterWall', () => {
  const drawn: unknown[] = [];
  const realImage = window.Image;
  beforeEach(() => {
    FakeImage.created = [];
    drawn.length = 0;
    (window as { Image: unknown }).Image = FakeImage;
    // A 1280 × 800 window (jsdom lays nothing out).
    jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1280);
    jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      () =>
        ({
          setTransform: () => undefined,
          save: () => undefined,
          restore: () => undefined,
          beginPath: () => undefined,
          roundRect: () => undefined,
          clip: () => undefined,
          drawImage: (img: unknown) => drawn.push(img),
        }) as unknown as CanvasRenderingContext2D,
    );
  });
  afterEach(() => {
    (window as { Image: unknown }).Image = realImage;
    jest.restoreAllMocks();
    delete (navigator as { connection?: unknown }).connection;
  });

  const idle = () => new Promise((resolve) => setTimeout(resolve, 250));
  /** Waits (up to 5 s) for `done`: the reply is checked against the contract first, lazily. */
  async function until(done: () => boolean) {
    for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  }

  async function render() {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const fixture = TestBed.createComponent(PosterWall);
    await fixture.whenStable();
    return { fixture, http: TestBed.inject(HttpTestingController) };
  }

  it('should ask for the wall only once the page is idle, and fade it in when posters load', async () => {
    const { fixture, http } = await render();
    const host = fixture.nativeElement as HTMLElement;
    expect(host.getAttribute('aria-hidden')).toBe('true');
    http.expectNone('/api/v1/public/poster-wall');
    await idle();
    http.expectOne('/api/v1/public/poster-wall').flush({
      posters: [
        '/api/v1/public/poster-wall/0?v=a',
        '/broken/1',
        '/api/v1/public/poster-wall/2?v=c',
      ],
    });
    await until(() => fixture.componentInstance.images().length > 0);
    await fixture.whenStable();
    expect(FakeImage.created.map((i) => [i.src, i.fetchPriority, i.decoding])).toEqual([
      ['/api/v1/public/poster-wall/0?v=a', 'low', 'async'],
      ['/broken/1', 'low', 'async'],
      ['/api/v1/public/poster-wall/2?v=c', 'low', 'async'],
    ]);
    // The broken poster is left out; the two others tile the wall.
    expect(fixture.componentInstance.images()).toHaveLength(2);
    // Eight columns of 2:3 tiles fill the window: more tiles than posters, each one used.
    expect(drawn.length).toBeGreaterThan(24);
    expect(new Set(drawn).size).toBe(2);
    expect(host.querySelector('canvas')!.classList).toContain('shown');
    http.verify();
  });

  it('should stay hidden when the wall fails or is empty', async () => {
    const { fixture, http } = await render();
    await idle();
    http.expectOne('/api/v1/public/poster-wall').flush({ posters: [] });
    await idle();
    await fixture.whenStable();
    expect((fixture.nativeElement as HTMLElement).querySelector('canvas')!.classList).not.toContain(
      'shown',
    );
    TestBed.resetTestingModule();
    const second = await render();
    await idle();
    second.http
      .expectOne('/api/v1/public/poster-wall')
      .flush(null, { status: 503, statusText: 'Unavailable' });
    await idle();
    expect(FakeImage.created).toEqual([]);
  });

  it('should load nothing on a phone, where the form covers the wall', async () => {
    const realMatchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({
      ...realMatchMedia(query),
      matches: query.includes('max-width: 599.98px'),
    });
    try {
      const { http } = await render();
      await idle();
      http.expectNone('/api/v1/public/poster-wall');
      http.verify();
    } finally {
      window.matchMedia = realMatchMedia;
    }
  });

  it('should load nothing for a visitor saving data', async () => {
    Object.defineProperty(navigator, 'connection', {
      value: { saveData: true },
      configurable: true,
    });
    const { http } = await render();
    await idle();
    http.expectNone('/api/v1/public/poster-wall');
    http.verify();
  });
});

describe('AuthPage poster wall', () => {
  it('should put the wall behind sign-in only when asked, under the page', async () => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const login = TestBed.createComponent(Login);
    await login.whenStable();
    const root = login.nativeElement as HTMLElement;
    expect(root.querySelector('app-poster-wall')).not.toBeNull();
    const plain = TestBed.createComponent(AuthPage);
    await plain.whenStable();
    expect((plain.nativeElement as HTMLElement).querySelector('app-poster-wall')).toBeNull();
    plain.componentRef.setInput('wall', true);
    await plain.whenStable();
    expect((plain.nativeElement as HTMLElement).querySelector('app-poster-wall')).not.toBeNull();
  });
});
