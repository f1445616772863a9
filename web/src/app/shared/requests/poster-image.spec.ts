import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { provideTestApp } from '../../../testing/providers';
import { RAIL_POSTER_SIZES } from '../poster-card/poster-rail';
import { POSTER_WIDTHS, PosterImage, posterSrcset } from './poster-image';

@Component({
  imports: [PosterImage],
  template: `<app-poster-image
    [src]="src()"
    [sizes]="sizes()"
    [priority]="priority()"
    [deferUntilNear]="defer()"
  />`,
})
class Host {
  readonly src = signal<string | null>('/api/v1/media/posters/abc?u=1&exp=2&sig=x');
  readonly sizes = signal<string | null>(null);
  readonly priority = signal(false);
  readonly defer = signal(false);
}

/** A stand-in IntersectionObserver whose callbacks the test fires. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets: Element[] = [];
  options: IntersectionObserverInit | undefined;
  disconnected = false;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    options?: IntersectionObserverInit,
  ) {
    this.options = options;
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.disconnected = true;
  }
  fire(isIntersecting: boolean) {
    this.callback(
      this.targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
      this as unknown as IntersectionObserver,
    );
  }
}

describe('PosterImage (issue 36: the width shown, and only near the screen)', () => {
  const original = globalThis.IntersectionObserver;
  beforeEach(() => {
    FakeObserver.all = [];
    TestBed.configureTestingModule({ providers: provideTestApp() });
  });
  afterEach(() => {
    globalThis.IntersectionObserver = original;
  });

  async function render(setup: (host: Host) => void = () => {}) {
    const fixture = TestBed.createComponent(Host);
    setup(fixture.componentInstance);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  it('should offer the poster proxy its widths when the displayed size is known', async () => {
    const { root } = await render((h) => h.sizes.set(RAIL_POSTER_SIZES));
    const img = root.querySelector('img')!;
    const base = '/api/v1/media/posters/abc?u=1&exp=2&sig=x';
    expect(img.getAttribute('srcset')).toBe(
      `${base}&width=160 160w, ${base}&width=240 240w, ${base}&width=320 320w`,
    );
    expect(img.getAttribute('sizes')).toBe('(min-width: 600px) 160px, 140px');
    expect(img.getAttribute('src')).toBe(`${base}&width=320`);
    // Explicit dimensions (the box is 2:3 anyway), lazy and decoded off the main thread.
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['160', '240']);
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('decoding')).toBe('async');
  });

  it('should use any other URL as given (TMDB, a URL that names its width)', () => {
    expect(posterSrcset('https://image.tmdb.org/t/p/w342/x.jpg')).toBeNull();
    expect(posterSrcset('/api/v1/media/posters/abc?u=1&exp=2&sig=x&width=200')).toBeNull();
    expect(posterSrcset('/api/v1/media/posters/abc?u=1&exp=2&sig=x')).toContain('&width=160 160w');
  });

  it('should fetch the largest paint at once, at high priority, and nothing else so', async () => {
    const { root } = await render((h) => {
      h.priority.set(true);
      h.sizes.set(RAIL_POSTER_SIZES);
    });
    const img = root.querySelector('img')!;
    expect(img.getAttribute('fetchpriority')).toBe('high');
    expect(img.getAttribute('loading')).toBeNull();
    const plain = await render();
    expect(plain.root.querySelector('img')!.getAttribute('fetchpriority')).toBeNull();
  });

  it('should put a deferred poster in the page only once it comes near the screen', async () => {
    globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;
    const { fixture, root } = await render((h) => h.defer.set(true));
    // Not yet: no image and no placeholder icon, just the poster's box.
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('mat-icon')).toBeNull();
    const [observer] = FakeObserver.all;
    expect(observer!.targets).toEqual([root.querySelector('app-poster-image')]);
    // A rail's hidden cards count as far (only a margin of the rail's own visible part).
    expect(observer!.options).toMatchObject({ rootMargin: '400px 0px', scrollMargin: '0px 200px' });
    observer!.fire(false);
    await fixture.whenStable();
    expect(root.querySelector('img')).toBeNull();
    observer!.fire(true);
    await fixture.whenStable();
    expect(root.querySelector('img')!.getAttribute('src')).toBe(
      '/api/v1/media/posters/abc?u=1&exp=2&sig=x',
    );
    expect(observer!.disconnected).toBe(true);
  });

  it('should show a deferred poster at once where there is no IntersectionObserver', async () => {
    // @ts-expect-error -- an old browser
    delete globalThis.IntersectionObserver;
    const { root } = await render((h) => h.defer.set(true));
    expect(root.querySelector('img')).not.toBeNull();
  });

  it("should name the same candidates as public/boot.js's preload of the first poster", () => {
    // The preload is only reused when the <img> picks the same URL from the same srcset/sizes.
    const boot = readFileSync(join(__dirname, '../../../../public/boot.js'), 'utf8');
    expect(boot).toContain(`var widths = [${POSTER_WIDTHS.join(', ')}];`);
    expect(boot).toContain(`image.setAttribute('imagesizes', '${RAIL_POSTER_SIZES}');`);
  });
});
