import {
  ChangeDetectionStrategy,
  Component,
  Injectable,
  effect,
  inject,
  input,
} from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { MatButton } from '@angular/material/button';
import { MatPaginator, MatPaginatorIntl } from '@angular/material/paginator';
import { MatProgressBar } from '@angular/material/progress-bar';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { ListPage } from './list-page';
import { EmptyState, ErrorState } from './page-state';

/** The paginator's words in the active language (60-web.md §6.4). */
@Injectable()
export class TranslatedPaginatorIntl extends MatPaginatorIntl {
  private readonly transloco = inject(TranslocoService);

  constructor() {
    super();
    this.transloco.langChanges$.pipe(takeUntilDestroyed()).subscribe(() => {
      const t = (key: string) => this.transloco.translate(`common.paginator.${key}`);
      this.itemsPerPageLabel = t('itemsPerPage');
      this.nextPageLabel = t('next');
      this.previousPageLabel = t('previous');
      this.firstPageLabel = t('first');
      this.lastPageLabel = t('last');
      this.changes.next();
    });
  }

  /** Set by the list: the API stopped counting at `length` ("of 10,000+"). */
  capped = false;

  override getRangeLabel = (page: number, pageSize: number, length: number): string => {
    const start = length === 0 ? 0 : page * pageSize + 1;
    const end = Math.min((page + 1) * pageSize, length);
    const key = this.capped ? 'rangeCapped' : 'range';
    const n = new Intl.NumberFormat(this.transloco.getActiveLang());
    return this.transloco.translate(`common.paginator.${key}`, {
      start: n.format(start),
      end: n.format(end),
      length: n.format(length),
    });
  };
}

/**
 * The body of a list (60-web.md §1 "Page state conventions"): the error with Retry, a skeleton
 * until the first rows arrive, the empty state — "no results" with Clear filters when a filter
 * narrows the list — or the projected rows with a bar while they reload and one paginator.
 * Content marked `emptyAction` is the main action of an unfiltered empty list.
 */
@Component({
  selector: 'app-list-view',
  imports: [MatButton, MatPaginator, MatProgressBar, TranslocoDirective, EmptyState, ErrorState],
  providers: [{ provide: MatPaginatorIntl, useClass: TranslatedPaginatorIntl }],
  template: `
    <ng-container *transloco="let t">
      @if (list().error(); as error) {
        <app-error-state
          [error]="error"
          (retry)="list().reload()"
          [attr.data-testid]="testId() ? testId() + '-error' : null"
        />
      } @else if (list().rows() === null) {
        <div class="skeleton" aria-busy="true" [attr.aria-label]="t('common.loading')"></div>
      } @else if (list().rows()!.length === 0) {
        <app-empty-state
          [icon]="emptyIcon()"
          [message]="
            list().filtered() ? (filteredMessage() ?? t('common.noResults')) : emptyMessage()
          "
          [attr.data-testid]="testId() ? testId() + '-empty' : null"
        >
          @if (list().filtered()) {
            <button mat-stroked-button type="button" (click)="list().clearFilters()">
              {{ clearLabel() ?? t('common.clearFilters') }}
            </button>
          } @else {
            <ng-content select="[emptyAction]" />
          }
        </app-empty-state>
      } @else {
        @if (list().loading()) {
          <mat-progress-bar mode="indeterminate" [attr.aria-label]="t('common.loading')" />
        }
        <ng-content />
        <mat-paginator
          [length]="list().total()"
          [pageIndex]="list().pageIndex()"
          [pageSize]="list().pageSize()"
          [pageSizeOptions]="list().pageSizes"
          [hidePageSize]="list().pageSizes.length === 0"
          (page)="list().changePage($event)"
        />
      }
    </ng-container>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 16px;
    }
    .skeleton {
      height: 160px;
      border-radius: 12px;
      background: var(--mat-sys-surface-container-high);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ListView {
  readonly list = input.required<ListPage<unknown>>();
  /** Already translated: the sentence of an empty list nobody filtered. */
  readonly emptyMessage = input.required<string>();
  readonly emptyIcon = input('inbox');
  /** Already translated; "No results for these filters." by default. */
  readonly filteredMessage = input<string>();
  /** Already translated; "Clear filters" by default. */
  readonly clearLabel = input<string>();
  /** Prefix of `data-testid` on the error (`-error`) and empty (`-empty`) states. */
  readonly testId = input<string>();

  constructor() {
    // This view's own paginator words (provided above): "of 10,000+" while the count is capped.
    const intl = inject(MatPaginatorIntl) as TranslatedPaginatorIntl;
    effect(() => {
      const capped = this.list().totalCapped();
      if (intl.capped === capped) return;
      intl.capped = capped;
      intl.changes.next();
    });
  }
}
