import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule } from '@angular/forms';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { MatRadioButton, MatRadioGroup } from '@angular/material/radio';
import { TranslocoDirective } from '@jsverse/transloco';
import type { SharingEvent } from '@usher/contracts';
import { SHARING_ACTIONS, type SharingActionName } from '@usher/contracts/values';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { SharingApi } from '../../shared/sharing/sharing-api';

/** Confirms an open sharing event with an action (docs/sharing.md): closes with the event. */
@Component({
  selector: 'app-sharing-act-dialog',
  imports: [ReactiveFormsModule, MatRadioButton, MatRadioGroup, TranslocoDirective, DialogShell],
  template: `
    <ng-container *transloco="let t">
      <form [formGroup]="form" (ngSubmit)="save()" novalidate>
        <app-dialog-shell
          [title]="t('sharing.act.title', { user: data.user.username })"
          [submitLabel]="t('sharing.act.submit')"
          submitTestId="sharing-act-submit"
          [action]="acting"
        >
          <p>{{ t('sharing.act.intro', { n: offending }) }}</p>
          <mat-radio-group
            formControlName="action"
            class="choices"
            [attr.aria-label]="t('sharing.act.choose')"
          >
            @for (choice of actions; track choice) {
              <mat-radio-button [value]="choice" [attr.data-testid]="'sharing-act-' + choice">
                <strong>{{ t('sharing.actions.' + choice) }}</strong>
                <span class="hint">{{ t('sharing.actionHints.' + choice) }}</span>
              </mat-radio-button>
            }
          </mat-radio-group>
        </app-dialog-shell>
      </form>
    </ng-container>
  `,
  styles: `
    .choices {
      display: flex;
      flex-direction: column;
      gap: 4px;
    }
    .hint {
      display: block;
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-small);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SharingActDialog {
  private readonly api = inject(SharingApi);
  private readonly ref = inject<MatDialogRef<SharingActDialog, SharingEvent>>(MatDialogRef);
  protected readonly data = inject<SharingEvent>(MAT_DIALOG_DATA);
  protected readonly actions = SHARING_ACTIONS;
  protected readonly offending = this.data.evidence.sessions.filter((s) => s.offending).length;
  protected readonly form = inject(NonNullableFormBuilder).group({
    action: [(this.data.action === 'notify' ? 'stop' : this.data.action) as SharingActionName],
  });
  protected readonly acting = action();

  protected async save(): Promise<void> {
    await this.acting.run(async () => {
      this.ref.close(await this.api.act(this.data.id, this.form.getRawValue().action));
    });
  }
}
