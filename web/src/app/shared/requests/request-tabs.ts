import { CountPipe } from '../count';
import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { REQUEST_TABS, type RequestTab } from './request-status';

/**
 * The status tabs of both request lists (60-web.md §4.2, §4.3): links that set `?status=` and go
 * back to page 1; the active tab shows the list's total once it is known.
 */
@Component({
  selector: 'app-request-tabs',
  imports: [CountPipe, RouterLink, TranslocoDirective],
  template: `
    <nav class="tabs" *transloco="let t" [attr.aria-label]="t('requests.tabsLabel')">
      @for (status of tabs; track status) {
        <a
          class="tab"
          [class.active]="status === active()"
          [routerLink]="[]"
          [queryParams]="{ status: status || null, page: null }"
          queryParamsHandling="merge"
          [attr.aria-current]="status === active() ? 'page' : null"
          [attr.data-testid]="'tab-' + (status || 'ALL')"
        >
          {{ t(status ? 'requests.tabs.' + status : 'requests.tabs.ALL') }}
          @if (status === active() && total() !== null) {
            <span class="count" data-testid="tab-total">{{ total() | count }}</span>
          }
        </a>
      }
    </nav>
  `,
  styleUrl: './request-tabs.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class RequestTabs {
  readonly active = input.required<RequestTab>();
  /** The active tab's total; null while unknown. */
  readonly total = input<number | null>(null);
  protected readonly tabs = REQUEST_TABS;
}
