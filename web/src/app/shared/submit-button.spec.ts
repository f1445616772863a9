import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { SubmitButton } from './submit-button';

@Component({
  imports: [SubmitButton],
  template: `
    <form (submit)="submitted = submitted + 1; $event.preventDefault()">
      <app-submit-button [busy]="busy()" [disabled]="blocked()" testId="save"
        >Save</app-submit-button
      >
      <app-submit-button
        type="button"
        appearance="outlined"
        [busy]="busy()"
        (click)="clicks = clicks + 1"
        testId="other"
        >Send code</app-submit-button
      >
    </form>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly busy = signal(false);
  readonly blocked = signal(false);
  submitted = 0;
  clicks = 0;
}

/** The shared spinner button (60-web.md §1 "an action shows a spinner in its own button"). */
describe('SubmitButton', () => {
  async function render() {
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const button = (id: string) => root.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`)!;
    return { fixture, host: fixture.componentInstance, button };
  }

  it('should be a filled submit button that sends its form, with no spinner when idle', async () => {
    const { host, button } = await render();
    expect(button('save').type).toBe('submit');
    expect(button('save').classList).toContain('mat-mdc-unelevated-button');
    expect(button('save').textContent).toContain('Save');
    expect(button('save').querySelector('mat-progress-spinner')).toBeNull();
    button('save').click();
    expect(host.submitted).toBe(1);
  });

  it('should show the spinner and refuse a second send while busy', async () => {
    const { fixture, host, button } = await render();
    host.busy.set(true);
    await fixture.whenStable();
    expect(button('save').disabled).toBe(true);
    expect(button('save').querySelector('mat-progress-spinner')).not.toBeNull();
    button('save').click();
    expect(host.submitted).toBe(0);
    host.busy.set(false);
    await fixture.whenStable();
    expect(button('save').disabled).toBe(false);
    expect(button('save').querySelector('mat-progress-spinner')).toBeNull();
  });

  it('should be disabled for a reason of its own, without a spinner', async () => {
    const { fixture, host, button } = await render();
    host.blocked.set(true);
    await fixture.whenStable();
    expect(button('save').disabled).toBe(true);
    expect(button('save').querySelector('mat-progress-spinner')).toBeNull();
  });

  it('should run a plain outlined button through the host click, never submitting', async () => {
    const { fixture, host, button } = await render();
    expect(button('other').type).toBe('button');
    expect(button('other').classList).toContain('mat-mdc-outlined-button');
    button('other').click();
    expect(host.clicks).toBe(1);
    expect(host.submitted).toBe(0);
    host.busy.set(true);
    await fixture.whenStable();
    button('other').click();
    expect(host.clicks).toBe(1);
  });
});
