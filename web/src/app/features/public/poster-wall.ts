import { HttpClient } from '@angular/common/http';
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  type ElementRef,
  afterNextRender,
  inject,
  signal,
  viewChild,
} from '@angular/core';
import type { PosterWall as PosterWallReply } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

/** Tiles per row aim at this width (px), between the bounds. */
const TILE_TARGET = 170;
const TILE_MIN = 96;
const GAP = 10;
const PHONE = '(max-width: 599.98px)';

/** Runs `work` when the browser is idle after the first paint (a timeout where unsupported). */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 200);
  return () => clearTimeout(id);
}

/**
 * The dimmed wall of the library's posters behind sign-in and sign-up (`GET /public/poster-wall`,
 * docs/media.md "Poster wall"). Decoration only: asked for when the browser is idle after the
 * first paint, images at low priority, drawn into one canvas (a canvas is never the page's
 * Largest Contentful Paint, so late posters cannot move LCP) that fades in; a failed or empty
 * wall simply leaves the plain background.
 */
@Component({
  selector: 'app-poster-wall',
  template: `<canvas #canvas [class.shown]="shown()"></canvas>`,
  host: { 'aria-hidden': 'true', 'data-testid': 'poster-wall' },
  styles: `
    :host {
      /* Light surfaces wash posters out faster than dark ones hide them. */
      --wall-scrim-centre: light-dark(
        color-mix(in srgb, var(--mat-sys-surface) 62%, transparent),
        color-mix(in srgb, var(--mat-sys-surface) 70%, transparent)
      );
      --wall-scrim-edge: light-dark(
        color-mix(in srgb, var(--mat-sys-surface) 78%, transparent),
        color-mix(in srgb, var(--mat-sys-surface) 86%, transparent)
      );
      position: fixed;
      inset: 0;
      z-index: 0;
      overflow: hidden;
      pointer-events: none;
    }
    canvas {
      width: 100%;
      height: 100%;
      display: block;
      opacity: 0;
      transition: opacity 600ms ease-out;
    }
    canvas.shown {
      opacity: 1;
    }
    /* The scrim: the wall is a mood, never competition for the form. */
    :host::after {
      content: '';
      position: absolute;
      inset: 0;
      background:
        radial-gradient(
          ellipse at 50% 40%,
          var(--wall-scrim-centre) 0%,
          var(--wall-scrim-edge) 70%
        ),
        /* The header's band stays calm (its buttons sit on it), and the page fades out below. */
        linear-gradient(
            to bottom,
            var(--mat-sys-surface) 0,
            color-mix(in srgb, var(--mat-sys-surface) 80%, transparent) 64px,
            transparent 112px,
            transparent 45%,
            var(--mat-sys-surface)
          );
    }
    @media (prefers-reduced-motion: reduce) {
      canvas {
        transition: none;
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PosterWall {
  private readonly http = inject(HttpClient);
  private readonly canvas = viewChild.required<ElementRef<HTMLCanvasElement>>('canvas');
  protected readonly shown = signal(false);
  /** Loaded posters, in slot order. */
  readonly images = signal<HTMLImageElement[]>([]);

  constructor() {
    const destroyRef = inject(DestroyRef);
    let cancelIdle = () => {};
    const onResize = () => this.draw();
    afterNextRender(() => {
      // A visitor who asked to save data gets the plain background, and so does a phone: there
      // the form covers nearly all of the wall, and its ~25 KB would take /login's first visit
      // past its 350 KB budget (docs: web/README.md "Identity…").
      if ((navigator as { connection?: { saveData?: boolean } }).connection?.saveData) return;
      if (matchMedia(PHONE).matches) return;
      cancelIdle = whenIdle(() => void this.load());
      addEventListener('resize', onResize, { passive: true });
    });
    destroyRef.onDestroy(() => {
      cancelIdle();
      removeEventListener('resize', onResize);
    });
  }

  private async load(): Promise<void> {
    let urls: string[];
    try {
      const reply = await firstValueFrom(
        this.http.get<PosterWallReply>('/api/v1/public/poster-wall'),
      );
      urls = (await checkReply('posterWallSchema', reply)).posters;
    } catch {
      return;
    }
    const loaded = await Promise.all(
      urls.map(
        (url) =>
          new Promise<HTMLImageElement | null>((resolve) => {
            const img = new Image();
            img.decoding = 'async';
            img.fetchPriority = 'low';
            img.onload = () => resolve(img);
            img.onerror = () => resolve(null);
            img.src = url;
          }),
      ),
    );
    const images = loaded.filter((i): i is HTMLImageElement => i !== null);
    if (images.length === 0) return;
    this.images.set(images);
    this.draw();
    this.shown.set(true);
  }

  /** Lays the posters out in staggered columns that fill the viewport. */
  private draw(): void {
    const images = this.images();
    const canvas = this.canvas().nativeElement;
    const ctx = canvas.getContext?.('2d');
    if (images.length === 0 || !ctx) return;
    const ratio = Math.min(2, devicePixelRatio || 1);
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const columns = Math.max(3, Math.round(width / TILE_TARGET));
    const tileW = Math.max(TILE_MIN, (width - GAP * (columns - 1)) / columns);
    const tileH = tileW * 1.5;
    let n = 0;
    for (let col = 0; col < columns; col++) {
      const x = col * (tileW + GAP);
      // Every other column starts half a tile higher: a wall, not a table.
      for (let y = col % 2 ? -tileH / 2 : 0; y < height; y += tileH + GAP) {
        const img = images[(n++ * 7 + col) % images.length]!;
        ctx.save();
        ctx.beginPath();
        ctx.roundRect(x, y, tileW, tileH, 8);
        ctx.clip();
        ctx.drawImage(img, x, y, tileW, tileH);
        ctx.restore();
      }
    }
  }
}
