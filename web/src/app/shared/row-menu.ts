import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem, MatMenuTrigger } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';

/** One entry of a row's action menu. */
export interface RowAction {
  icon: string;
  /** Translation key of the label. */
  label: string;
  testId?: string;
  run: () => void;
}

/** The "⋮" menu at the end of a table row: the actions the page offers for that row. */
@Component({
  selector: 'app-row-menu',
  imports: [MatIconButton, MatIcon, MatMenu, MatMenuItem, MatMenuTrigger, TranslocoDirective],
  template: `
    <ng-container *transloco="let t">
      <button
        mat-icon-button
        type="button"
        [matMenuTriggerFor]="menu"
        [attr.aria-label]="label()"
        [attr.data-testid]="testId() ?? null"
      >
        <mat-icon aria-hidden="true" svgIcon="more_vert" />
      </button>
      <mat-menu #menu="matMenu">
        @for (action of actions(); track action.label) {
          <button
            mat-menu-item
            type="button"
            (click)="action.run()"
            [attr.data-testid]="action.testId ?? null"
          >
            <mat-icon aria-hidden="true" [svgIcon]="action.icon" />
            <span>{{ t(action.label) }}</span>
          </button>
        }
      </mat-menu>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class RowMenu {
  /** Already translated: "Actions for bob". */
  readonly label = input.required<string>();
  readonly actions = input.required<readonly RowAction[]>();
  readonly testId = input<string>();
}
