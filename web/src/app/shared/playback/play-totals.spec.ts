import { TestBed } from '@angular/core/testing';
import { flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { PlayTotals } from './play-totals';

describe('PlayTotals', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: provideTestApp() }));

  async function render(totals: unknown[], layout?: 'five') {
    const fixture = TestBed.createComponent(PlayTotals);
    fixture.componentRef.setInput('totals', totals);
    if (layout) fixture.componentRef.setInput('layout', layout);
    await flushAndRender(fixture);
    return fixture.nativeElement as HTMLElement;
  }

  it('should put each label over its figure: a count with separators, a duration, a moment', async () => {
    const root = await render(
      [
        { label: 'portrait.totals.plays', count: 1480, testId: 'plays' },
        { label: 'portrait.totals.watchTime', seconds: 16200 },
        { label: 'portrait.totals.lastPlayed', at: '2026-03-01T10:00:00.000Z' },
      ],
      'five',
    );

    const labels = [...root.querySelectorAll('dt')].map((dt) => dt.textContent!.trim());
    expect(labels).toEqual(['Plays', 'Watch time', 'Last played']);
    expect(root.querySelector('[data-testid="plays"]')!.textContent!.trim()).toBe('1,480');
    const [, watched, last] = [...root.querySelectorAll('dd')];
    expect(watched!.textContent).toContain('4 hr 30 min');
    expect(last!.textContent).toContain('2026');
    expect(last!.classList).toContain('date');
    expect(root.querySelector('dl')!.classList).toContain('five');
  });

  it('should say the never text for a moment that has not happened', async () => {
    const root = await render([
      { label: 'portrait.totals.lastPlayed', at: null, never: 'portrait.never' },
    ]);

    expect(root.querySelector('dd')!.textContent!.trim()).toBe('Never');
    expect(root.querySelector('dl')!.classList).not.toContain('five');
  });
});
