import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { FormControl, Validators } from '@angular/forms';
import { provideTestApp } from '../../testing/providers';
import { byTestId } from '../../testing/dom';
import { PasswordField } from './password-field';

@Component({
  imports: [PasswordField],
  template: `
    <app-password-field
      [control]="current"
      labelKey="account.password.current"
      testId="current"
      autocomplete="current-password"
      [toggle]="true"
      [(visible)]="visible"
    />
    <app-password-field
      [control]="next"
      labelKey="account.password.new"
      testId="next"
      hint="At least 8"
      [visible]="visible()"
    />
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly current = new FormControl('', { nonNullable: true, validators: [Validators.required] });
  readonly next = new FormControl('', { nonNullable: true });
  readonly visible = signal(false);
}

describe('PasswordField', () => {
  async function render() {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  it('should hide the text, give the autofill hint and show the hint line', async () => {
    const { root } = await render();

    const current = byTestId(root, 'current') as HTMLInputElement;
    const next = byTestId(root, 'next') as HTMLInputElement;
    expect(current.type).toBe('password');
    expect(current.getAttribute('autocomplete')).toBe('current-password');
    expect(next.getAttribute('autocomplete')).toBe('new-password');
    expect(root.querySelectorAll('mat-hint')).toHaveLength(1);
    expect(root.querySelector('mat-hint')?.textContent).toContain('At least 8');
  });

  it('should show every following field when the one toggle is pressed', async () => {
    const { fixture, root } = await render();

    const toggles = root.querySelectorAll<HTMLButtonElement>('app-password-toggle button');
    expect(toggles).toHaveLength(1);
    toggles[0]!.click();
    await fixture.whenStable();

    expect(fixture.componentInstance.visible()).toBe(true);
    expect((byTestId(root, 'current') as HTMLInputElement).type).toBe('text');
    expect((byTestId(root, 'next') as HTMLInputElement).type).toBe('text');
  });

  it("should show the control's error once it is touched", async () => {
    const { fixture, root } = await render();

    fixture.componentInstance.current.markAsTouched();
    fixture.componentInstance.current.updateValueAndValidity();
    fixture.detectChanges();
    await fixture.whenStable();

    expect(root.querySelector('mat-error')?.textContent).toContain('Required');
  });
});
