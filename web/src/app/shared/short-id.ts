import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { Notifier } from '../core/notifier';

/** How many characters of an id a table shows; the whole id is the title and the copy. */
export const SHORT_ID_LENGTH = 8;

/**
 * An id in a table (issue 36: audit ids wrapped one character a line): its first characters on
 * one line in the mono face, the whole id as the title, and a button that copies it.
 */
@Component({
  selector: 'app-short-id',
  imports: [MatIconButton, MatIcon, TranslocoDirective],
  template: `
    <ng-container *transloco="let t">
      <span class="mono" [attr.title]="value()" data-testid="short-id">{{ short() }}</span>
      <button
        mat-icon-button
        type="button"
        class="copy"
        [attr.aria-label]="t('common.copyId', { id: value() })"
        (click)="copy($event)"
        data-testid="copy-id"
      >
        <mat-icon aria-hidden="true" svgIcon="content_copy" />
      </button>
    </ng-container>
  `,
  styles: `
    :host {
      display: inline-flex;
      align-items: center;
      gap: 2px;
      white-space: nowrap;
      max-width: 100%;
    }
    .copy {
      --mat-icon-button-state-layer-size: 32px;
      width: 32px;
      height: 32px;
      padding: 4px;
      flex-shrink: 0;
    }
    .copy mat-icon {
      width: 18px;
      height: 18px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ShortId {
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  readonly value = input.required<string>();
  protected readonly short = computed(() => {
    const id = this.value();
    return id.length > SHORT_ID_LENGTH + 1 ? `${id.slice(0, SHORT_ID_LENGTH)}…` : id;
  });

  protected copy(event: Event): void {
    // A row that opens on a click stays closed: the click was for the copy.
    event.stopPropagation();
    if (this.clipboard.copy(this.value())) this.notifier.show('common.copied');
  }
}
