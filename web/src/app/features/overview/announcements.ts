import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { MemberAnnouncements } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { apiResource } from '../../core/api/api-resource';
import { checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';

/**
 * The member's unread announcements at the top of the overview (`GET /me/announcements`), each
 * with "Mark as read" (`POST /me/announcements/:id/read`), after which it leaves the list.
 */
@Component({
  selector: 'app-member-announcements',
  imports: [MatButton, MatIcon, TranslocoDirective, FormError, LocalDatePipe],
  template: `
    <ng-container *transloco="let t">
      @if (unread().length) {
        <section
          class="announcements"
          data-testid="member-announcements"
          [attr.aria-label]="t('overview.announcements.heading')"
        >
          @for (a of unread(); track a.id) {
            <article class="announcement" data-testid="member-announcement" [attr.data-id]="a.id">
              <mat-icon class="icon" aria-hidden="true" svgIcon="campaign" />
              <div class="words">
                <h2>{{ a.title }}</h2>
                <p class="date">{{ a.createdAt | localDate }}</p>
                <p class="body">{{ a.body }}</p>
              </div>
              <button
                mat-button
                type="button"
                data-testid="announcement-read"
                [disabled]="marking.busy()"
                (click)="markRead(a.id)"
              >
                {{ t('overview.announcements.markRead') }}
              </button>
            </article>
          }
          <app-form-error [error]="marking.error()" testId="announcement-read-error" />
        </section>
      }
    </ng-container>
  `,
  styles: `
    .announcements {
      display: flex;
      flex-direction: column;
      gap: 8px;
    }
    .announcement {
      display: grid;
      grid-template-columns: auto 1fr auto;
      gap: 12px;
      align-items: start;
      padding: 16px 20px;
      border-radius: 20px;
      background: var(--mat-sys-secondary-container);
      color: var(--mat-sys-on-secondary-container);
    }
    .icon {
      margin-top: 2px;
    }
    h2 {
      margin: 0;
      font: var(--mat-sys-title-medium);
    }
    p {
      margin: 0;
    }
    .date {
      font: var(--mat-sys-body-small);
    }
    .body {
      margin-top: 6px;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    button {
      min-height: 48px;
    }
    @media (max-width: 599.98px) {
      .announcement {
        grid-template-columns: auto 1fr;
      }
      button {
        grid-column: 1 / -1;
        justify-self: end;
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MemberAnnouncementsCard {
  private readonly http = inject(HttpClient);
  /** Whose announcements (reloads for another member); undefined loads nothing. */
  readonly userId = input<string>();
  private readonly list = apiResource({
    params: () => this.userId(),
    load: async (_id, abort) =>
      checkReply(
        'memberAnnouncementsSchema',
        await firstValueFrom(
          this.http.get<MemberAnnouncements>('/api/v1/me/announcements', abortWith(abort)),
        ),
      ),
  });
  /** Marked read in this visit: hidden at once, without reloading the list. */
  private readonly read = signal<ReadonlySet<string>>(new Set());
  protected readonly unread = computed(() =>
    (this.list.value()?.data ?? []).filter((a) => !a.read && !this.read().has(a.id)),
  );
  protected readonly marking = action();

  protected markRead(id: string): Promise<boolean> {
    return this.marking.run(async () => {
      await firstValueFrom(this.http.post(`/api/v1/me/announcements/${id}/read`, null));
      this.read.update((set) => new Set([...set, id]));
    });
  }
}
