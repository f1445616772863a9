import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';

/**
 * An outlined card with a heading (the account page's cards): the title as an `h2`, the
 * projected content in the card's content area, and a projected `<mat-card-actions>` (the
 * caller imports `MatCardActions`) below it. The caller keeps its own `data-testid` on the host.
 */
@Component({
  selector: 'app-titled-card',
  imports: [MatCard, MatCardContent, MatCardHeader, MatCardTitle],
  template: `
    <mat-card appearance="outlined">
      <mat-card-header>
        <mat-card-title
          ><h2>{{ title() }}</h2></mat-card-title
        >
      </mat-card-header>
      <mat-card-content><ng-content /></mat-card-content>
      <ng-content select="mat-card-actions" />
    </mat-card>
  `,
  styles: `
    :host {
      display: block;
    }
    h2 {
      margin: 0;
      font: var(--mat-sys-title-large);
    }
    mat-card-content {
      padding-top: 12px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TitledCard {
  /** Already translated. */
  readonly title = input.required<string>();
}
