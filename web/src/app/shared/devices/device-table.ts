import { ChangeDetectionStrategy, Component, inject, input, output, signal } from '@angular/core';
import { MatDialog } from '@angular/material/dialog';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Device } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { confirmAction } from '../confirm-dialog';
import { FormError } from '../form-error';
import type { ListPage } from '../list-page';
import { ListView } from '../list-view';
import { LocalDatePipe } from '../local-date';
import { type RowAction, RowMenu } from '../row-menu';
import { StatusChip } from '../status-chip';
import { DevicesApi } from './devices-api';

/**
 * The devices of a list (60-web.md §4.3 "Devices", list tab; the user detail's Devices tab):
 * device, client and version, last user, last activity, IP, the blacklisted chip, and Log out
 * (confirmed). A device the server no longer lists (404 `DEVICE_NOT_FOUND`) is already signed
 * out: the list is told to reload either way.
 */
@Component({
  selector: 'app-device-table',
  imports: [
    TranslocoDirective,
    RouterLink,
    FormError,
    ListView,
    LocalDatePipe,
    RowMenu,
    StatusChip,
  ],
  template: `
    <ng-container *transloco="let t">
      <app-form-error [error]="error()" testId="device-action-error" />
      <app-list-view
        [list]="list()"
        emptyIcon="devices"
        [emptyMessage]="emptyMessage()"
        [testId]="testId()"
      >
        <div class="scroll">
          <table class="list" [attr.data-testid]="testId() + '-table'">
            <thead>
              <tr>
                <th scope="col">{{ t('devices.col.device') }}</th>
                <th scope="col">{{ t('devices.col.client') }}</th>
                @if (showUser()) {
                  <th scope="col">{{ t('devices.col.user') }}</th>
                }
                <th scope="col">{{ t('devices.col.lastActivity') }}</th>
                <th scope="col">{{ t('devices.col.ip') }}</th>
                <th scope="col">{{ t('devices.col.status') }}</th>
                <th scope="col">
                  <span class="visually-hidden">{{ t('common.actions') }}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              @for (row of list().rows(); track row.id) {
                <tr [attr.data-device]="row.id" [attr.data-client]="row.client">
                  <td [attr.data-label]="t('devices.col.device')">
                    <span class="name">{{ row.name }}</span>
                  </td>
                  <td [attr.data-label]="t('devices.col.client')">
                    {{ row.client }}
                    @if (row.appVersion) {
                      <span class="muted">{{ row.appVersion }}</span>
                    }
                  </td>
                  @if (showUser()) {
                    <td [attr.data-label]="t('devices.col.user')">
                      @if (row.lastUser; as user) {
                        @if (user.userId) {
                          <a
                            [routerLink]="['/admin/users', user.userId]"
                            [queryParams]="{ tab: 'devices' }"
                            >{{ user.username ?? user.name }}</a
                          >
                        } @else {
                          {{ user.name }}
                          <span class="muted">{{ t('devices.notMember') }}</span>
                        }
                      } @else {
                        <span class="muted">{{ t('devices.noUser') }}</span>
                      }
                    </td>
                  }
                  <td [attr.data-label]="t('devices.col.lastActivity')">
                    @if (row.lastActivityAt) {
                      <time [attr.datetime]="row.lastActivityAt">{{
                        row.lastActivityAt | localDate: 'dateTime'
                      }}</time>
                    } @else {
                      <span class="muted">{{ t('devices.never') }}</span>
                    }
                  </td>
                  <td class="mono ip" [attr.data-label]="t('devices.col.ip')">
                    {{ row.ip ?? '—' }}
                  </td>
                  <td [attr.data-label]="t('devices.col.status')">
                    @if (row.blacklisted) {
                      <app-status-chip
                        tone="error"
                        icon="block"
                        [label]="t('devices.blacklisted')"
                      />
                    } @else {
                      <app-status-chip
                        tone="success"
                        icon="check_circle"
                        [label]="t('devices.allowed')"
                      />
                    }
                  </td>
                  <td>
                    <app-row-menu
                      [label]="t('devices.actionsFor', { name: row.name })"
                      [actions]="actionsOf(row)"
                      [testId]="'device-menu-' + row.id"
                    />
                  </td>
                </tr>
              }
            </tbody>
          </table>
        </div>
      </app-list-view>
    </ng-container>
  `,
  styleUrl: './device-table.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DeviceTable {
  private readonly api = inject(DevicesApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);

  readonly list = input.required<ListPage<Device>>();
  /** Already translated: the sentence of a list without devices. */
  readonly emptyMessage = input.required<string>();
  /** The last-user column (left out on a user's own Devices tab). */
  readonly showUser = input(true);
  readonly testId = input('devices');
  /** A device was signed out, or was gone already: the owner reloads what depends on it. */
  readonly changed = output();

  protected readonly error = signal<ErrorText | null>(null);

  protected actionsOf(device: Device): RowAction[] {
    return [
      {
        icon: 'logout',
        label: 'devices.logout',
        testId: 'device-logout',
        run: () => void this.logout(device),
      },
    ];
  }

  protected async logout(device: Device): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'devices.logoutTitle',
      consequenceKeys: ['devices.logoutConsequence', 'devices.logoutAgain'],
      params: { name: device.name, client: device.client },
      confirmKey: 'devices.logout',
      destructive: true,
    });
    if (!confirmed) return;
    this.error.set(null);
    try {
      await this.api.logout(device);
      this.notifier.show('devices.loggedOut', { name: device.name });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'DEVICE_NOT_FOUND') {
        this.notifier.show('devices.alreadyGone', { name: device.name });
      } else {
        this.error.set(this.errors.describe(error));
      }
    }
    this.list().reload();
    this.changed.emit();
  }
}
