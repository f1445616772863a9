import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { MatOption, MatSelect } from '@angular/material/select';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminUser, Role } from '@usher/contracts';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_PATTERN,
} from '@usher/contracts/values';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { Notifier } from '../../core/notifier';
import { PasswordShownOnce } from './password-shown-once';
import { type CreateUserRequest, type UpdateUserRequest, UsersApi } from './users-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { DIALOG_PARTS } from '../../shared/dialog-parts';

export interface UserFormData {
  /** The user being edited; absent when creating. */
  user?: AdminUser;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` in the browser's zone. */
export function dayInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** End of the picked day in the browser's zone, as an ISO instant. */
export function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/** Builds `POST /admin/users`: a member takes exactly one of expiry / never (20-api.md §6). */
export function createBody(v: {
  username: string;
  email: string;
  password: string;
  role: Role;
  neverExpires: boolean;
  expiresOn: string;
  createMediaUser: boolean;
}): CreateUserRequest {
  return {
    username: v.username.trim(),
    role: v.role,
    ...(v.email.trim() ? { email: v.email.trim() } : {}),
    ...(v.password ? { password: v.password } : {}),
    // Administrators never expire and get no media user: they bind an existing one instead.
    ...(v.role === 'user'
      ? {
          ...(v.neverExpires
            ? { neverExpires: true as const }
            : { expiresAt: endOfDay(v.expiresOn) }),
          createMediaUser: v.createMediaUser,
        }
      : {}),
  };
}

/** Create a user (generated password shown once) or edit e-mail, role and expiry. */
@Component({
  selector: 'app-user-form-dialog',
  imports: [
    ReactiveFormsModule,
    MatButton,
    MatCheckbox,
    MatOption,
    MatSelect,
    TranslocoDirective,
    DialogShell,
    PasswordShownOnce,
    ...TEXT_FIELD,
    ...DIALOG_PARTS,
  ],
  templateUrl: './user-form-dialog.html',
  styleUrl: './dialogs.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class UserFormDialog {
  private readonly api = inject(UsersApi);
  private readonly errors = inject(ErrorTexts);
  private readonly notifier = inject(Notifier);
  private readonly ref = inject<MatDialogRef<UserFormDialog, boolean>>(MatDialogRef);
  protected readonly editing = inject<UserFormData>(MAT_DIALOG_DATA).user ?? null;
  protected readonly minLength = PASSWORD_MIN_LENGTH;

  protected readonly form = inject(NonNullableFormBuilder).group({
    username: [
      '',
      this.editing
        ? []
        : [
            Validators.required,
            Validators.minLength(3),
            Validators.maxLength(32),
            Validators.pattern(USERNAME_PATTERN),
          ],
    ],
    email: [this.editing?.email ?? '', [Validators.email, Validators.maxLength(254)]],
    password: [
      '',
      [Validators.minLength(PASSWORD_MIN_LENGTH), Validators.maxLength(PASSWORD_MAX_LENGTH)],
    ],
    role: [(this.editing?.role ?? 'user') as Role],
    neverExpires: [this.editing ? this.editing.expiresAt === null : false],
    expiresOn: [
      dayInput(
        this.editing?.expiresAt
          ? new Date(this.editing.expiresAt)
          : new Date(Date.now() + 30 * DAY_MS),
      ),
      [Validators.required],
    ],
    createMediaUser: [true],
  });
  protected readonly role = toSignal(this.form.controls.role.valueChanges, {
    initialValue: this.form.controls.role.value,
  });
  protected readonly never = toSignal(this.form.controls.neverExpires.valueChanges, {
    initialValue: this.form.controls.neverExpires.value,
  });
  protected readonly save = action();
  /** After creating: the generated password (or '' when one was typed). */
  protected readonly created = signal<{ username: string; password: string | null } | null>(null);

  protected async submit(): Promise<void> {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const value = this.form.getRawValue();
    await this.save.run(
      async () => {
        if (this.editing) {
          await this.api.update(this.editing.id, this.updateBody(value));
          this.notifier.show('adminUsers.saved');
          this.ref.close(true);
        } else {
          const reply = await this.api.create(createBody(value));
          this.created.set({
            username: reply.user.username,
            password: reply.generatedPassword ?? null,
          });
        }
      },
      { handle: (error) => this.showOnField(error) },
    );
  }

  private updateBody(v: Parameters<typeof createBody>[0]): UpdateUserRequest {
    const user = this.editing!;
    const email = v.email.trim() || null;
    const body: UpdateUserRequest = {};
    if (email !== user.email) body.email = email;
    if (v.role !== user.role) body.role = v.role;
    if (v.role === 'user') {
      if (v.neverExpires && user.expiresAt !== null) body.neverExpires = true;
      if (!v.neverExpires) {
        const expiresAt = endOfDay(v.expiresOn);
        const same = user.expiresAt && dayInput(new Date(user.expiresAt)) === v.expiresOn;
        if (!same) body.expiresAt = expiresAt;
      }
    }
    return body;
  }

  /** A name or address already taken shows on its field; anything else on the error line. */
  private showOnField(error: unknown): boolean {
    const field =
      error instanceof ApiError
        ? { USERNAME_TAKEN: 'username', EMAIL_TAKEN: 'email' }[error.code as string]
        : undefined;
    if (field !== 'username' && field !== 'email') return false;
    this.form.controls[field].setErrors({ api: this.errors.describe(error).message });
    return true;
  }
}
