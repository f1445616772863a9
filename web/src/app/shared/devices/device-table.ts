import { ChangeDetectionStrategy, Component, computed, inject, input, output } from '@angular/core';
import { MatDialog } from '@angular/material/dialog';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Device } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { Notifier } from '../../core/notifier';
import { action } from '../action';
import { confirmAction } from '../confirm-dialog';
import { type Column, DATA_TABLE } from '../data-table';
import { FormError } from '../form-error';
import type { ListPage } from '../list-page';
import { LocalDatePipe } from '../local-date';
import { type RowAction } from '../row-menu';
import { StatusChip } from '../status-chip';
import { DevicesApi } from './devices-api';
import { menuColumn } from '../data-table-columns';

/**
 * The devices of a list (60-web.md §4.3 "Devices", list tab; the user detail's Devices tab):
 * device, client and version, last user, last activity, IP, the blacklisted chip, and Log out
 * (confirmed). A device the server no longer lists (404 `DEVICE_NOT_FOUND`) is already signed
 * out: the list is told to reload either way.
 */
@Component({
  selector: 'app-device-table',
  imports: [TranslocoDirective, RouterLink, FormError, DATA_TABLE, LocalDatePipe, StatusChip],
  template: `
    <ng-container *transloco="let t">
      <app-form-error [error]="logoutAction.error()" testId="device-action-error" />
      <app-data-table
        [list]="list()"
        [columns]="columns()"
        [rowAttrs]="attrs"
        emptyIcon="devices"
        [emptyMessage]="emptyMessage()"
        [testId]="testId()"
      >
        <ng-template appCell="device" [appCellOf]="list()" let-row>
          <span class="name">{{ row.name }}</span>
        </ng-template>
        <ng-template appCell="client" [appCellOf]="list()" let-row>
          {{ row.client }}
          @if (row.appVersion) {
            <span class="muted">{{ row.appVersion }}</span>
          }
        </ng-template>
        <ng-template appCell="user" [appCellOf]="list()" let-row>
          @if (row.lastUser; as user) {
            @if (user.userId) {
              <a [routerLink]="['/admin/users', user.userId]" [queryParams]="{ tab: 'devices' }">{{
                user.username ?? user.name
              }}</a>
            } @else {
              {{ user.name }}
              <span class="muted">{{ t('devices.notMember') }}</span>
            }
          } @else {
            <span class="muted">{{ t('devices.noUser') }}</span>
          }
        </ng-template>
        <ng-template appCell="lastActivity" [appCellOf]="list()" let-row>
          @if (row.lastActivityAt) {
            <time [attr.datetime]="row.lastActivityAt">{{
              row.lastActivityAt | localDate: 'dateTime'
            }}</time>
          } @else {
            <span class="muted">{{ t('devices.never') }}</span>
          }
        </ng-template>
        <ng-template appCell="ip" [appCellOf]="list()" let-row>
          <span class="ip">{{ row.ip ?? '—' }}</span>
        </ng-template>
        <ng-template appCell="status" [appCellOf]="list()" let-row>
          @if (row.blacklisted) {
            <app-status-chip tone="error" icon="block" [label]="t('devices.blacklisted')" />
          } @else {
            <app-status-chip tone="success" icon="check_circle" [label]="t('devices.allowed')" />
          }
        </ng-template>
      </app-data-table>
    </ng-container>
  `,
  styleUrl: './device-table.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DeviceTable {
  private readonly api = inject(DevicesApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);

  readonly list = input.required<ListPage<Device>>();
  /** Already translated: the sentence of a list without devices. */
  readonly emptyMessage = input.required<string>();
  /** The last-user column (left out on a user's own Devices tab). */
  readonly showUser = input(true);
  readonly testId = input('devices');
  /** A device was signed out, or was gone already: the owner reloads what depends on it. */
  readonly changed = output();

  protected readonly logoutAction = action();
  protected readonly columns = computed<Column<Device>[]>(() => [
    { id: 'device', header: 'devices.col.device' },
    { id: 'client', header: 'devices.col.client' },
    ...(this.showUser() ? [{ id: 'user', header: 'devices.col.user' }] : []),
    { id: 'lastActivity', header: 'devices.col.lastActivity' },
    { id: 'ip', header: 'devices.col.ip', cellClass: 'mono' },
    { id: 'status', header: 'devices.col.status' },
    menuColumn<Device>(
      (d) => ({
        label: 'devices.actionsFor',
        params: { name: d.name },
        actions: this.actionsOf(d),
        testId: `device-menu-${d.id}`,
      }),
      { width: undefined },
    ),
  ]);
  protected readonly attrs = (device: Device) => ({
    'data-device': device.id,
    'data-client': device.client,
  });

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
    await this.logoutAction.run(() => this.api.logout(device), {
      done: 'devices.loggedOut',
      params: { name: device.name },
      handle: (error) => {
        const gone = error instanceof ApiError && error.code === 'DEVICE_NOT_FOUND';
        if (gone) this.notifier.show('devices.alreadyGone', { name: device.name });
        return gone;
      },
    });
    this.list().reload();
    this.changed.emit();
  }
}
