import { ChangeDetectionStrategy, Component } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';

/**
 * "Your membership has expired: renew to ask for more" with the way to the renewal page, on the
 * request pages of an expired member (60-web.md §2.4). The page's `.banner` style frames it.
 */
@Component({
  selector: 'app-expired-note',
  imports: [MatButton, MatIcon, RouterLink, TranslocoDirective],
  host: { class: 'banner', role: 'status', 'data-testid': 'expired-note' },
  template: `
    <ng-container *transloco="let t">
      <mat-icon aria-hidden="true" svgIcon="event_busy" />{{ t('requests.expiredNote') }}
      <a mat-button routerLink="/console/renewal">{{ t('requests.renew') }}</a>
    </ng-container>
  `,
  // The paragraph's own margins, which the note had as a <p>.
  styles: `
    :host {
      margin-block: 1em;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ExpiredNote {}
