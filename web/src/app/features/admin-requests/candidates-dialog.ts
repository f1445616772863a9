import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { MatProgressBar } from '@angular/material/progress-bar';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminMediaRequest, AutomationCandidate } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { LocalDatePipe } from '../../shared/local-date';
import { TitleBackdrop } from '../../shared/requests/title-backdrop';
import { AdminRequestsApi } from './admin-requests-api';
import { numberFormat } from '../../core/i18n/intl';
import { TEXT_FIELD } from '../../shared/form-field';
import { DIALOG_PARTS } from '../../shared/dialog-parts';

/** How the dialog ended: sent a candidate, learned search is unsupported, or nothing. */
export type CandidatesOutcome = 'sent' | 'unsupported' | undefined;

/** Size in GB/MB with one decimal, in the active language's number format. */
export function formatSize(bytes: number | null, lang: string): string | null {
  if (bytes === null) return null;
  const gb = bytes / 1024 ** 3;
  const format = numberFormat(lang, { maximumFractionDigits: 1 });
  return gb >= 1 ? `${format.format(gb)} GB` : `${format.format(bytes / 1024 ** 2)} MB`;
}

/**
 * "Search candidates" (60-web.md §4.3, MoviePilot only): searches the indexers for an approved
 * request (asking for the season of a whole-series request) and sends the chosen candidate.
 */
@Component({
  selector: 'app-candidates-dialog',
  imports: [
    MatButton,
    MatProgressBar,
    TranslocoDirective,
    LocalDatePipe,
    TitleBackdrop,
    ...TEXT_FIELD,
    ...DIALOG_PARTS,
  ],
  template: `
    <ng-container *transloco="let t; currentLang as lang">
      <app-title-backdrop [art]="request" />
      <h2 mat-dialog-title>{{ t('adminRequests.candidates.title', { name: request.name }) }}</h2>
      <mat-dialog-content>
        @if (needsSeason) {
          <div class="season">
            <mat-form-field appearance="outline" subscriptSizing="dynamic">
              <mat-label>{{ t('adminRequests.candidates.season') }}</mat-label>
              <input
                matInput
                type="number"
                min="1"
                max="200"
                [value]="season()"
                (input)="season.set(+$any($event.target).value)"
                data-testid="candidates-season"
              />
              <mat-hint>{{ t('adminRequests.candidates.seasonHint') }}</mat-hint>
            </mat-form-field>
            <button
              mat-stroked-button
              type="button"
              (click)="search()"
              [disabled]="act.busy() || !seasonValid()"
            >
              {{ t('adminRequests.candidates.search') }}
            </button>
          </div>
        } @else if (candidates() === null && !act.busy()) {
          <button
            mat-stroked-button
            type="button"
            (click)="search()"
            data-testid="candidates-search"
          >
            {{ t('adminRequests.candidates.search') }}
          </button>
        }
        @if (act.busy()) {
          <mat-progress-bar
            mode="indeterminate"
            [attr.aria-label]="t('adminRequests.candidates.searching')"
          />
        }
        <div role="alert">
          @if (act.error(); as error) {
            <p class="error" data-testid="candidates-error">{{ error.message }}</p>
          }
        </div>
        @if (candidates(); as list) {
          @if (list.length === 0) {
            <p data-testid="candidates-empty">{{ t('adminRequests.candidates.none') }}</p>
          } @else {
            <ul class="list">
              @for (c of list; track c.index) {
                <li [attr.data-testid]="'candidate-' + c.index">
                  <span class="title">{{ c.title }}</span>
                  <span class="meta">
                    {{ c.site }}
                    @if (size(c, lang); as s) {
                      · {{ s }}
                    }
                    @if (c.seeders !== null) {
                      · {{ t('adminRequests.candidates.seeders', { n: c.seeders }) }}
                    }
                    @if (c.publishedAt) {
                      · {{ c.publishedAt | localDate }}
                    }
                  </span>
                  <button mat-flat-button type="button" (click)="send(c)" [disabled]="act.busy()">
                    {{ t('adminRequests.candidates.send') }}
                  </button>
                </li>
              }
            </ul>
          }
        }
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" [mat-dialog-close]="undefined">
          {{ t('requests.dialog.back') }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  styles: `
    .season {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 12px;
      margin: 8px 0 16px;
    }
    .list {
      display: flex;
      flex-direction: column;
      gap: 8px;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li {
      display: grid;
      grid-template-columns: 1fr auto;
      gap: 4px 12px;
      align-items: center;
      padding: 8px 0;
      border-bottom: 1px solid var(--mat-sys-outline-variant);
    }
    .title {
      overflow-wrap: anywhere;
      font: var(--mat-sys-title-small);
    }
    .meta {
      grid-column: 1;
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-small);
    }
    li button {
      grid-row: 1 / span 2;
      grid-column: 2;
    }
    .error {
      padding: 8px 12px;
      border-radius: 8px;
      background: var(--mat-sys-error-container);
      color: var(--mat-sys-on-error-container);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class CandidatesDialog {
  private readonly api = inject(AdminRequestsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly ref = inject<MatDialogRef<CandidatesDialog, CandidatesOutcome>>(MatDialogRef);
  protected readonly request = inject<AdminMediaRequest>(MAT_DIALOG_DATA);
  /** A whole-series request is searched one season at a time. */
  protected readonly needsSeason = this.request.type === 'TV' && this.request.season === 0;
  protected readonly season = signal(1);
  protected readonly seasonValid = computed(
    () => Number.isInteger(this.season()) && this.season() >= 1 && this.season() <= 200,
  );
  protected readonly act = action();
  protected readonly candidates = signal<AutomationCandidate[] | null>(null);

  constructor() {
    if (!this.needsSeason) void this.search();
  }

  protected size(candidate: AutomationCandidate, lang: string): string | null {
    return formatSize(candidate.sizeBytes, lang);
  }

  protected async search(): Promise<void> {
    await this.act.run(
      async () => {
        const reply = await this.api.searchCandidates(
          this.request.id,
          this.needsSeason ? this.season() : null,
        );
        this.candidates.set(reply.candidates);
      },
      {
        handle: (error) => {
          if (error instanceof ApiError && error.code === 'NOT_SUPPORTED') {
            this.ref.close('unsupported');
            return true;
          }
          this.act.show(this.errors.describe(error));
          return true;
        },
      },
    );
  }

  protected async send(candidate: AutomationCandidate): Promise<void> {
    await this.act.run(
      async () => {
        await this.api.dispatchCandidate(this.request.id, candidate.index);
        this.ref.close('sent');
      },
      {
        handle: (error) => {
          // 404 CANDIDATE_NOT_FOUND: the stored search is gone or stale — its message says so.
          if (error instanceof ApiError && error.code === 'CANDIDATE_NOT_FOUND')
            this.candidates.set(null);
          this.act.show(this.errors.describe(error));
          return true;
        },
      },
    );
  }
}
