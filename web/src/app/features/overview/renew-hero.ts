import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { User } from '@usher/contracts';
import { membershipOf } from '../../core/session/membership';
import { LocalDatePipe } from '../../shared/local-date';

/** The overview offers Renew this long before the end (docs/lifecycle.md, issue 29). */
export const RENEW_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;

/** What the hero says: nothing, the days left before the end, or that it has ended. */
export type RenewHeroState =
  | { kind: 'expiring'; daysLeft: number; expiresAt: Date }
  | { kind: 'expired'; expiresAt: Date }
  | null;

/** The hero for a member: from 14 days before the end, and after it. */
export function renewHeroState(user: User, now: Date = new Date()): RenewHeroState {
  const m = membershipOf(user, now);
  if (m.state === 'expired' && m.expiresAt) return { kind: 'expired', expiresAt: m.expiresAt };
  if (m.state !== 'active' || !m.expiresAt) return null;
  const left = m.expiresAt.getTime() - now.getTime();
  if (left > RENEW_WINDOW_DAYS * DAY_MS) return null;
  // Whole days, rounded up as the reminders count them ({daysLeft}): 30 hours left is 2 days.
  return {
    kind: 'expiring',
    daysLeft: Math.max(1, Math.ceil(left / DAY_MS)),
    expiresAt: m.expiresAt,
  };
}

/**
 * The top of the member's overview (issue 29): the days left with **Renew** from 14 days
 * before the end, and after it the one "your membership ended" banner with the one Renew —
 * the shell leaves its expired banner out on the overview, so the page never shows two.
 */
@Component({
  selector: 'app-renew-hero',
  imports: [MatButton, MatIcon, RouterLink, TranslocoDirective, LocalDatePipe],
  template: `
    <ng-container *transloco="let t">
      @if (state(); as s) {
        <section
          class="hero"
          [class.expired]="s.kind === 'expired'"
          data-testid="renew-hero"
          [attr.data-state]="s.kind"
          [attr.aria-labelledby]="'renew-hero-title'"
        >
          @if (s.kind === 'expiring') {
            <div class="count" aria-hidden="true">
              <span class="number">{{ s.daysLeft }}</span>
              <span class="unit">{{ t('overview.hero.unit', { n: s.daysLeft }) }}</span>
            </div>
            <div class="words">
              <h2 id="renew-hero-title" data-testid="renew-hero-title">
                {{ t('overview.hero.expiring', { n: s.daysLeft }) }}
              </h2>
              <p>{{ t('overview.hero.expiringText', { date: s.expiresAt | localDate }) }}</p>
            </div>
          } @else {
            <mat-icon class="icon" aria-hidden="true" svgIcon="error" />
            <div class="words">
              <h2 id="renew-hero-title" data-testid="renew-hero-title">
                {{ t('overview.hero.expired') }}
              </h2>
              <p>{{ t('overview.hero.expiredText', { date: s.expiresAt | localDate }) }}</p>
            </div>
          }
          <a
            mat-flat-button
            class="renew"
            routerLink="/console/renewal"
            [queryParams]="{ from: 'overview' }"
            data-testid="hero-renew"
          >
            <mat-icon aria-hidden="true" svgIcon="autorenew" />{{ t('overview.renew') }}
          </a>
        </section>
      }
    </ng-container>
  `,
  styleUrl: './renew-hero.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class RenewHero {
  readonly me = input.required<User>();
  protected readonly state = computed(() => renewHeroState(this.me()));
}
