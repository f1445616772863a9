import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { PageHeader } from './page-header';

@Component({
  imports: [PageHeader],
  template: `
    <app-page-header [title]="'Calendar'" [subtitle]="subtitle()" [align]="align()">
      <button type="button" data-testid="action">Sync</button>
    </app-page-header>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly subtitle = signal('What airs this week');
  readonly align = signal<'start' | 'end'>('end');
}

describe('PageHeader', () => {
  async function render(setUp: (host: Host) => void = () => undefined) {
    const fixture = TestBed.createComponent(Host);
    setUp(fixture.componentInstance);
    await fixture.whenStable();
    return (fixture.nativeElement as HTMLElement).querySelector('header.page-header')!;
  }

  it('should show the heading, the subtitle below it and the projected actions', async () => {
    const header = await render();

    expect(header.querySelector('.heading h1')?.textContent).toBe('Calendar');
    expect(header.querySelector('.heading p')?.textContent).toBe('What airs this week');
    expect(header.querySelector(':scope > [data-testid="action"]')?.textContent).toBe('Sync');
    expect(header.classList).not.toContain('top');
  });

  it('should leave out an empty subtitle and line the actions up with the top on request', async () => {
    const header = await render((host) => {
      host.subtitle.set('');
      host.align.set('start');
    });

    expect(header.querySelector('p')).toBeNull();
    expect(header.classList).toContain('top');
  });
});
