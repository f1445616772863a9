import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MatDialog, MatDialogRef } from '@angular/material/dialog';
import { Router } from '@angular/router';
import type {
  BlacklistCreated,
  BlacklistEntry,
  Device,
  DeviceAction,
  DeviceStats,
  User,
} from '@usher/contracts';
import { of } from 'rxjs';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender, typeInto } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import UserDetail from '../admin-users/user-detail';
import { BlacklistDialog } from './blacklist-dialog';
import DevicesPage, { ranking } from './devices-page';

const USER_ID = '01936f6e-8a7b-7c3d-9e4f-0123456789ab';
const ENTRY_ID = '01936f6e-8a7b-7c3d-9e4f-00000000000e';

function aDevice(overrides: Partial<Device> = {}): Device {
  return {
    id: 'dev/1',
    deviceId: 'bob-appletv',
    name: 'Living Room Apple TV',
    client: 'Infuse',
    appVersion: '7.8',
    lastUser: { mediaUserId: 'm-bob', name: 'bob', userId: USER_ID, username: 'bob' },
    lastActivityAt: '2026-03-01T10:00:00.000Z',
    ip: '10.0.0.7',
    blacklisted: false,
    ...overrides,
  };
}

const STATS: DeviceStats = {
  total: 5,
  activeLast24h: 3,
  byClient: [
    { client: 'Kodi', count: 1 },
    { client: 'Infuse', count: 2 },
  ],
  topUsers: [{ userId: USER_ID, mediaUserId: 'm-bob', name: 'bob', count: 2 }],
  blacklistEntries: 1,
  activeSessions: 2,
};

function anEntry(overrides: Partial<BlacklistEntry> = {}): BlacklistEntry {
  return {
    id: ENTRY_ID,
    clientName: 'MrMC',
    reason: 'shared accounts',
    createdBy: { id: USER_ID, username: 'admin' },
    createdAt: '2026-03-01T09:00:00.000Z',
    ...overrides,
  };
}

function anAction(overrides: Partial<DeviceAction> = {}): DeviceAction {
  return {
    id: '01936f6e-8a7b-7c3d-9e4f-00000000000a',
    action: 'enforce_blacklist',
    deviceId: 'bob-iphone',
    deviceName: "Bob's iPhone",
    clientName: 'Infuse',
    mediaUserId: 'm-bob',
    user: { id: USER_ID, username: 'bob' },
    actor: null,
    outcome: 'ok',
    note: null,
    createdAt: '2026-03-01T10:15:00.000Z',
    ...overrides,
  };
}

