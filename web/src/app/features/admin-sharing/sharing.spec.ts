import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { SharingEvent, SharingMember } from '@usher/contracts';
import { storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { MemberSharing } from '../../shared/sharing/member-sharing';
import { placeName } from '../../shared/sharing/places';
import SharingPage, { statusChip } from './sharing-page';

const USER_ID = '01936f6e-8a7b-7c3d-9e4f-00000000000c';
const EVENT_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000e1';

function aSession(
  overrides: Partial<SharingEvent['evidence']['sessions'][number]> = {},
): SharingEvent['evidence']['sessions'][number] {
  return {
    sessionId: 'session-tv',
    deviceId: 'tv',
    deviceName: 'Living room TV',
    client: 'Emby Theater',
    address: '85.214.132.117',
    network: '85.214.132.117',
    city: 'Berlin',
    country: 'DE',
    latitude: 52.52,
    longitude: 13.32,
    itemName: 'Winter Harbour',
    startedAt: '2026-12-07T10:00:00.000Z',
    lastSeenAt: '2026-12-07T10:05:00.000Z',
    live: true,
    offending: false,
    ...overrides,
  };
}

function anEvent(overrides: Partial<SharingEvent> = {}): SharingEvent {
  return {
    id: EVENT_ID,
    user: { id: USER_ID, username: 'wren' },
    rule: 'streams',
    detectedAt: '2026-12-07T10:05:00.000Z',
    evidence: {
      limit: 1,
      count: 2,
      sessions: [
        aSession(),
        aSession({
          sessionId: 'session-laptop',
          deviceId: 'laptop',
          deviceName: 'Laptop',
          address: '1.1.1.1',
          network: '1.1.1.1',
          city: 'Sydney',
          country: 'AU',
          offending: true,
        }),
      ],
      networks: ['85.214.132.117', '1.1.1.1'],
      devices: [
        { deviceId: 'tv', name: 'Living room TV', client: 'Emby Theater' },
        { deviceId: 'laptop', name: 'Laptop', client: 'Emby Web' },
      ],
      places: [
        { city: 'Berlin', country: 'DE', latitude: 52.52, longitude: 13.32 },
        { city: 'Sydney', country: 'AU', latitude: -33.87, longitude: 151.21 },
      ],
    },
    action: 'stop',
    status: 'open',
    actionTaken: null,
    actionedAt: null,
    actionError: null,
    dismissedAt: null,
    note: null,
    ...overrides,
  };
}

const page = (data: SharingEvent[]) => ({ data, total: data.length, page: 1, pageSize: 20 });

describe('sharing places', () => {
  it('should name a place by city and the country in the active language', () => {
    expect(placeName({ city: 'Berlin', country: 'DE' }, 'en')).toBe('Berlin, Germany');
    expect(placeName({ city: 'Sydney', country: 'AU' }, 'zh-CN')).toBe('Sydney, 澳大利亚');
    expect(placeName({ city: null, country: null }, 'en')).toBe('');
  });

  it('should give every status a chip with an icon', () => {
    expect(statusChip('open')).toMatchObject({ tone: 'warning', label: 'sharing.status.open' });
    expect(statusChip('actioned').tone).toBe('success');
    expect(statusChip('dismissed').tone).toBe('neutral');
  });
});

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('SharingPage', () => {
  let http: HttpTestingController;
  let fixture: ComponentFixture<SharingPage>;
  let notifier: Notifier;

  async function render(inputs: Record<string, string> = {}): Promise<HTMLElement> {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    http = TestBed.inject(HttpTestingController);
    jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    notifier = TestBed.inject(Notifier);
    jest.spyOn(notifier, 'show').mockImplementation(() => undefined);
    fixture = TestBed.createComponent(SharingPage);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  afterEach(() => http.verify());

  it('should filter by status and rule from the URL and drop unknown values', async () => {
    await render({ status: 'open', rule: 'teleport' });
    const req = http.expectOne((r) => r.url === '/api/v1/admin/sharing/events');
    expect(req.request.params.keys().sort()).toEqual(['page', 'pageSize', 'status']);
    expect(req.request.params.get('status')).toBe('open');
    req.flush(page([]));
    await flushAndRender(fixture);
    expect(fixture.nativeElement.textContent).toContain('No results for these filters.');
  });

  it('should show an event with its evidence and confirm a stop through the dialog', async () => {
    const warn = jest.spyOn(console, 'warn');
    const root = await render();
    http.expectOne((r) => r.url === '/api/v1/admin/sharing/events').flush(page([anEvent()]));
    await flushAndRender(fixture);
    const row = root.querySelector(`[data-event="${EVENT_ID}"]`)!;
    expect(row.textContent).toContain('wren');
    expect(row.textContent).toContain('Streams at once');
    expect(row.textContent).toContain('2 streams, limit 1');
    expect(row.textContent).toContain('Open');

    (row.querySelector('[data-testid="sharing-evidence-toggle"]') as HTMLElement).click();
    await flushAndRender(fixture);
    const evidence = byTestId(root, 'sharing-evidence')!;
    expect(byTestId(evidence, 'evidence-places')!.textContent).toContain('Berlin, Germany');
    expect(byTestId(evidence, 'evidence-places')!.textContent).toContain('Sydney, Australia');
    expect(byTestId(evidence, 'evidence-networks')!.textContent).toContain('1.1.1.1');
    expect(byTestId(evidence, 'evidence-devices')!.textContent).toContain('Laptop');
    const offending = evidence.querySelector('[data-offending="true"]')!;
    expect(offending.textContent).toContain('Laptop');
    expect(evidence.textContent).toContain('IP Geolocation by DB-IP');
    // The world map comes in its own chunk once the browser is idle: a marker per place.
    await flushAndRender(fixture);
    const map = byTestId(evidence, 'world-map')!;
    expect(map.querySelectorAll('[data-testid="map-marker"]')).toHaveLength(2);
    expect(map.getAttribute('aria-label')).toBe(
      'World map of the places: Berlin, Germany; Sydney, Australia',
    );

    byTestId(root, 'sharing-row-menu')!.click();
    await fixture.whenStable();
    (document.querySelector('[data-testid="sharing-confirm"]') as HTMLElement).click();
    await flushAndRender(fixture);
    expect(document.body.textContent).toContain('1 offending stream(s)');
    (document.querySelector('[data-testid="sharing-act-submit"]') as HTMLElement).click();
    await flushAndRender(fixture);
    const act = http.expectOne(`/api/v1/admin/sharing/events/${EVENT_ID}/act`);
    expect(act.request.body).toEqual({ action: 'stop' });
    act.flush(
      anEvent({ status: 'actioned', actionTaken: 'stop', actionedAt: '2026-12-07T10:06:00.000Z' }),
    );
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('sharing.acted.stop');
    http
      .expectOne((r) => r.url === '/api/v1/admin/sharing/events')
      .flush(page([anEvent({ status: 'actioned', actionTaken: 'stop' })]));
    await flushAndRender(fixture);
    // Re-rendered with the reply, each timeline row kept its own key (sessions have no `id`).
    expect(warn.mock.calls.flat().join(' ')).not.toContain('NG0955');
    warn.mockRestore();
  });

  it('should dismiss with a note, and keep the dialog open with the error when refused', async () => {
    const root = await render();
    http.expectOne((r) => r.url === '/api/v1/admin/sharing/events').flush(page([anEvent()]));
    await flushAndRender(fixture);
    byTestId(root, 'sharing-row-menu')!.click();
    await fixture.whenStable();
    (document.querySelector('[data-testid="sharing-dismiss"]') as HTMLElement).click();
    await flushAndRender(fixture);
    const note = document.querySelector('[data-testid="sharing-note"]') as HTMLTextAreaElement;
    note.value = 'A trip abroad';
    note.dispatchEvent(new Event('input'));
    (document.querySelector('[data-testid="sharing-dismiss-submit"]') as HTMLElement).click();
    await flushAndRender(fixture);
    const first = http.expectOne(`/api/v1/admin/sharing/events/${EVENT_ID}/dismiss`);
    expect(first.request.body).toEqual({ note: 'A trip abroad' });
    first.flush(
      {
        error: {
          code: 'SHARING_EVENT_CLOSED',
          message: 'The event was already dismissed',
          requestId: 'r1',
        },
      },
      { status: 409, statusText: 'Conflict' },
    );
    await flushAndRender(fixture);
    expect(document.body.textContent).toContain('That event was already handled.');
    expect(notifier.show).not.toHaveBeenCalled();
  });
});

describe('MemberSharing', () => {
  it('should show the trust score, places and timeline, and switch the exempt flag', async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(MemberSharing);
    fixture.componentRef.setInput('userId', USER_ID);
    await fixture.whenStable();
    const member: SharingMember = {
      user: { id: USER_ID, username: 'wren' },
      trustScore: 80,
      exempt: false,
      suspendedUntil: null,
      maxStreams: 2,
      windowHours: 24,
      timeline: anEvent().evidence.sessions.map(({ offending: _o, ...s }) => s),
      networks: [{ network: '1.1.1.1', streams: 1, lastSeenAt: '2026-12-07T10:05:00.000Z' }],
      devices: [
        {
          deviceId: 'tv',
          name: 'Living room TV',
          client: null,
          lastSeenAt: '2026-12-07T10:05:00.000Z',
        },
      ],
      places: [{ city: 'Sydney', country: 'AU', latitude: -33.87, longitude: 151.21, streams: 1 }],
      events: [anEvent({ status: 'dismissed', note: 'trip' })],
    };
    http.expectOne(`/api/v1/admin/sharing/members/${USER_ID}`).flush(member);
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    expect(byTestId(root, 'trust-score')!.textContent).toBe('80');
    expect(root.textContent).toContain('Sydney, Australia');
    expect(byTestId(root, 'member-timeline')!.textContent).toContain('Living room TV');
    expect(byTestId(root, 'member-events')!.textContent).toContain('Dismissed');
    // The member's places on the world map, once the deferred map is in.
    await flushAndRender(fixture);
    const map = byTestId(root, 'world-map')!;
    expect(map.querySelectorAll('[data-testid="map-marker"]')).toHaveLength(1);
    expect(map.getAttribute('aria-label')).toBe('World map of the places: Sydney, Australia');

    (root.querySelector('[data-testid="sharing-exempt"] button') as HTMLElement).click();
    await flushAndRender(fixture);
    const put = http.expectOne(`/api/v1/admin/sharing/members/${USER_ID}/exempt`);
    expect(put.request.body).toEqual({ exempt: true });
    put.flush({ ...member, exempt: true });
    await flushAndRender(fixture);
    http.expectOne(`/api/v1/admin/sharing/members/${USER_ID}`).flush({ ...member, exempt: true });
    await flushAndRender(fixture);
    http.verify();
  });
});
