import { Injectable, inject } from '@angular/core';
import { MatDialog } from '@angular/material/dialog';
import type { AdminUser } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { Notifier } from '../../core/notifier';
import { confirmAction } from '../../shared/confirm-dialog';
import { DaysDialog, type DaysDialogData } from './days-dialog';
import { type MediaSyncChoice, MediaSyncDialog } from './media-sync-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { UserFormDialog, type UserFormData } from './user-form-dialog';
import { UsersApi } from './users-api';

const DIALOG = { maxWidth: '560px', width: 'calc(100vw - 32px)', autoFocus: 'first-tabbable' };

/**
 * One admin action on one user, dialog included, shared by the list and the detail page.
 * Each resolves to whether something changed; API refusals are thrown for the page to show
 * inline (`LAST_ADMIN`, `CANNOT_MODIFY_SELF`…).
 */
@Injectable({ providedIn: 'root' })
export class UserActions {
  private readonly api = inject(UsersApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);

  async create(): Promise<boolean> {
    return this.openForm({});
  }

  async edit(user: AdminUser): Promise<boolean> {
    return this.openForm({ user });
  }

  async extend(user: AdminUser): Promise<boolean> {
    const days = await this.askDays({
      titleKey: 'adminUsers.extendTitle',
      params: { name: user.username },
    });
    if (!days) return false;
    const reply = await this.api.extend(user.id, days);
    this.notifier.show(`adminUsers.extended.${reply.mediaSync}`, { name: user.username, days });
    return true;
  }

  async setActive(user: AdminUser, isActive: boolean): Promise<boolean> {
    if (!isActive) {
      const confirmed = await confirmAction(this.dialog, {
        titleKey: 'adminUsers.deactivateTitle',
        consequenceKeys: ['adminUsers.deactivateConsequence'],
        params: { name: user.username },
        confirmKey: 'adminUsers.deactivate',
        destructive: true,
      });
      if (!confirmed) return false;
    }
    await this.api.setActive(user.id, isActive);
    this.notifier.show(isActive ? 'adminUsers.activated' : 'adminUsers.deactivated', {
      name: user.username,
    });
    return true;
  }

  async setMediaAccess(user: AdminUser, enabled: boolean): Promise<boolean> {
    const reply = await this.api.setMediaAccess(user.id, enabled);
    this.notifier.show(`adminUsers.media.${enabled ? 'on' : 'off'}.${reply.mediaSync}`, {
      name: user.username,
    });
    return true;
  }

  async syncMedia(user: AdminUser): Promise<boolean> {
    const ref = this.dialog.open<MediaSyncDialog, AdminUser, MediaSyncChoice>(MediaSyncDialog, {
      ...DIALOG,
      data: user,
    });
    const choice = await firstValueFrom(ref.afterClosed());
    if (!choice) return false;
    const reply = await this.api.mediaSync(user.id, choice.policy);
    this.notifier.show(`adminUsers.synced.${reply.mediaSync}`, { name: user.username });
    return true;
  }

  async resetPassword(user: AdminUser): Promise<boolean> {
    const ref = this.dialog.open<ResetPasswordDialog, AdminUser, boolean>(ResetPasswordDialog, {
      ...DIALOG,
      data: user,
    });
    return (await firstValueFrom(ref.afterClosed())) === true;
  }

  async remove(user: AdminUser): Promise<boolean> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'adminUsers.deleteTitle',
      consequenceKeys: ['adminUsers.deleteConsequence', 'adminUsers.deleteMedia'],
      params: { name: user.username },
      confirmKey: 'adminUsers.delete',
      destructive: true,
      typeToConfirm: user.username,
    });
    if (!confirmed) return false;
    const reply = await this.api.remove(user.id);
    this.notifier.show(`adminUsers.deleted.${reply.mediaCleanup}`, { name: user.username });
    return true;
  }

  askDays(data: DaysDialogData): Promise<number | undefined> {
    const ref = this.dialog.open<DaysDialog, DaysDialogData, number>(DaysDialog, {
      ...DIALOG,
      data,
    });
    return firstValueFrom(ref.afterClosed());
  }

  private async openForm(data: UserFormData): Promise<boolean> {
    const ref = this.dialog.open<UserFormDialog, UserFormData, boolean>(UserFormDialog, {
      ...DIALOG,
      data,
    });
    // Closed with Escape after a user was created still changed the list: only Cancel did not.
    return (await firstValueFrom(ref.afterClosed())) !== false;
  }
}
