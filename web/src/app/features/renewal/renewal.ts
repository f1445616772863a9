import type { ElementRef } from '@angular/core';
import type { Redemption } from '@usher/contracts';
import {
  ChangeDetectionStrategy,
  Component,
  Injector,
  afterNextRender,
  computed,
  inject,
  input,
  signal,
  viewChild,
} from '@angular/core';
import {
  FormGroupDirective,
  NonNullableFormBuilder,
  ReactiveFormsModule,
  Validators,
} from '@angular/forms';
import { MatCard, MatCardContent } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import { ApiError, retryAfterSeconds } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { type Action, action } from '../../shared/action';
import { membershipOf } from '../../core/session/membership';
import { SessionStore } from '../../core/session/session-store';
import { FormError } from '../../shared/form-error';
import { PAGE_SIZES, localListPage } from '../../shared/list-page';
import { type Column, DATA_TABLE } from '../../shared/data-table';
import { LocalDatePipe } from '../../shared/local-date';
import { MEMBERSHIP_CHIPS } from '../../shared/membership-view';
import { StatusChip } from '../../shared/status-chip';
import { SubmitButton } from '../../shared/submit-button';
import { CheckoutReturn } from './checkout-return';
import { PaymentHistory } from './payment-history';
import { PlansTab } from './plans-tab';
import { RenewalApi, maskedCode, type RedeemPreview, type RedeemResult } from './renewal-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { RoutedTabGroup, routedTabs } from '../../shared/routed-tabs';

const TABS = ['renew', 'history'] as const;

/** Refusals of a code that the page words itself (20-api.md §5 `POST /me/redeem`). */
export function redeemErrorKey(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'REDEEM_CODE_INVALID') {
    const reason = (error.details as { reason?: unknown } | undefined)?.reason;
    if (reason === 'not_found' || reason === 'expired' || reason === 'exhausted') {
      return `renewal.reason.${reason}`;
    }
  }
  if (error.code === 'REDEEM_CODE_ALREADY_USED') return 'renewal.reason.already_used';
  return null;
}

/**
 * `/console/renewal?tab=redeem|plans|history` (60-web.md §4.2): redeem a code (check → preview →
 * redeem), buy a plan through Stripe Checkout, and the member's payments and redemptions.
 * `?checkout=success|cancelled` is Stripe's return: a panel polls the payment until it lands.
 */
@Component({
  selector: 'app-renewal',
  imports: [
    ReactiveFormsModule,
    MatCard,
    MatCardContent,
    MatIcon,
    MatTab,
    MatTabGroup,
    RoutedTabGroup,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    FormError,
    DATA_TABLE,
    SubmitButton,
    CheckoutReturn,
    PaymentHistory,
    PlansTab,
    ...TEXT_FIELD,
  ],
  templateUrl: './renewal.html',
  styleUrl: './renewal.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Renewal {
  private readonly api = inject(RenewalApi);
  private readonly session = inject(SessionStore);
  private readonly errors = inject(ErrorTexts);
  private readonly transloco = inject(TranslocoService);
  private readonly injector = inject(Injector);
  private readonly codeInput = viewChild<ElementRef<HTMLInputElement>>('codeInput');
  private readonly formDirective = viewChild(FormGroupDirective);

  /** Query param `tab`. */
  readonly tab = input<string | undefined>();
  /** Query param `checkout`: Stripe's return (`success` or `cancelled`). */
  readonly checkout = input<string | undefined>();
  protected readonly tabs = routedTabs(TABS, this.tab, {
    // Old links' `redeem` and `plans`: both open the plans and the code.
    aliases: { redeem: 'renew', plans: 'renew' },
  });

  protected readonly me = this.session.me;
  protected readonly membership = computed(() => {
    const me = this.me();
    return me ? membershipOf(me) : null;
  });
  /** Admins and never-expiring members have nothing to renew (read-only page). */
  protected readonly renewable = computed(() => this.membership()?.state !== 'no_expiry');
  protected readonly chips = MEMBERSHIP_CHIPS;

  protected readonly form = inject(NonNullableFormBuilder).group({
    code: ['', [Validators.required, Validators.maxLength(64)]],
  });
  protected readonly checking = action();
  protected readonly redeeming = action();
  protected readonly preview = signal<{ code: string; preview: RedeemPreview } | null>(null);
  protected readonly result = signal<RedeemResult | null>(null);
  /** The line under the form: the check's or the redemption's refusal. */
  protected readonly error = computed(() => this.checking.error() ?? this.redeeming.error());

  /** The member's redemptions, 10 a page to start with (paging stays out of the URL). */
  protected readonly history = localListPage({
    params: () => null,
    load: (_, page, pageSize) => this.api.redemptions(page, pageSize),
    pageSize: 10,
    pageSizes: PAGE_SIZES,
  });
  protected readonly historyColumns: Column<Redemption>[] = [
    { id: 'date', header: 'renewal.history.date', date: (r) => r.createdAt },
    {
      id: 'code',
      header: 'renewal.history.code',
      cellClass: 'mono',
      text: (r) => maskedCode(r.code),
    },
    {
      id: 'days',
      header: 'renewal.history.days',
      key: (r) => ['renewal.history.plusDays', { days: r.days }],
    },
    { id: 'newExpiry', header: 'renewal.history.newExpiry', date: (r) => r.newExpiresAt },
  ];

  constructor() {
    // A changed code needs a new check before it can be redeemed.
    this.form.controls.code.valueChanges.subscribe(() => this.preview.set(null));
    // Expired members come here to renew: the code field takes focus (60-web.md §2.4).
    afterNextRender(
      () => {
        if (this.me()?.isExpired && this.tabs.index() === 0)
          this.codeInput()?.nativeElement.focus();
      },
      { injector: this.injector },
    );
  }

  protected async check(): Promise<void> {
    const code = this.normalised();
    if (code === null) return;
    this.redeeming.clear();
    this.result.set(null);
    await this.checking.run(
      async () => this.preview.set({ code, preview: await this.api.validate(code) }),
      { handle: (error) => this.explain(this.checking, error) },
    );
  }

  protected async redeem(): Promise<void> {
    const checked = this.preview();
    if (!checked) return;
    this.checking.clear();
    await this.redeeming.run(
      async () => {
        const result = await this.api.redeem(checked.code);
        this.result.set(result);
        this.preview.set(null);
        // resetForm also clears "submitted", so the emptied field shows no "Required" error.
        this.formDirective()?.resetForm();
        this.history.reload();
        await this.session.refreshMe().catch(() => undefined);
      },
      {
        handle: (error) => {
          this.preview.set(null);
          return this.explain(this.redeeming, error);
        },
      },
    );
  }

  private normalised(): string | null {
    const control = this.form.controls.code;
    control.markAsTouched();
    if (control.invalid) return null;
    return control.value.trim().toUpperCase();
  }

  /** A code's refusal in the redeem form's own words; anything else as usual. */
  private explain(act: Action, error: unknown): boolean {
    const key = redeemErrorKey(error);
    if (key) {
      act.show({ message: this.transloco.translate(key), reference: null });
    } else if (error instanceof ApiError && error.code === 'RATE_LIMITED') {
      const seconds = retryAfterSeconds(error) ?? 60;
      act.show({
        message: this.transloco.translate('errors.RATE_LIMITED', { seconds }),
        reference: null,
      });
    } else {
      act.show(this.errors.describe(error));
    }
    return true;
  }
}
