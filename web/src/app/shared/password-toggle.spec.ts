import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideTestI18n } from '../../testing/providers';
import { PasswordToggle } from './password-toggle';

@Component({
  imports: [PasswordToggle],
  template: `<app-password-toggle [(visible)]="shown" />`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly shown = signal(false);
}

describe('PasswordToggle', () => {
  it('should show and hide the password, saying which it does and whether it is pressed', async () => {
    TestBed.configureTestingModule({ providers: provideTestI18n() });
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    const button = (fixture.nativeElement as HTMLElement).querySelector('button')!;
    expect(button.type).toBe('button');
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(button.getAttribute('aria-label')).toBe('Show password');
    const icon = () => button.querySelector('mat-icon')!.getAttribute('data-mat-icon-name');
    expect(icon()).toBe('visibility');

    button.click();
    await fixture.whenStable();
    expect(fixture.componentInstance.shown()).toBe(true);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Hide password');
    expect(icon()).toBe('visibility_off');

    fixture.componentInstance.shown.set(false);
    await fixture.whenStable();
    expect(button.getAttribute('aria-pressed')).toBe('false');
  });
});