function anAdminUser(overrides: Partial<User> = {}) {
  return {
    ...aUser(overrides),
    mediaDisabled: false,
    mediaAccessDisabled: false,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

const page = <T>(data: T[]) => ({ data, total: data.length, page: 1, pageSize: 20 });

jest.setTimeout(20_000);
describe('ranking', () => {
  it('should rank by count, keep the top five and size bars against the largest', () => {
    const rows = ranking([
      { client: 'a', count: 1 },
      { client: 'b', count: 4 },
      { client: 'c', count: 2 },
      { client: 'd', count: 0 },
      { client: 'e', count: 3 },
      { client: 'f', count: 1 },
    ]);
    expect(rows.map((r) => [r.item.client, r.share])).toEqual([
      ['b', 100],
      ['e', 75],
      ['c', 50],
      ['a', 25],
      ['f', 25],
    ]);
  });
});

describe('admin devices', () => {
  let http: HttpTestingController;
  let notifier: { show: jest.Mock };
  let dialogAnswer: unknown;
  let fixture: ComponentFixture<DevicesPage>;
  let router: Router;

  async function render(inputs: Record<string, string> = {}): Promise<HTMLElement> {
    storeSession();
    notifier = { show: jest.fn() };
    dialogAnswer = true;
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: Notifier, useValue: notifier },
        { provide: MatDialog, useValue: { open: () => ({ afterClosed: () => of(dialogAnswer) }) } },
      ],
    });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
    fixture = TestBed.createComponent(DevicesPage);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const flushStats = () => http.expectOne('/api/v1/admin/devices/stats').flush(STATS);

  afterEach(() => http.verify());

  it('should show the stats cards and the devices with client, user and status', async () => {
    const root = await render();
    flushStats();
    const req = http.expectOne((r) => r.url === '/api/v1/admin/devices');
    expect(req.request.params.toString()).toBe('page=1&pageSize=20');
    req.flush(
      page([
        aDevice(),
        aDevice({ id: 'd2', name: 'Kodi Box', client: 'Kodi', lastUser: null, blacklisted: true }),
      ]),
    );
    await flushAndRender(fixture);
    expect(byTestId(root, 'stat-total')!.textContent).toContain('5');
    expect(byTestId(root, 'stat-active')!.textContent).toContain('3');
    const stats = byTestId(root, 'device-stats')!.textContent!;
    // Infuse (2) ranks above Kodi (1).
    expect(stats.indexOf('Infuse')).toBeLessThan(stats.indexOf('Kodi'));
    expect(stats).toContain('2 devices');
    const rows = root.querySelectorAll('[data-testid="devices-table"] tbody tr');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Living Room Apple TV');
    expect(rows[0]!.textContent).toContain('Infuse');
    expect(rows[0]!.textContent).toContain('7.8');
    expect(rows[0]!.textContent).toContain('bob');
    expect(rows[0]!.textContent).toContain('Allowed');
    expect(rows[1]!.textContent).toContain('Nobody');
    expect(rows[1]!.textContent).toContain('Blacklisted');
  });

  it('should offer admins the media-server settings when it is not configured', async () => {
    const root = await render();
    TestBed.inject(SessionStore).me.set(aUser({ role: 'admin' }));
    const notConfigured = errorBody('NOT_CONFIGURED', 'No media server', {
      system: 'media_server',
    });
    const unavailable = { status: 503, statusText: 'Service Unavailable' };
    http.expectOne('/api/v1/admin/devices/stats').flush(notConfigured, unavailable);
    http.expectOne((r) => r.url === '/api/v1/admin/devices').flush(notConfigured, unavailable);
    await flushAndRender(fixture);
    const links = [...root.querySelectorAll('[data-testid="open-settings"]')];
    expect(links.length).toBeGreaterThan(0);
    expect(links[0]!.getAttribute('href')).toBe('/admin/settings?group=media_server');
    expect(root.textContent).toContain('Open settings');
  });

  it('should filter by client and blacklist state from the URL', async () => {
    await render({ client: 'Infuse', blacklisted: 'true' });
    flushStats();
    const req = http.expectOne((r) => r.url === '/api/v1/admin/devices');
    expect(req.request.params.get('client')).toBe('Infuse');
    expect(req.request.params.get('blacklisted')).toBe('true');
    req.flush(page([]));
    await flushAndRender(fixture);
    expect(fixture.nativeElement.textContent).toContain('No results for these filters.');
  });

  it("should find a member by username and list that member's devices", async () => {
    await render({ user: 'Bob' });
    flushStats();
    const users = http.expectOne((r) => r.url === '/api/v1/admin/users');
    expect(users.request.params.get('search')).toBe('Bob');
    users.flush(
      page([
        anAdminUser({ username: 'bobby', id: '01936f6e-8a7b-7c3d-9e4f-000000000001' }),
        anAdminUser({ username: 'bob' }),
      ]),
    );
    await flushAndRender(fixture);
    const req = http.expectOne((r) => r.url === '/api/v1/admin/devices');
    expect(req.request.params.get('userId')).toBe(USER_ID);
    req.flush(page([aDevice()]));
  });

  it('should show nothing for a username no member has, without asking for devices', async () => {
    await render({ user: 'nobody' });
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/users').flush(page([]));
    await flushAndRender(fixture);
    http.expectNone((r) => r.url === '/api/v1/admin/devices');
    expect(fixture.nativeElement.textContent).toContain('No results for these filters.');
  });

  /** One device listed; its menu's Log out pressed (and confirmed). */
  async function logOutFromTheMenu(): Promise<HTMLElement> {
    const root = await render();
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices').flush(page([aDevice()]));
    await flushAndRender(fixture);
    byTestId(root, 'device-menu-dev/1')!.click();
    await fixture.whenStable();
    (document.querySelector('[data-testid="device-logout"]') as HTMLElement).click();
    await flushAndRender(fixture);
    return root;
  }

  it('should log a device out after confirming, by its encoded id, and reload', async () => {
    await logOutFromTheMenu();
    const post = http.expectOne('/api/v1/admin/devices/dev%2F1/logout');
    expect(post.request.method).toBe('POST');
    post.flush(null, { status: 204, statusText: 'No Content' });
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('devices.loggedOut', {
      name: 'Living Room Apple TV',
    });
    http.expectOne((r) => r.url === '/api/v1/admin/devices').flush(page([]));
    flushStats();
  });

  it('should treat a device the server no longer lists (404) as gone and refresh', async () => {
    const root = await logOutFromTheMenu();
    http
      .expectOne('/api/v1/admin/devices/dev%2F1/logout')
      .flush(errorBody('DEVICE_NOT_FOUND'), { status: 404, statusText: 'Not Found' });
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('devices.alreadyGone', {
      name: 'Living Room Apple TV',
    });
    expect(byTestId(root, 'device-action-error')).toBeNull();
    http.expectOne((r) => r.url === '/api/v1/admin/devices').flush(page([]));
    flushStats();
    await flushAndRender(fixture);
    expect(root.textContent).toContain('No device is signed in to the media server.');
  });

  it('should list the blacklist and report what "log out all" did', async () => {
    const root = await render({ tab: 'blacklist' });
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices/blacklist').flush(page([anEntry()]));
    await flushAndRender(fixture);
    const row = root.querySelector('[data-testid="blacklist-table"] tbody tr')!;
    expect(row.textContent).toContain('MrMC');
    expect(row.textContent).toContain('shared accounts');
    expect(row.textContent).toContain('admin');
    byTestId(root, 'blacklist-sweep')!.click();
    await flushAndRender(fixture);
    expect((byTestId(root, 'blacklist-sweep') as HTMLButtonElement).disabled).toBe(true);
    http.expectOne('/api/v1/admin/devices/blacklist/logout').flush({ loggedOut: 2, failed: 1 });
    await flushAndRender(fixture);
    expect(byTestId(root, 'blacklist-outcome')!.textContent).toContain(
      '2 devices logged out, 1 failed.',
    );
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices/blacklist').flush(page([anEntry()]));
  });

  it('should show the counts of an add with logout, then refresh', async () => {
    const root = await render({ tab: 'blacklist' });
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices/blacklist').flush(page([]));
    await flushAndRender(fixture);
    expect(root.textContent).toContain('No client is blacklisted.');
    const created: BlacklistCreated = {
      entry: anEntry({ clientName: 'Infuse' }),
      loggedOut: 2,
      failed: 0,
    };
    dialogAnswer = created;
    byTestId(root, 'blacklist-add')!.click();
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('devices.blacklist.added', { client: 'Infuse' });
    expect(byTestId(root, 'blacklist-outcome')!.textContent).toContain(
      '2 devices logged out, 0 failed.',
    );
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices/blacklist').flush(page([created.entry]));
  });

  it('should remove an entry after confirming', async () => {
    const root = await render({ tab: 'blacklist' });
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices/blacklist').flush(page([anEntry()]));
    await flushAndRender(fixture);
    byTestId(root, 'blacklist-menu-MrMC')!.click();
    await fixture.whenStable();
    (document.querySelector('[data-testid="blacklist-remove"]') as HTMLElement).click();
    await flushAndRender(fixture);
    const del = http.expectOne(`/api/v1/admin/devices/blacklist/${ENTRY_ID}`);
    expect(del.request.method).toBe('DELETE');
    del.flush(null, { status: 204, statusText: 'No Content' });
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('devices.blacklist.removed', { client: 'MrMC' });
    flushStats();
    http.expectOne((r) => r.url === '/api/v1/admin/devices/blacklist').flush(page([]));
  });

  it('should name the scheduled job as the actor of its action-log rows', async () => {
    const root = await render({ tab: 'actions' });
    flushStats();
    http
      .expectOne((r) => r.url === '/api/v1/admin/devices/actions')
      .flush(
        page([
          anAction(),
          anAction({
            id: '01936f6e-8a7b-7c3d-9e4f-00000000000b',
            action: 'logout',
            actor: { id: USER_ID, username: 'admin' },
            outcome: 'failed',
            note: 'media server refused',
          }),
        ]),
      );
    await flushAndRender(fixture);
    const rows = root.querySelectorAll('[data-testid="device-actions-table"] tbody tr');
    expect(rows[0]!.textContent).toContain('Blacklist enforced');
    expect(rows[0]!.textContent).toContain('Scheduled job');
    expect(rows[0]!.textContent).toContain('Done');
    expect(rows[1]!.textContent).toContain('admin');
    expect(rows[1]!.textContent).toContain('Failed');
    expect(rows[1]!.textContent).toContain('media server refused');
  });
});

