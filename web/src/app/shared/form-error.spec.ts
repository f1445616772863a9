import { TestBed } from '@angular/core/testing';
import type { ErrorText } from '../core/api/error-text';
import { FormError } from './form-error';

/** The shared error line (60-web.md §1): message, reference, one live region. */
describe('FormError', () => {
  const apiError: ErrorText = { message: 'The media server did not answer.', reference: 'Ref 1' };

  async function render(inputs: Record<string, unknown>): Promise<HTMLElement> {
    const fixture = TestBed.createComponent(FormError);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const line = (root: HTMLElement) => root.querySelector<HTMLElement>('p.form-error');

  it('should keep an empty alert region in the page while there is no error', async () => {
    const root = await render({ error: null, testId: 'x-error' });
    const region = root.querySelector('[role="alert"]');
    expect(region).not.toBeNull();
    expect(region!.children).toHaveLength(0);
    expect(line(root)).toBeNull();
  });

  it('should show the message and the reference inside the alert region', async () => {
    const root = await render({ error: apiError, testId: 'x-error' });
    const shown = root.querySelector('[role="alert"] [data-testid="x-error"]')!;
    expect(shown.textContent).toContain('The media server did not answer.');
    expect(shown.querySelector('.reference')!.textContent).toBe('Ref 1');
    expect(shown.querySelector('mat-icon')).toBeNull();
  });

  it('should show no reference line when the error has none or the caller hides it', async () => {
    expect(
      line(await render({ error: { ...apiError, reference: null } }))!.querySelector('.reference'),
    ).toBeNull();
    TestBed.resetTestingModule();
    const hidden = await render({ error: apiError, showReference: false });
    expect(line(hidden)!.textContent).toContain('The media server did not answer.');
    expect(line(hidden)!.querySelector('.reference')).toBeNull();
  });

  it('should show a message in place of the error text, and on its own', async () => {
    const replaced = await render({ error: apiError, message: 'Try again in 3 s.' });
    expect(line(replaced)!.textContent).toContain('Try again in 3 s.');
    expect(line(replaced)!.textContent).not.toContain('did not answer');
    expect(line(replaced)!.querySelector('.reference')!.textContent).toBe('Ref 1');
    TestBed.resetTestingModule();
    const alone = await render({ message: 'Fix the fields marked in red.' });
    expect(line(alone)!.textContent).toContain('Fix the fields marked in red.');
  });

  it('should add the icon, and leave out the alert role inside a region that is already live', async () => {
    const root = await render({ error: apiError, icon: true, alert: false });
    expect(line(root)!.querySelector('mat-icon')!.getAttribute('aria-hidden')).toBe('true');
    expect(root.querySelector('[role="alert"]')).toBeNull();
  });

  it('should clear the line when the error goes away', async () => {
    const fixture = TestBed.createComponent(FormError);
    fixture.componentRef.setInput('error', apiError);
    await fixture.whenStable();
    fixture.componentRef.setInput('error', null);
    await fixture.whenStable();
    expect(line(fixture.nativeElement as HTMLElement)).toBeNull();
  });
});
