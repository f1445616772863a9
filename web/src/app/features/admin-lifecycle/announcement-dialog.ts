import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatCheckbox } from '@angular/material/checkbox';
import { MatDialogRef } from '@angular/material/dialog';
import { MatOption, MatSelect } from '@angular/material/select';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AnnouncementCreated } from '@usher/contracts';
import {
  ANNOUNCEMENT_AUDIENCES,
  ANNOUNCEMENT_CHANNELS,
  type AnnouncementAudience,
} from '@usher/contracts/values';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { TEXT_FIELD } from '../../shared/form-field';
import { LifecycleApi } from './lifecycle-api';

/**
 * "New announcement" (docs/lifecycle.md "Announcements"): title, plain-text body, audience, and
 * the channels besides the console. Closes with the API's `{id, recipients}` once posted.
 */
@Component({
  selector: 'app-announcement-dialog',
  imports: [
    ReactiveFormsModule,
    MatCheckbox,
    MatOption,
    MatSelect,
    TranslocoDirective,
    DialogShell,
    ...TEXT_FIELD,
  ],
  template: `
    <form *transloco="let t" [formGroup]="form" (ngSubmit)="submit()" novalidate>
      <app-dialog-shell
        [title]="t('lifecycle.announce.title')"
        [submitLabel]="t('lifecycle.announce.send')"
        submitTestId="announce-send"
        [action]="posting"
        errorTestId="announce-error"
      >
        <mat-form-field appearance="outline">
          <mat-label>{{ t('lifecycle.announce.heading') }}</mat-label>
          <input matInput formControlName="title" maxlength="120" data-testid="announce-title" />
          @if (form.controls.title.invalid) {
            <mat-error>{{ t('validation.required') }}</mat-error>
          }
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t('lifecycle.announce.body') }}</mat-label>
          <textarea
            matInput
            rows="6"
            formControlName="body"
            maxlength="3000"
            data-testid="announce-body"
          ></textarea>
          <mat-hint align="end">{{ form.controls.body.value.length }} / 3000</mat-hint>
          @if (form.controls.body.invalid) {
            <mat-error>{{ t('validation.required') }}</mat-error>
          }
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t('lifecycle.announce.audience') }}</mat-label>
          <mat-select formControlName="audience" data-testid="announce-audience">
            @for (a of audiences; track a) {
              <mat-option [value]="a">{{ t('lifecycle.audience.' + a) }}</mat-option>
            }
          </mat-select>
          <mat-hint>{{ t('lifecycle.audienceHint.' + form.controls.audience.value) }}</mat-hint>
        </mat-form-field>
        <fieldset class="channels">
          <legend>{{ t('lifecycle.announce.channels') }}</legend>
          <p class="note">{{ t('lifecycle.announce.console') }}</p>
          @for (c of channels; track c) {
            <mat-checkbox
              [checked]="form.controls.channels.value.includes(c)"
              (change)="toggle(c, $event.checked)"
              [attr.data-testid]="'announce-channel-' + c"
              >{{ t('notices.channel.' + c) }}</mat-checkbox
            >
          }
        </fieldset>
      </app-dialog-shell>
    </form>
  `,
  styles: `
    .channels {
      border: 0;
      margin: 8px 0 0;
      padding: 0;
      display: flex;
      flex-wrap: wrap;
      gap: 0 16px;
    }
    legend {
      font: var(--mat-sys-label-large);
      padding: 0;
    }
    .note {
      width: 100%;
      margin: 4px 0;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AnnouncementDialog {
  private readonly api = inject(LifecycleApi);
  private readonly ref =
    inject<MatDialogRef<AnnouncementDialog, AnnouncementCreated>>(MatDialogRef);
  protected readonly audiences = ANNOUNCEMENT_AUDIENCES;
  protected readonly channels = ANNOUNCEMENT_CHANNELS;
  protected readonly form = inject(NonNullableFormBuilder).group({
    title: ['', [Validators.required, Validators.maxLength(120)]],
    body: ['', [Validators.required, Validators.maxLength(3000)]],
    audience: ['active' as AnnouncementAudience],
    channels: [[] as ('email' | 'messenger')[]],
  });
  protected readonly posting = action();

  protected toggle(channel: 'email' | 'messenger', on: boolean): void {
    const current = this.form.controls.channels.value.filter((c) => c !== channel);
    this.form.controls.channels.setValue(on ? [...current, channel] : current);
  }

  protected async submit(): Promise<void> {
    this.form.markAllAsTouched();
    const value = this.form.getRawValue();
    if (this.form.invalid || !value.title.trim() || !value.body.trim()) return;
    await this.posting.run(async () => {
      const created = await this.api.announce({
        title: value.title.trim(),
        body: value.body.trim(),
        audience: value.audience,
        channels: ANNOUNCEMENT_CHANNELS.filter((c) => value.channels.includes(c)),
      });
      this.ref.close(created);
    });
  }
}
