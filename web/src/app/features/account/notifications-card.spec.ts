import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { aUser, errorBody } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { NotificationsCard } from './notifications-card';

/** Issue 29: the member chooses whether reminders and announcements come by mail and by bot. */
describe('NotificationsCard', () => {
  async function render() {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    TestBed.inject(SessionStore).me.set(aUser({ email: 'alice@example.com' }));
    const http = TestBed.inject(HttpTestingController);
    const shown = jest.spyOn(TestBed.inject(Notifier), 'show').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(NotificationsCard);
    await fixture.whenStable();
    http.expectOne('/api/v1/me/notifications').flush({ email: true, messenger: true });
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    const toggle = (id: string) => byTestId(root, id)!.querySelector('button')!;
    return { fixture, http, shown, root, toggle };
  }

  it('should save a switch at once with both preferences', async () => {
    const { fixture, http, shown, root, toggle } = await render();
    expect(root.textContent).toContain('Sent to alice@example.com.');
    expect(toggle('notify-email').getAttribute('aria-checked')).toBe('true');
    toggle('notify-email').click();
    await flushAndRender(fixture);
    const put = http.expectOne('/api/v1/me/notifications');
    expect(put.request.method).toBe('PUT');
    expect(put.request.body).toEqual({ email: false, messenger: true });
    put.flush({ email: false, messenger: true });
    await flushAndRender(fixture);
    expect(toggle('notify-email').getAttribute('aria-checked')).toBe('false');
    expect(shown).toHaveBeenCalledWith('accountCenter.notifications.saved');
    http.verify();
  });

  it('should put the switch back and say why when the save is refused', async () => {
    const { fixture, http, root, toggle } = await render();
    toggle('notify-messenger').click();
    await flushAndRender(fixture);
    http
      .expectOne('/api/v1/me/notifications')
      .flush(errorBody('VALIDATION_FAILED', 'bad'), { status: 400, statusText: 'Bad' });
    await flushAndRender(fixture);
    expect(toggle('notify-messenger').getAttribute('aria-checked')).toBe('true');
    expect(byTestId(root, 'notifications-error')).not.toBeNull();
  });
});
