import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MAT_DIALOG_DATA, MatDialog, MatDialogRef } from '@angular/material/dialog';
import { Router } from '@angular/router';
import type { AdminUser } from '@usher/contracts';
import { of } from 'rxjs';
import { aUser, settle, storeSession, refusal } from '../../../testing/fixtures';
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
import { BulkResultDialog } from './bulk-result-dialog';
import { UserActions } from './user-actions';
import { ResetPasswordDialog } from './reset-password-dialog';
import { UserFormDialog, createBody, endOfDay } from './user-form-dialog';
import UsersPage, { userQueryFrom } from './users-page';

const ADMIN_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000ad';

function anAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    ...aUser(),
    mediaDisabled: false,
    mediaAccessDisabled: false,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const BOB = anAdminUser({
  id: '01936f6e-8a7b-7c3d-9e4f-0000000000b0',
  username: 'bob',
  email: 'bob@example.com',
});
const CAROL = anAdminUser({
  id: '01936f6e-8a7b-7c3d-9e4f-0000000000c0',
  username: 'carol',
  email: null,
  isExpired: true,
  expiresAt: '2026-01-01T00:00:00.000Z',
  media: { linked: true, mediaUserId: 'm-2', state: 'disabled_expired' },
});
const page = (data: AdminUser[]) => ({ data, total: data.length, page: 1, pageSize: 20 });

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('admin users', () => {
  let http: HttpTestingController | undefined;
  let router: Router;
  let notifier: { show: jest.Mock };
  let dialog: { open: jest.Mock };
  let dialogAnswer: unknown;

  function setUp(extra: unknown[] = []): void {
    storeSession();
    notifier = { show: jest.fn() };
    dialogAnswer = true;
    dialog = { open: jest.fn(() => ({ afterClosed: () => of(dialogAnswer) })) };
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: Notifier, useValue: notifier },
        { provide: MatDialog, useValue: dialog },
        ...(extra as never[]),
      ],
    });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
    TestBed.inject(SessionStore).me.set(aUser({ id: ADMIN_ID, role: 'admin', expiresAt: null }));
  }

  beforeEach(() => (http = undefined));
  afterEach(() => http?.verify());

  describe('userQueryFrom', () => {
    it('should default to newest first, page 1 of 20, no filters', () => {
      expect(userQueryFrom({})).toEqual({
        search: '',
        role: '',
        isActive: '',
        status: '',
        mediaState: '',
        expiresBefore: '',
        expiresAfter: '',
        sort: 'createdAt',
        order: 'desc',
        page: 1,
        pageSize: 20,
      });
    });

    it('should keep valid filters and drop invalid ones', () => {
      expect(
        userQueryFrom({
          search: ' bo ',
          role: 'root',
          isActive: 'false',
          status: 'expired',
          mediaState: 'disabled_by_admin',
          expiresBefore: '2026-02-01',
          expiresAfter: 'yesterday',
          sort: 'password',
          order: 'asc',
          page: '-3',
          pageSize: '50',
        }),
      ).toEqual({
        search: 'bo',
        role: '',
        isActive: 'false',
        status: 'expired',
        mediaState: 'disabled_by_admin',
        expiresBefore: '2026-02-01',
        expiresAfter: '',
        sort: 'createdAt',
        order: 'asc',
        page: 1,
        pageSize: 50,
      });
    });
  });

  describe('UsersPage', () => {
    let fixture: ComponentFixture<UsersPage>;

    async function render(inputs: Record<string, string> = {}): Promise<HTMLElement> {
      setUp();
      fixture = TestBed.createComponent(UsersPage);
      for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
      await fixture.whenStable();
      return fixture.nativeElement as HTMLElement;
    }

    const listRequest = () => http!.expectOne((r) => r.url === '/api/v1/admin/users');

    it('should list users with membership and media chips, filters from the URL', async () => {
      const root = await render({ status: 'expired', search: 'ca', expiresBefore: '2026-02-01' });
      const req = listRequest();
      expect(req.request.params.get('expiresBefore')).toBe('2026-02-01');
      expect(req.request.params.has('expiresAfter')).toBe(false);
      expect(req.request.params.get('status')).toBe('expired');
      expect(req.request.params.get('search')).toBe('ca');
      expect(req.request.params.has('role')).toBe(false);
      req.flush(page([CAROL]));
      await flushAndRender(fixture);
      const row = root.querySelector('[data-user="carol"]')!;
      expect(row.textContent).toContain('Expired');
      expect(row.textContent).toContain('Paused (membership expired)');
    });

    it('should show "no results" with Clear filters when filters match nobody', async () => {
      const root = await render({ role: 'admin' });
      listRequest().flush(page([]));
      await flushAndRender(fixture);
      expect(root.textContent).toContain('No results for these filters.');
      expect(root.textContent).toContain('Clear filters');
    });

    it('should run a bulk action on the selection after confirmation and list the outcome', async () => {
      const root = await render();
      listRequest().flush(page([BOB, CAROL]));
      await flushAndRender(fixture);
      const boxes = root.querySelectorAll<HTMLInputElement>('tbody input[type="checkbox"]');
      boxes[0]!.click();
      boxes[1]!.click();
      await fixture.whenStable();
      expect(byTestId(root, 'bulk-bar')!.textContent).toContain('2 users selected');
      await clickOn(fixture, root, 'bulk-media-disable');
      await flushAndRender(fixture);
      const bulk = http!.expectOne('/api/v1/admin/users/bulk');
      expect(bulk.request.body).toEqual({ ids: [BOB.id, CAROL.id], action: 'media_disable' });
      bulk.flush({
        results: [
          { id: BOB.id, ok: true },
          { id: CAROL.id, ok: false, code: 'MEDIA_ACCOUNT_UNLINKED' },
        ],
      });
      await flushAndRender(fixture);
      const resultCall = dialog.open.mock.calls.find(([c]) => c === BulkResultDialog);
      expect(resultCall![1].data).toEqual([
        { username: 'bob', ok: true },
        { username: 'carol', ok: false, code: 'MEDIA_ACCOUNT_UNLINKED' },
      ]);
      listRequest().flush(page([BOB, CAROL]));
      await flushAndRender(fixture);
      expect(byTestId(root, 'bulk-bar')).toBeNull();
    });

    it('should not run a bulk action when the confirmation is cancelled', async () => {
      const root = await render();
      listRequest().flush(page([BOB]));
      await flushAndRender(fixture);
      root.querySelector<HTMLInputElement>('tbody input[type="checkbox"]')!.click();
      await fixture.whenStable();
      dialogAnswer = false;
      await clickOn(fixture, root, 'bulk-media-disable');
      await flushAndRender(fixture);
      http!.expectNone('/api/v1/admin/users/bulk');
    });

    it('should explain LAST_ADMIN inline when an action is refused', async () => {
      const root = await render();
      listRequest().flush(page([BOB]));
      await flushAndRender(fixture);
      const pageComponent = fixture.componentInstance as unknown as {
        toggleActive(user: AdminUser): Promise<void>;
      };
      const done = pageComponent.toggleActive(BOB);
      await flushAndRender(fixture);
      http!.expectOne(`/api/v1/admin/users/${BOB.id}/active`).flush(...refusal(422, 'LAST_ADMIN'));
      await flushAndRender(fixture);
      listRequest().flush(page([BOB]));
      await done;
      await fixture.whenStable();
      expect(byTestId(root, 'users-action-error')!.textContent).toContain(
        'At least one active administrator must remain.',
      );
    });

    it('should turn media access off for a member and reload', async () => {
      await render();
      listRequest().flush(page([BOB]));
      await flushAndRender(fixture);
      const pageComponent = fixture.componentInstance as unknown as {
        toggleMedia(user: AdminUser): Promise<void>;
      };
      const done = pageComponent.toggleMedia(BOB);
      const put = http!.expectOne(`/api/v1/admin/users/${BOB.id}/media-access`);
      expect(put.request.method).toBe('PUT');
      expect(put.request.body).toEqual({ enabled: false });
      put.flush({ user: BOB, mediaSync: 'applied' });
      await flushAndRender(fixture);
      listRequest().flush(page([BOB]));
      await done;
      expect(notifier.show).toHaveBeenCalledWith('adminUsers.media.off.applied', { name: 'bob' });
    });
  });

  describe('sync media now', () => {
    it('should send the policy choice from the dialog, and nothing when it is cancelled', async () => {
      setUp();
      const actions = TestBed.inject(UserActions);
      dialogAnswer = { policy: true };
      const done = actions.syncMedia(BOB);
      await settle();
      const post = http!.expectOne(`/api/v1/admin/users/${BOB.id}/media-sync`);
      expect(post.request.body).toEqual({ policy: true });
      post.flush({ user: BOB, mediaSync: 'applied' });
      await expect(done).resolves.toBe(true);
      expect(notifier.show).toHaveBeenCalledWith('adminUsers.synced.applied', { name: 'bob' });
      dialogAnswer = undefined;
      await expect(actions.syncMedia(BOB)).resolves.toBe(false);
      http!.expectNone(`/api/v1/admin/users/${BOB.id}/media-sync`);
    });
  });

  describe('UserFormDialog', () => {
    it('should build a member with an expiry, and an admin without expiry or media user', () => {
      const base = {
        username: ' dave ',
        email: '',
        password: '',
        neverExpires: false,
        expiresOn: '2031-01-31',
        createMediaUser: true,
      };
      expect(createBody({ ...base, role: 'user' })).toEqual({
        username: 'dave',
        role: 'user',
        expiresAt: endOfDay('2031-01-31'),
        createMediaUser: true,
      });
      expect(createBody({ ...base, role: 'user', neverExpires: true })).toMatchObject({
        neverExpires: true,
      });
      expect(
        createBody({ ...base, role: 'admin', email: 'd@x.io', password: 'pw-123456' }),
      ).toEqual({ username: 'dave', role: 'admin', email: 'd@x.io', password: 'pw-123456' });
    });

    it('should show the generated password once after creating', async () => {
      setUp([
        { provide: MAT_DIALOG_DATA, useValue: {} },
        { provide: MatDialogRef, useValue: { close: jest.fn() } },
      ]);
      const fixture = TestBed.createComponent(UserFormDialog);
      const root = fixture.nativeElement as HTMLElement;
      await fixture.whenStable();
      typeInto(root, 'user-username', 'dave');
      await clickOn(fixture, root, 'user-save');
      const post = http!.expectOne('/api/v1/admin/users');
      expect(post.request.body).toMatchObject({ username: 'dave', role: 'user' });
      expect(post.request.body).not.toHaveProperty('password');
      post.flush(
        { user: anAdminUser({ username: 'dave' }), generatedPassword: 'Gen3rated-Passw0rd-xy' },
        { status: 201, statusText: 'Created' },
      );
      await flushAndRender(fixture);
      expect(byTestId(root, 'generated-password')!.textContent).toContain('Gen3rated-Passw0rd-xy');
      expect(root.textContent).toContain('It is shown only once.');
    });

    it('should put a taken username on its field', async () => {
      setUp([
        { provide: MAT_DIALOG_DATA, useValue: {} },
        { provide: MatDialogRef, useValue: { close: jest.fn() } },
      ]);
      const fixture = TestBed.createComponent(UserFormDialog);
      const root = fixture.nativeElement as HTMLElement;
      await fixture.whenStable();
      typeInto(root, 'user-username', 'bob');
      await clickOn(fixture, root, 'user-save');
      http!.expectOne('/api/v1/admin/users').flush(...refusal(409, 'USERNAME_TAKEN'));
      await flushAndRender(fixture);
      expect(root.textContent).toContain('That username is already taken.');
      expect(byTestId(root, 'generated-password')).toBeNull();
    });
  });

  describe('ResetPasswordDialog', () => {
    it('should generate a password when left blank, require a change, and show it once', async () => {
      setUp([{ provide: MAT_DIALOG_DATA, useValue: BOB }]);
      const fixture = TestBed.createComponent(ResetPasswordDialog);
      const root = fixture.nativeElement as HTMLElement;
      await fixture.whenStable();
      await clickOn(fixture, root, 'reset-ok');
      const post = http!.expectOne(`/api/v1/admin/users/${BOB.id}/reset-password`);
      expect(post.request.body).toEqual({ requireChange: true });
      post.flush({ generatedPassword: 'Another-Generated-1' });
      await flushAndRender(fixture);
      expect(byTestId(root, 'generated-password')!.textContent).toContain('Another-Generated-1');
    });
  });
});
