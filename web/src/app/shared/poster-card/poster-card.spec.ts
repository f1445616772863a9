import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideTestApp } from '../../../testing/providers';
import { PosterCard, type PosterBadge } from './poster-card';
import { PosterRail } from './poster-rail';

@Component({
  imports: [PosterCard],
  template: `<app-poster-card
    [title]="'Winter Harbour'"
    [subtitle]="'2024'"
    [src]="src()"
    [badge]="badge()"
    [loading]="loading()"
  />`,
})
class CardHost {
  readonly src = signal<string | null>('/api/v1/media/posters/abc?u=1&exp=2&sig=x');
  readonly badge = signal<PosterBadge | null>(null);
  readonly loading = signal(false);
}

@Component({
  imports: [PosterCard, PosterRail],
  template: `<div style="width: 300px">
    <app-poster-rail label="Recently added movies" [loading]="loading()" [skeletonCount]="3">
      @for (n of names(); track n) {
        <app-poster-card [title]="n" />
      }
    </app-poster-rail>
  </div>`,
})
class RailHost {
  readonly loading = signal(true);
  readonly names = signal(['One', 'Two']);
}

describe('PosterCard', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: provideTestApp() }));

  it('should show the poster, title, subtitle and a badge with icon and text', async () => {
    const fixture = TestBed.createComponent(CardHost);
    fixture.componentInstance.badge.set({
      tone: 'success',
      icon: 'check_circle',
      label: 'In library',
    });
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const img = root.querySelector('img')!;
    // The signed URL is used as given: same origin, no token, no prefix.
    expect(img.getAttribute('src')).toBe('/api/v1/media/posters/abc?u=1&exp=2&sig=x');
    expect(root.querySelector('.title')!.textContent).toBe('Winter Harbour');
    expect(root.querySelector('.subtitle')!.textContent).toBe('2024');
    const badge = root.querySelector('[data-testid="poster-badge"]')!;
    expect(badge.textContent!.trim()).toBe('In library');
    expect(badge.classList).toContain('tone-success');
    expect(badge.querySelector('mat-icon')).not.toBeNull();
  });

  it('should show the placeholder when the image fails (a refused poster is a 404)', async () => {
    const fixture = TestBed.createComponent(CardHost);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    root.querySelector('img')!.dispatchEvent(new Event('error'));
    await fixture.whenStable();
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('app-poster-image mat-icon')).not.toBeNull();
    expect(root.querySelector('.title')!.textContent).toBe('Winter Harbour');
  });

  it('should draw a skeleton of the same shape, and no image, while loading', async () => {
    const fixture = TestBed.createComponent(CardHost);
    fixture.componentInstance.loading.set(true);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('.title')).toBeNull();
    // The poster, two title lines and the subtitle.
    expect(root.querySelectorAll('.skeleton').length).toBe(4);
    expect(root.querySelector('app-poster-card')!.getAttribute('aria-busy')).toBe('true');
  });
});

describe('PosterRail', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: provideTestApp() }));

  it('should show skeleton cards while loading, then the projected cards', async () => {
    const fixture = TestBed.createComponent(RailHost);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const track = root.querySelector('[role="region"]')!;
    expect(track.getAttribute('aria-label')).toBe('Recently added movies');
    expect(track.getAttribute('tabindex')).toBe('0');
    expect(track.getAttribute('aria-busy')).toBe('true');
    expect(track.querySelectorAll('app-poster-card.is-loading').length).toBe(3);
    expect(root.querySelector('[data-testid="rail-forward"]')).toBeNull();

    fixture.componentInstance.loading.set(false);
    await fixture.whenStable();
    const titles = [...track.querySelectorAll('.title')].map((e) => e.textContent);
    expect(titles).toEqual(['One', 'Two']);
    expect(track.querySelector('.is-loading')).toBeNull();
    expect(track.getAttribute('aria-busy')).toBeNull();
  });

  it('should page the track with the arrow buttons and jump with Home/End', async () => {
    const fixture = TestBed.createComponent(RailHost);
    fixture.componentInstance.loading.set(false);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const track = root.querySelector<HTMLElement>('[role="region"]')!;
    // jsdom has no layout: give the track a size and record the scroll calls.
    Object.defineProperty(track, 'clientWidth', { value: 300 });
    Object.defineProperty(track, 'scrollWidth', { value: 1000 });
    const scrollBy = jest.fn();
    const scrollTo = jest.fn();
    Object.assign(track, { scrollBy, scrollTo });
    track.dispatchEvent(new Event('scroll'));
    await fixture.whenStable();
    const back = root.querySelector<HTMLButtonElement>('[data-testid="rail-back"]')!;
    const forward = root.querySelector<HTMLButtonElement>('[data-testid="rail-forward"]')!;
    expect(back.disabled).toBe(true);
    expect(forward.disabled).toBe(false);
    expect(forward.getAttribute('aria-label')).toBe('Scroll forward');

    forward.click();
    expect(scrollBy).toHaveBeenCalledWith({ left: 255, behavior: 'smooth' });

    track.scrollLeft = 700;
    track.dispatchEvent(new Event('scroll'));
    await fixture.whenStable();
    expect(forward.disabled).toBe(true);
    expect(back.disabled).toBe(false);

    track.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    expect(scrollTo).toHaveBeenCalledWith({ left: 0 });
    track.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    expect(scrollTo).toHaveBeenCalledWith({ left: 1000 });
  });
});
