import { ChangeDetectionStrategy, Component, input } from '@angular/core';

/**
 * A console page's header: the page's `h1` with an optional subtitle below it, and the page's own
 * actions (projected) at the other end, wrapping under the heading on a narrow screen.
 */
@Component({
  selector: 'app-page-header',
  template: `
    <header class="page-header" [class.top]="align() === 'start'">
      <div class="heading">
        <h1>{{ title() }}</h1>
        @if (subtitle()) {
          <p>{{ subtitle() }}</p>
        }
      </div>
      <ng-content />
    </header>
  `,
  styles: `
    :host {
      display: block;
    }
    .page-header {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      justify-content: space-between;
      gap: 12px;
      &.top {
        align-items: flex-start;
      }
    }
    h1 {
      margin: 0;
      font: var(--mat-sys-headline-medium);
    }
    p {
      margin: 4px 0 0;
      color: var(--mat-sys-on-surface-variant);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PageHeader {
  /** Already translated. */
  readonly title = input.required<string>();
  /** Already translated; none when empty. */
  readonly subtitle = input('');
  /** Where the actions line up with the heading: its last line (`end`) or its top (`start`). */
  readonly align = input<'start' | 'end'>('end');
}
