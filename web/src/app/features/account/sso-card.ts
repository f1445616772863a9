import {
  ChangeDetectionStrategy,
  Component,
  type OnInit,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { Router } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { UserIdentitiesResponse, UserIdentity } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { Notifier } from '../../core/notifier';
import { browserLocation } from '../../core/session/sso';
import { SiteStore } from '../../core/site/site-store';
import { action } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { SubmitButton } from '../../shared/submit-button';
import { AccountApi } from './account-api';
import { TitledCard } from '../../shared/titled-card';
import { MatCardActions } from '@angular/material/card';

/**
 * Linked sign-ins (docs/sso.md): the identity-provider accounts that open this account, with
 * Link (a trip to the provider and back) and Unlink (refused for the last way to sign in).
 * Shown only while single sign-on is on (a linked sign-in is of no use otherwise).
 */
@Component({
  selector: 'app-sso-card',
  imports: [
    MatCardActions,
    TitledCard,
    MatButton,
    MatIcon,
    TranslocoDirective,
    FormError,
    LocalDatePipe,
    SubmitButton,
  ],
  template: `
    @if (shown()) {
      <app-titled-card
        *transloco="let t"
        data-testid="sso-card"
        [title]="t('accountCenter.sso.title')"
      >
        @for (identity of state()!.data; track identity.id) {
          <div class="identity" data-testid="sso-identity">
            <mat-icon aria-hidden="true" svgIcon="link" />
            <div class="what">
              <span class="issuer">{{ host(identity) }}</span>
              <span class="hint">
                {{ identity.email ?? '' }}
                {{ t('accountCenter.sso.linkedOn', { date: identity.createdAt | localDate }) }}
              </span>
            </div>
            <button
              mat-stroked-button
              type="button"
              [disabled]="busy()"
              (click)="unlink(identity)"
              data-testid="sso-unlink"
            >
              {{ t('accountCenter.sso.unlink') }}
            </button>
          </div>
        } @empty {
          <p class="explain">{{ t('accountCenter.sso.none') }}</p>
        }
        @if (!state()!.passwordLogin || !state()!.hasPassword) {
          <p class="hint">{{ t('accountCenter.sso.noPassword') }}</p>
        }
        <app-form-error [error]="act.error()" testId="sso-card-error" />
        @if (state()!.canLink) {
          <mat-card-actions>
            <app-submit-button type="button" [busy]="busy()" (click)="link()" testId="sso-link">
              {{ t('accountCenter.sso.link') }}
            </app-submit-button>
          </mat-card-actions>
        }
      </app-titled-card>
    }
  `,
  styleUrl: './cards.scss',
  styles: `
    .identity {
      display: flex;
      align-items: center;
      gap: 12px;
      padding: 8px 0;
      border-bottom: 1px solid var(--mat-sys-outline-variant);
    }
    .what {
      display: flex;
      flex-direction: column;
      flex: 1;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    .issuer {
      font: var(--mat-sys-title-small);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SsoCard implements OnInit {
  private readonly api = inject(AccountApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);
  private readonly site = inject(SiteStore).site;
  private readonly router = inject(Router);
  /** Query param `sso` (`linked`) after the trip to the provider. */
  readonly outcome = input<string | undefined>();
  /** Query param `ssoError`: the API error code of a failed link. */
  readonly failure = input<string | undefined>();

  protected readonly state = signal<UserIdentitiesResponse | null>(null);
  protected readonly act = action();
  /** On the way to the provider: the buttons stay off until the page is left. */
  protected readonly leaving = signal(false);
  protected readonly busy = computed(() => this.act.busy() || this.leaving());
  protected readonly shown = computed(() => {
    const state = this.state();
    return state !== null && (state.canLink || state.data.length > 0);
  });

  ngOnInit(): void {
    if (!this.site().sso.enabled) return;
    const failure = this.failure();
    if (failure && /^[A-Z_]{3,40}$/.test(failure)) {
      this.act.fail(new ApiError(400, failure, '', null, undefined));
    } else if (this.outcome() === 'linked') {
      this.notifier.show('accountCenter.sso.linked');
    }
    if (failure || this.outcome()) {
      // Said once: a reload of the page must not announce the link again.
      void this.router.navigate([], {
        queryParams: { sso: null, ssoError: null },
        queryParamsHandling: 'merge',
        replaceUrl: true,
      });
    }
    void this.load();
  }

  /** The provider's host name: what a person recognises ("auth.example.org"). */
  protected host(identity: UserIdentity): string {
    try {
      return new URL(identity.issuer).host;
    } catch {
      return identity.issuer;
    }
  }

  protected async link(): Promise<void> {
    if (this.leaving()) return;
    await this.act.run(async () => {
      const { authorizationUrl } = await this.api.startLink();
      this.leaving.set(true);
      browserLocation.assign(authorizationUrl);
    });
  }

  protected async unlink(identity: UserIdentity): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'accountCenter.sso.unlinkTitle',
      consequenceKeys: ['accountCenter.sso.unlinkConsequence'],
      params: { provider: this.host(identity) },
      confirmKey: 'accountCenter.sso.unlink',
      destructive: true,
    });
    if (!confirmed) return;
    await this.act.run(
      async () => {
        await this.api.unlinkIdentity(identity.id);
        await this.load();
      },
      { done: 'accountCenter.sso.unlinked' },
    );
  }

  private async load(): Promise<void> {
    try {
      this.state.set(await this.api.identities());
    } catch (error) {
      // The list could not be read: the card says why on its error line.
      this.act.fail(error);
    }
  }
}
