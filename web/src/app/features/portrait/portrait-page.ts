import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { Router } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { PortraitRange } from '../../shared/playback/playback-api';
import { PageHeader } from '../../shared/page-header';
import { PlaybackPortrait } from '../../shared/playback/playback-portrait';

/**
 * `/console/portrait` (60-web.md §4.2 "My playback"): the member's own portrait, its range in
 * the query string (`range`, and `from`/`to` for a custom one) so reloads and links keep it.
 */
@Component({
  selector: 'app-portrait-page',
  imports: [PageHeader, PlaybackPortrait, TranslocoDirective],
  template: `
    <ng-container *transloco="let t">
      <app-page-header [title]="t('portrait.title')" [subtitle]="t('portrait.subtitle')" />
      <app-playback-portrait
        [range]="range()"
        [from]="from()"
        [to]="to()"
        (rangeChange)="navigate($event)"
      />
    </ng-container>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 16px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class PortraitPage {
  private readonly router = inject(Router);
  // Query params (bound by the router).
  readonly range = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();

  protected navigate(range: PortraitRange): void {
    void this.router.navigate([], {
      queryParams: {
        range: range.range === '30d' ? null : range.range,
        from: range.from || null,
        to: range.to || null,
      },
      queryParamsHandling: 'merge',
    });
  }
}
