import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatDialog, MatDialogRef } from '@angular/material/dialog';
import { NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestApp } from '../../testing/providers';
import { ApiError } from '../core/api/api-error';
import { action } from './action';
import { DialogShell } from './dialog-shell';

/** A one-button form dialog as the feature dialogs build them. */
@Component({
  imports: [DialogShell],
  template: `
    <form (submit)="save($event)" novalidate>
      <app-dialog-shell
        title="Rename"
        submitLabel="Save"
        submitTestId="save"
        errorTestId="rename-error"
        [action]="saving"
      >
        <p data-testid="field">the fields</p>
      </app-dialog-shell>
    </form>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class RenameDialog {
  private readonly ref = inject<MatDialogRef<RenameDialog, boolean>>(MatDialogRef);
  readonly saving = action();
  work: () => Promise<void> = () => Promise.resolve();

  async save(event: Event): Promise<void> {
    event.preventDefault();
    if (await this.saving.run(() => this.work())) this.ref.close(true);
  }
}

describe('DialogShell', () => {
  let dialog: MatDialog;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    dialog = TestBed.inject(MatDialog);
  });
  afterEach(() => dialog.closeAll());

  const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  it('should frame the fields with the title, Cancel and a submit button that submits the form', async () => {
    const ref = dialog.open(RenameDialog);
    const closed = jest.fn();
    ref.afterClosed().subscribe(closed);
    await new Promise((resolve) => setTimeout(resolve, 0));
    ref.componentRef!.changeDetectorRef.detectChanges();

    expect(document.querySelector('.mat-mdc-dialog-title')?.textContent).toContain('Rename');
    expect(byTestId('field')?.textContent).toBe('the fields');
    byTestId('save')!.click();
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(closed).toHaveBeenCalledWith(true);
  });

  it('should disable both buttons while the action runs and show its refusal', async () => {
    const ref = dialog.open(RenameDialog);
    let refuse!: (error: unknown) => void;
    ref.componentInstance.work = () => new Promise<void>((_, reject) => (refuse = reject));
    const closed = jest.fn();
    ref.afterClosed().subscribe(closed);
    await new Promise((resolve) => setTimeout(resolve, 0));

    byTestId('save')!.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    ref.componentRef!.changeDetectorRef.detectChanges();
    const buttons = [...document.querySelectorAll<HTMLButtonElement>('mat-dialog-actions button')];
    expect(buttons.map((b) => b.disabled)).toEqual([true, true]);

    refuse(new ApiError(409, 'CONFLICT', 'Someone else saved first', 'req-9', null));
    await new Promise((resolve) => setTimeout(resolve, 0));
    ref.componentRef!.changeDetectorRef.detectChanges();

    expect(byTestId('rename-error')?.textContent).toContain('req-9');
    expect(buttons.map((b) => b.disabled)).toEqual([false, false]);
    expect(closed).not.toHaveBeenCalled();
  });
});
