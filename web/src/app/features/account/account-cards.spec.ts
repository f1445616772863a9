import { HttpTestingController } from '@angular/common/http/testing';
import type { Type } from '@angular/core';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MatDialog, MatDialogRef } from '@angular/material/dialog';
import { of } from 'rxjs';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  clickOn,
  flushAndRender,
  typeInto,
} from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { EmailCard } from './email-card';
import { MediaCard } from './media-card';
import { MediaLinkDialog } from './media-link-dialog';
import { MessengerCard } from './messenger-card';

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('account cards', () => {
  let http: HttpTestingController;
  let session: SessionStore;
  let notifier: { show: jest.Mock };
  let dialogAnswer: boolean;

  function setUp(user = aUser(), extra: unknown[] = []): void {
    storeSession();
    notifier = { show: jest.fn() };
    dialogAnswer = true;
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: Notifier, useValue: notifier },
        { provide: MatDialog, useValue: { open: () => ({ afterClosed: () => of(dialogAnswer) }) } },
        ...(extra as never[]),
      ],
    });
    http = TestBed.inject(HttpTestingController);
    session = TestBed.inject(SessionStore);
    session.me.set(user);
  }

  async function render<T>(component: Type<T>) {
    const fixture = TestBed.createComponent(component) as ComponentFixture<T>;
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  afterEach(() => {
    http.verify();
    jest.useRealTimers();
  });

  describe('EmailCard', () => {
    it('should send a code to the new address, then change it with the code', async () => {
      setUp();
      const { fixture, root } = await render(EmailCard);
      expect(byTestId(root, 'email-current')!.textContent).toContain('alice@example.com');
      await clickOn(fixture, root, 'email-change');
      http.expectOne('/api/v1/auth/register/mode').flush({ allowedEmailDomains: ['corp.example'] });
      await flushAndRender(fixture);
      expect(root.textContent).toContain('Allowed domains: corp.example');
      expect((byTestId(root, 'email-confirm') as HTMLButtonElement).disabled).toBe(true);
      typeInto(root, 'email-new', 'alice@corp.example');
      await clickOn(fixture, root, 'email-send-code');
      const send = http.expectOne('/api/v1/me/email/send-code');
      expect(send.request.body).toEqual({ newEmail: 'alice@corp.example' });
      send.flush({ expiresAt: '2030-01-01T00:10:00.000Z', resendAfterSeconds: 60 });
      await flushAndRender(fixture);
      expect(byTestId(root, 'email-send-code')!.textContent).toContain('Send again in');
      typeInto(root, 'email-code', '654321');
      await clickOn(fixture, root, 'email-confirm');
      const put = http.expectOne('/api/v1/me/email');
      expect(put.request.body).toEqual({ newEmail: 'alice@corp.example', code: '654321' });
      put.flush(aUser({ email: 'alice@corp.example' }));
      await flushAndRender(fixture);
      expect(session.me()?.email).toBe('alice@corp.example');
      expect(notifier.show).toHaveBeenCalledWith('accountCenter.email.changed');
      expect(byTestId(root, 'email-new')).toBeNull();
    });

    it('should put a taken address on the field and not send the change', async () => {
      setUp();
      const { fixture, root } = await render(EmailCard);
      await clickOn(fixture, root, 'email-change');
      http.expectOne('/api/v1/auth/register/mode').flush({ allowedEmailDomains: [] });
      typeInto(root, 'email-new', 'bob@example.com');
      await clickOn(fixture, root, 'email-send-code');
      http
        .expectOne('/api/v1/me/email/send-code')
        .flush(errorBody('EMAIL_TAKEN'), { status: 409, statusText: 'x' });
      await flushAndRender(fixture);
      expect(byTestId(root, 'email-new-error')).not.toBeNull();
      expect(byTestId(root, 'email-code')).toBeNull();
      http.expectNone('/api/v1/me/email');
    });
  });

  describe('MessengerCard', () => {
    it('should show a binding code with a live countdown until it expires', async () => {
      jest.useFakeTimers({ advanceTimers: true, now: new Date('2030-01-01T00:00:00.000Z') });
      setUp();
      const { fixture, root } = await render(MessengerCard);
      await clickOn(fixture, root, 'bind-get-code');
      http
        .expectOne('/api/v1/me/messenger/bind-code')
        .flush({ code: '482913', expiresAt: '2030-01-01T00:05:00.000Z' });
      await flushAndRender(fixture);
      expect(byTestId(root, 'bind-code')!.textContent).toContain('482913');
      expect(byTestId(root, 'bind-code-expiry')!.textContent).toContain('Valid for 5:00');
      expect(root.textContent).toContain('Send /bind 482913 to the community bot.');
      jest.advanceTimersByTime(61_000);
      await fixture.whenStable();
      expect(byTestId(root, 'bind-code-expiry')!.textContent).toContain('Valid for 3:59');
      jest.advanceTimersByTime(240_000);
      await fixture.whenStable();
      expect(byTestId(root, 'bind-code')).toBeNull();
      expect(byTestId(root, 'bind-code-expired')).not.toBeNull();
    });

    it('should unlink after confirmation and refresh the account', async () => {
      const bound = aUser({
        messenger: { bound: true, messengerId: 42, boundAt: '2026-01-01T00:00:00.000Z' },
      });
      setUp(bound);
      const { fixture, root } = await render(MessengerCard);
      expect(root.textContent).toContain('Linked');
      await clickOn(fixture, root, 'messenger-unbind');
      await flushAndRender(fixture);
      http.expectOne('/api/v1/me/messenger').flush(null, { status: 204, statusText: 'x' });
      await flushAndRender(fixture);
      http.expectOne('/api/v1/me').flush(aUser());
      await flushAndRender(fixture);
      expect(notifier.show).toHaveBeenCalledWith('accountCenter.messenger.unlinked');
      expect(byTestId(root, 'bind-get-code')).not.toBeNull();
    });

    it('should not unlink when the confirmation is cancelled', async () => {
      setUp(aUser({ messenger: { bound: true, messengerId: 42, boundAt: null } }));
      dialogAnswer = false;
      const { fixture, root } = await render(MessengerCard);
      await clickOn(fixture, root, 'messenger-unbind');
      await flushAndRender(fixture);
      http.expectNone('/api/v1/me/messenger');
    });
  });

  describe('MediaCard', () => {
    it('should say access is paused because the membership expired, with Renew', async () => {
      setUp(
        aUser({
          isExpired: true,
          expiresAt: '2026-01-05T00:00:00.000Z',
          media: { linked: true, mediaUserId: 'm-1', state: 'disabled_expired' },
        }),
      );
      const { root } = await render(MediaCard);
      expect(byTestId(root, 'media-state')!.textContent).toContain('Paused (membership expired)');
      expect(byTestId(root, 'media-explain')!.textContent).toContain(
        'your membership expired on Jan 5, 2026',
      );
      expect(byTestId(root, 'media-renew')!.getAttribute('href')).toBe('/console/renewal');
    });

    it('should point to an administrator when an admin switched access off', async () => {
      setUp(aUser({ media: { linked: true, mediaUserId: 'm-1', state: 'disabled_by_admin' } }));
      const { root } = await render(MediaCard);
      expect(byTestId(root, 'media-explain')!.textContent).toContain(
        'An administrator turned off your media-server access.',
      );
      expect(byTestId(root, 'media-renew')).toBeNull();
    });
  });

  describe('admin media-server link', () => {
    const ADMIN = aUser({
      role: 'admin',
      expiresAt: null,
      media: { linked: false, mediaUserId: null, state: 'unlinked' },
    });

    it('should offer to link an account and refresh the account after linking', async () => {
      setUp(ADMIN);
      dialogAnswer = { ...ADMIN, mediaDisabled: false } as never;
      const { fixture, root } = await render(MediaCard);
      expect(byTestId(root, 'media-explain')!.textContent).toContain('Link your own');
      await clickOn(fixture, root, 'media-link');
      await flushAndRender(fixture);
      http.expectOne('/api/v1/me').flush(aUser({ role: 'admin', expiresAt: null }));
      await flushAndRender(fixture);
      expect(notifier.show).toHaveBeenCalledWith('accountCenter.media.linked');
    });

    it('should search, link an available account, and name the holder of a taken one', async () => {
      const close = jest.fn();
      setUp(ADMIN, [{ provide: MatDialogRef, useValue: { close } }]);
      const { fixture, root } = await render(MediaLinkDialog);
      typeInto(root, 'media-search', 'a');
      await clickOn(fixture, root, 'media-search-go');
      http.expectNone((r) => r.url === '/api/v1/admin/media-server/users');
      typeInto(root, 'media-search', 'ad');
      await clickOn(fixture, root, 'media-search-go');
      const search = http.expectOne((r) => r.url === '/api/v1/admin/media-server/users');
      expect(search.request.params.get('query')).toBe('ad');
      search.flush({
        data: [
          {
            mediaUserId: 'm-9',
            name: 'admin',
            isAdministrator: true,
            isDisabled: false,
            available: true,
          },
          {
            mediaUserId: 'm-8',
            name: 'adam',
            isAdministrator: false,
            isDisabled: false,
            boundTo: { userId: '01936f6e-8a7b-7c3d-9e4f-0123456789ab', username: 'adam' },
            available: false,
          },
        ],
      });
      await flushAndRender(fixture);
      expect(byTestId(root, 'media-results')!.textContent).toContain('Linked to adam');
      await clickOn(fixture, root, 'media-link-admin');
      const put = http.expectOne('/api/v1/admin/current/media-binding');
      expect(put.request.body).toEqual({ mediaUserId: 'm-9' });
      put.flush(errorBody('MEDIA_USER_ALREADY_BOUND', 'x', { username: 'zoe' }), {
        status: 409,
        statusText: 'x',
      });
      await flushAndRender(fixture);
      expect(root.textContent).toContain('Linked to zoe');
      expect(close).not.toHaveBeenCalled();
    });
  });
});
