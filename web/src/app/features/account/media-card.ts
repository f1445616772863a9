import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminUser } from '@usher/contracts';
import { action } from '../../shared/action';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { confirmAction } from '../../shared/confirm-dialog';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { MEDIA_CHIPS } from '../../shared/membership-view';
import { StatusChip } from '../../shared/status-chip';
import { AccountApi } from './account-api';
import { MediaLinkDialog } from './media-link-dialog';
import { TitledCard } from '../../shared/titled-card';

/**
 * Media-server link (60-web.md §4.2, §2.4): the state, and in plain words why access is off and
 * what the member can do about it — renew when expired, ask an administrator when switched off.
 */
@Component({
  selector: 'app-media-card',
  imports: [
    TitledCard,
    MatButton,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    FormError,
  ],
  template: `
    @if (me(); as me) {
      <app-titled-card
        *transloco="let t"
        data-testid="media-card"
        [title]="t('accountCenter.media.title')"
      >
        <app-status-chip
          data-testid="media-state"
          [tone]="chips[me.media.state].tone"
          [icon]="chips[me.media.state].icon"
          [label]="t(chips[me.media.state].key)"
        />
        @if (me.role === 'admin') {
          <p class="explain" data-testid="media-explain">
            {{
              t(
                me.media.linked
                  ? 'accountCenter.media.adminLinked'
                  : 'accountCenter.media.adminUnlinked'
              )
            }}
          </p>
          <div class="row">
            @if (me.media.linked) {
              <button
                mat-stroked-button
                type="button"
                [disabled]="act.busy()"
                (click)="unlink()"
                data-testid="media-unlink"
              >
                {{ t('accountCenter.media.unlink') }}
              </button>
            } @else {
              <button mat-flat-button type="button" (click)="link()" data-testid="media-link">
                {{ t('accountCenter.media.link') }}
              </button>
            }
          </div>
          <app-form-error [error]="act.error()" [showReference]="false" />
        } @else {
          <p class="explain" data-testid="media-explain">
            {{
              t('accountCenter.media.explain.' + me.media.state, {
                date: me.expiresAt | localDate,
              })
            }}
          </p>
        }
        @if (renewable()) {
          <div class="row">
            <a mat-flat-button routerLink="/console/renewal" data-testid="media-renew">{{
              t('accountCenter.media.renew')
            }}</a>
          </div>
        }
      </app-titled-card>
    }
  `,
  styleUrl: './cards.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaCard {
  private readonly session = inject(SessionStore);
  private readonly dialog = inject(MatDialog);
  private readonly api = inject(AccountApi);
  private readonly notifier = inject(Notifier);
  protected readonly me = this.session.me;
  protected readonly act = action();
  protected readonly chips = MEDIA_CHIPS;
  protected readonly renewable = computed(() => this.me()?.media.state === 'disabled_expired');

  /** Admins: pick an existing media-server account to link (60-web.md §4.2). */
  protected link(): void {
    const ref = this.dialog.open<MediaLinkDialog, void, AdminUser | null>(MediaLinkDialog, {
      maxWidth: '560px',
      width: 'calc(100vw - 32px)',
      autoFocus: 'first-tabbable',
    });
    ref.afterClosed().subscribe((linked) => {
      if (!linked) return;
      this.notifier.show('accountCenter.media.linked');
      void this.session.refreshMe().catch(() => undefined);
    });
  }

  protected async unlink(): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'accountCenter.media.unlinkTitle',
      consequenceKeys: ['accountCenter.media.unlinkConsequence'],
      confirmKey: 'accountCenter.media.unlink',
      destructive: true,
    });
    if (!confirmed) return;
    await this.act.run(async () => {
      await this.api.unbindMediaUser();
      await this.session.refreshMe();
      this.notifier.show('accountCenter.media.unlinked');
    });
  }
}
