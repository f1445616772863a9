import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatProgressBar } from '@angular/material/progress-bar';
import { TranslocoDirective } from '@jsverse/transloco';
import { type ScanState, scanCovers } from './scan-follower';

/**
 * The running-scan line of a library card and of the report header (60-web.md §5): a
 * determinate bar with the items read while this page follows the scan's run, an
 * indeterminate one while the server only says `scanning` (another admin's scan).
 */
@Component({
  selector: 'app-scan-progress',
  imports: [MatProgressBar, TranslocoDirective],
  template: `
    @if (shown()) {
      <div class="scan" *transloco="let t" data-testid="scan-progress">
        <mat-progress-bar
          [mode]="percent() === null ? 'indeterminate' : 'determinate'"
          [value]="percent() ?? 0"
          [attr.aria-label]="t('quality.scanningLabel', { name: name() })"
        />
        <p class="text" [attr.data-percent]="percent()">
          @if (percent() !== null && scan(); as s) {
            {{
              t('quality.progress', {
                percent: percent(),
                scanned: s.itemsScanned,
                total: s.itemsTotal,
              })
            }}
          } @else {
            {{ t('quality.scanningNow') }}
          }
        </p>
      </div>
    }
  `,
  styles: `
    .scan {
      display: flex;
      flex-direction: column;
      gap: 4px;
    }
    .text {
      margin: 0;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ScanProgress {
  /** The library (or `all`) this line is about. */
  readonly libraryId = input.required<string>();
  /** Its name, for the bar's label. */
  readonly name = input.required<string>();
  /** Whether the server says a scan covers it. */
  readonly scanning = input(false);
  /** The scan this page follows, if any. */
  readonly scan = input<ScanState | null>(null);

  /** Whether the followed scan is this library's (or all of them, or this is the `all` card). */
  private readonly covers = computed(() => scanCovers(this.scan(), this.libraryId()));
  protected readonly shown = computed(() => this.covers() || this.scanning());
  protected readonly percent = computed(() =>
    this.covers() ? (this.scan()?.percent ?? null) : null,
  );
}