describe('BlacklistDialog', () => {
  let http: HttpTestingController;
  let close: jest.Mock;

  async function render() {
    storeSession();
    close = jest.fn();
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: MatDialogRef, useValue: { close } },
      ],
    });
    http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(BlacklistDialog);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  afterEach(() => http.verify());

  it('should add with "log out now" ticked by default and close with the counts', async () => {
    const { fixture, root } = await render();
    typeInto(root, 'blacklist-client', '  Infuse ');
    typeInto(root, 'blacklist-reason', 'shared');
    root.querySelector('form')!.dispatchEvent(new Event('submit'));
    await flushAndRender(fixture);
    const post = http.expectOne('/api/v1/admin/devices/blacklist');
    expect(post.request.body).toEqual({ clientName: 'Infuse', reason: 'shared', logoutNow: true });
    const created = { entry: anEntry({ clientName: 'Infuse' }), loggedOut: 2, failed: 0 };
    post.flush(created, { status: 201, statusText: 'Created' });
    await flushAndRender(fixture);
    expect(close).toHaveBeenCalledWith(created);
  });

  it('should say on the name field that the client is already listed (409)', async () => {
    const { fixture, root } = await render();
    typeInto(root, 'blacklist-client', 'MrMC');
    root.querySelector('form')!.dispatchEvent(new Event('submit'));
    await flushAndRender(fixture);
    http
      .expectOne('/api/v1/admin/devices/blacklist')
      .flush(errorBody('BLACKLIST_ENTRY_EXISTS'), { status: 409, statusText: 'Conflict' });
    await flushAndRender(fixture);
    expect(byTestId(root, 'blacklist-client-error')!.textContent).toContain(
      'That client is already on the blacklist.',
    );
    expect(close).not.toHaveBeenCalled();
  });

  it('should not send an empty name', async () => {
    const { fixture, root } = await render();
    typeInto(root, 'blacklist-client', '   ');
    root.querySelector('form')!.dispatchEvent(new Event('submit'));
    await flushAndRender(fixture);
    http.expectNone('/api/v1/admin/devices/blacklist');
  });
});

describe("the user detail's Devices tab", () => {
  it("should list that member's devices by user id, without the user column", async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(UserDetail);
    fixture.componentRef.setInput('id', USER_ID);
    fixture.componentRef.setInput('tab', 'devices');
    await fixture.whenStable();
    http.expectOne(`/api/v1/admin/users/${USER_ID}`).flush({
      ...anAdminUser({ username: 'bob' }),
      counts: { redemptions: 0, payments: 0, activeRequests: 0 },
    });
    await flushAndRender(fixture);
    const req = http.expectOne((r) => r.url === '/api/v1/admin/devices');
    expect(req.request.params.toString()).toBe(`userId=${USER_ID}&page=1&pageSize=10`);
    req.flush({ data: [aDevice()], total: 1, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    const table = byTestId(root, 'user-devices-table')!;
    expect(table.textContent).toContain('Living Room Apple TV');
    expect(table.querySelectorAll('thead th')).toHaveLength(6);
    // The Redemptions tab's list loads with the profile; not what this is about.
    http
      .expectOne((r) => r.url === '/api/v1/admin/redemptions')
      .flush({ data: [], total: 0, page: 1, pageSize: 10 });
    http.verify();
  });
});
