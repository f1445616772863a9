import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MatDialog, MatDialogRef } from '@angular/material/dialog';
import type { Announcement, SettingItem, UpcomingReminder } from '@usher/contracts';
import { errorBody, storeSession } from '../../../testing/fixtures';
import { scriptedDialog } from '../../../testing/dialog';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender, typeInto } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { AnnouncementDialog } from './announcement-dialog';
import LifecyclePage from './lifecycle-page';
import { PREVIEW_DELAY_MS, TemplateEditor } from './template-editor';
import { UpcomingTimeline, groupByDay } from './upcoming-timeline';

const ANA = '01936f6e-8a7b-7c3d-9e4f-0000000000a1';
const BEN = '01936f6e-8a7b-7c3d-9e4f-0000000000b2';
const ANNOUNCEMENT_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000c3';
const DAY = 86_400_000;

function aReminder(overrides: Partial<UpcomingReminder> = {}): UpcomingReminder {
  return {
    userId: ANA,
    username: 'ana',
    expiresAt: new Date(Date.now() + 3 * DAY).toISOString(),
    days: 3,
    dueAt: new Date().toISOString(),
    channels: [
      { channel: 'email', status: 'pending', detail: null },
      { channel: 'messenger', status: 'skipped', detail: 'not linked to the bot' },
    ],
    ...overrides,
  };
}

function anAnnouncement(overrides: Partial<Announcement> = {}): Announcement {
  return {
    id: ANNOUNCEMENT_ID,
    title: 'Maintenance on Sunday',
    body: 'The server restarts at 03:00.',
    audience: 'active',
    channels: ['email'],
    recipients: 12,
    status: 'done',
    createdBy: 'admin',
    createdAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:01:00.000Z',
    read: 4,
    email: { sent: 10, failed: 1, skipped: 1 },
    messenger: { sent: 0, failed: 0, skipped: 0 },
    ...overrides,
  };
}

function setting(key: string, value: string): SettingItem {
  return {
    key,
    group: 'lifecycle',
    label: key,
    description: '',
    type: key.includes('TEMPLATE') ? 'text' : 'string',
    multiline: key.includes('TEMPLATE'),
    sensitive: false,
    editable: true,
    allowEmpty: false,
    apply: 'live',
    source: 'default',
    hasValue: false,
    value: null,
    default: value,
    state: 'ok',
  } as SettingItem;
}

const SETTINGS = {
  groups: [
    {
      group: 'lifecycle',
      label: 'Membership lifecycle',
      testable: false,
      items: [
        setting('REMINDER_SUBJECT_EN', '{siteName}: {daysLeft} days left'),
        setting('REMINDER_TEMPLATE_EN', 'Hi {username}, renew: {renewUrl}'),
        setting('REMINDER_SUBJECT_ZH_CN', '{siteName}：剩余 {daysLeft} 天'),
        setting('REMINDER_TEMPLATE_ZH_CN', '{username}，你好：{renewUrl}'),
        setting('DELETION_WARNING_SUBJECT_EN', '{siteName}: deleted on {deleteAt}'),
        setting('DELETION_WARNING_TEMPLATE_EN', 'Hi {username}, renew by {deleteAt}'),
        setting('DELETION_WARNING_SUBJECT_ZH_CN', '{siteName}：{deleteAt} 删除'),
        setting('DELETION_WARNING_TEMPLATE_ZH_CN', '{username}：{deleteAt} 删除'),
        setting('INACTIVITY_WARNING_SUBJECT_EN', '{siteName}: {days} quiet days'),
        setting('INACTIVITY_WARNING_TEMPLATE_EN', 'Hi {username}, play before {disableAt}'),
        setting('INACTIVITY_WARNING_SUBJECT_ZH_CN', '{siteName}：{days} 天未播放'),
        setting('INACTIVITY_WARNING_TEMPLATE_ZH_CN', '{username}：{disableAt} 暂停'),
      ],
    },
  ],
  encryption: { keyId: 'k1', undecryptable: [] },
};

/** The settings list after a save of one key. */
function settingsWith(key: string, value: string) {
  const [group] = SETTINGS.groups;
  return {
    ...SETTINGS,
    groups: [{ ...group!, items: group!.items.map((i) => (i.key === key ? { ...i, value } : i)) }],
  };
}

const SAMPLE = {
  username: 'admin',
  siteName: 'Usher',
  daysLeft: 3,
  expiresAt: '2026-03-04T10:00:00.000Z',
  renewUrl: 'https://usher.example/console/renewal?from=reminder',
};

describe('groupByDay', () => {
  it('should group reminders by the local day they are due, keeping their order', () => {
    const now = new Date(2026, 2, 1, 9, 0);
    const at = (day: number, hour: number) => new Date(2026, 2, day, hour).toISOString();
    const days = groupByDay(
      [
        aReminder({ username: 'ana', dueAt: at(1, 9) }),
        aReminder({ username: 'ben', dueAt: at(2, 8) }),
        aReminder({ username: 'cy', dueAt: at(2, 23) }),
        aReminder({ username: 'dee', dueAt: at(8, 0) }),
      ],
      now,
    );
    expect(days.map((d) => [d.key, d.offset, d.items.map((i) => i.username)])).toEqual([
      ['2026-03-01', 0, ['ana']],
      ['2026-03-02', 1, ['ben', 'cy']],
      ['2026-03-08', 7, ['dee']],
    ]);
  });
});

describe('UpcomingTimeline', () => {
  it('should show who gets which reminder, when and how each channel stands', async () => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(UpcomingTimeline);
    await fixture.whenStable();
    const request = http.expectOne((r) => r.url === '/api/v1/admin/lifecycle/preview');
    expect(request.request.method).toBe('GET');
    expect(request.request.params.get('days')).toBe('14');
    request.flush({
      data: [
        aReminder(),
        aReminder({
          userId: BEN,
          username: 'ben',
          days: 7,
          dueAt: new Date(Date.now() + 2 * DAY).toISOString(),
        }),
      ],
      total: 2,
      page: 1,
      pageSize: 100,
    });
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    expect(byTestId(root, 'upcoming-summary')!.textContent).toContain(
      '2 reminders in the next 14 days · 2 members',
    );
    const items = root.querySelectorAll('[data-testid="upcoming-item"]');
    expect([...items].map((i) => i.getAttribute('data-user'))).toEqual(['ana', 'ben']);
    expect(root.querySelector('.day .when')!.textContent).toContain('Today');
    expect(items[0]!.textContent).toContain('3-day reminder');
    const skipped = items[0]!.querySelector('[data-channel="messenger"]')!;
    expect(skipped.getAttribute('data-status')).toBe('skipped');
    expect(skipped.textContent).toContain('Telegram: skipped');
    expect(skipped.textContent).toContain('not linked to the bot');
    expect(items[0]!.querySelector('a')!.getAttribute('href')).toBe(`/admin/users/${ANA}`);
    http.verify();
  });

  it('should say "more than 10,000" when the API stopped counting', async () => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(UpcomingTimeline);
    await fixture.whenStable();
    http
      .expectOne((r) => r.url === '/api/v1/admin/lifecycle/preview')
      .flush({ data: [aReminder()], total: 10_000, totalCapped: true, page: 1, pageSize: 100 });
    await flushAndRender(fixture);
    const summary = (fixture.nativeElement as HTMLElement).querySelector(
      '[data-testid="upcoming-summary"]',
    )!;
    expect(summary.textContent).toContain('More than 10,000 reminders in the next 14 days');
    http.verify();
  });
});

describe('TemplateEditor', () => {
  jest.setTimeout(30_000);
  afterEach(() => jest.useRealTimers());

  async function render() {
    jest.useFakeTimers({ advanceTimers: true });
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    const http = TestBed.inject(HttpTestingController);
    const notifier = TestBed.inject(Notifier);
    const shown = jest.spyOn(notifier, 'show').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(TemplateEditor);
    await fixture.whenStable();
    http.expectOne('/api/v1/admin/settings').flush(SETTINGS);
    await flushAndRender(fixture);
    return { fixture, http, shown, root: fixture.nativeElement as HTMLElement };
  }

  async function answerPreview(
    fixture: ComponentFixture<unknown>,
    http: HttpTestingController,
    reply: (body: { subject: string; text: string }) => object,
    status = 200,
  ) {
    jest.advanceTimersByTime(PREVIEW_DELAY_MS);
    await flushAndRender(fixture);
    const request = http.expectOne('/api/v1/admin/lifecycle/preview');
    expect(request.request.method).toBe('POST');
    const body = request.request.body as { locale: string; subject: string; text: string };
    request.flush(reply(body), status === 200 ? undefined : { status, statusText: 'Bad' });
    await flushAndRender(fixture);
    return body;
  }

  /** Clicks a channel's test button: the request carries the kind and language shown. */
  async function sendTest(
    fixture: ComponentFixture<unknown>,
    http: HttpTestingController,
    expected: { kind: string; channel: string; locale: string },
  ) {
    const root = fixture.nativeElement as HTMLElement;
    byTestId(root, `template-test-${expected.channel}`)!.click();
    await flushAndRender(fixture);
    const test = http.expectOne('/api/v1/admin/lifecycle/test');
    expect(test.request.body).toEqual(expected);
    test.flush({ ...expected, status: 'sent' });
    await flushAndRender(fixture);
  }

  it('should preview the draft once typing pauses, and show a refused placeholder there', async () => {
    const { fixture, http, root } = await render();
    expect((byTestId(root, 'template-subject') as HTMLInputElement).value).toBe(
      '{siteName}: {daysLeft} days left',
    );
    const first = await answerPreview(fixture, http, (body) => ({
      kind: 'expiry_reminder',
      locale: 'en',
      subject: 'Usher: 3 days left',
      text: body.text.replace('{username}', 'admin'),
      sample: SAMPLE,
    }));
    expect(first).toEqual({
      kind: 'expiry_reminder',
      locale: 'en',
      subject: '{siteName}: {daysLeft} days left',
      text: 'Hi {username}, renew: {renewUrl}',
    });
    expect(byTestId(root, 'preview-subject')!.textContent).toBe('Usher: 3 days left');

    typeInto(root, 'template-text', 'Bye {nickname}');
    await flushAndRender(fixture);
    // Nothing is asked while the admin is still typing.
    http.expectNone('/api/v1/admin/lifecycle/preview');
    await answerPreview(
      fixture,
      http,
      () =>
        errorBody('SETTING_INVALID', 'Some settings are not valid', [
          { key: 'REMINDER_TEMPLATE_EN', message: 'unknown placeholder {nickname}' },
        ]),
      400,
    );
    expect(byTestId(root, 'template-preview-error')!.textContent).toContain(
      'unknown placeholder {nickname}',
    );
  });

  it('should insert a placeholder, save both languages together, then send a test', async () => {
    const { fixture, http, root, shown } = await render();
    await answerPreview(fixture, http, () => ({
      kind: 'expiry_reminder',
      locale: 'en',
      subject: 's',
      text: 't',
      sample: SAMPLE,
    }));
    const save = () => byTestId(root, 'template-save') as HTMLButtonElement;
    expect(save().disabled).toBe(true);

    byTestId(root, 'placeholder-daysLeft')!.click();
    await flushAndRender(fixture);
    expect((byTestId(root, 'template-text') as HTMLTextAreaElement).value).toContain('{daysLeft}');
    // The test sends the saved text: not while there are changes.
    expect((byTestId(root, 'template-test-email') as HTMLButtonElement).disabled).toBe(true);

    save().click();
    await flushAndRender(fixture);
    const put = http.expectOne('/api/v1/admin/settings/lifecycle');
    expect(put.request.method).toBe('PUT');
    const values = (put.request.body as { values: Record<string, string> }).values;
    // Only what changed: an untouched default stays a default.
    expect(Object.keys(values)).toEqual(['REMINDER_TEMPLATE_EN']);
    expect(values['REMINDER_TEMPLATE_EN']).toContain('{daysLeft}');
    put.flush({ group: 'lifecycle', items: [] });
    await flushAndRender(fixture);
    expect(shown).toHaveBeenCalledWith('lifecycle.templates.saved');
    http
      .expectOne('/api/v1/admin/settings')
      .flush(settingsWith('REMINDER_TEMPLATE_EN', values['REMINDER_TEMPLATE_EN']!));
    await flushAndRender(fixture);
    expect(save().disabled).toBe(true);

    byTestId(root, 'template-test-email')!.click();
    await flushAndRender(fixture);
    const test = http.expectOne('/api/v1/admin/lifecycle/test');
    expect(test.request.body).toEqual({ kind: 'expiry_reminder', channel: 'email', locale: 'en' });
    test.flush(
      errorBody('REMINDER_CHANNEL_UNAVAILABLE', 'You cannot be reached on that channel.'),
      { status: 422, statusText: 'Unprocessable' },
    );
    await flushAndRender(fixture);
    expect(byTestId(root, 'template-test-error')!.textContent).toContain('cannot be reached');

    byTestId(root, 'template-locale-zh-CN')!.querySelector('button')!.click();
    await flushAndRender(fixture);
    expect((byTestId(root, 'template-subject') as HTMLInputElement).value).toBe(
      '{siteName}：剩余 {daysLeft} 天',
    );
    await sendTest(fixture, http, {
      kind: 'expiry_reminder',
      channel: 'messenger',
      locale: 'zh-CN',
    });
    expect(shown).toHaveBeenCalledWith('lifecycle.templates.testSent.messenger');
  });

  it("should switch between the kinds, with each kind's texts, placeholders, preview and test", async () => {
    const { fixture, http, root, shown } = await render();
    await answerPreview(fixture, http, () => ({
      kind: 'expiry_reminder',
      locale: 'en',
      subject: 's',
      text: 't',
      sample: SAMPLE,
    }));
    const placeholders = () =>
      [...root.querySelectorAll('[data-testid^="placeholder-"]')].map((b) =>
        b.getAttribute('data-testid'),
      );
    expect(placeholders()).toEqual([
      'placeholder-username',
      'placeholder-siteName',
      'placeholder-daysLeft',
      'placeholder-expiresAt',
      'placeholder-renewUrl',
    ]);

    byTestId(root, 'template-kind-deletion_warning')!.querySelector('button')!.click();
    await flushAndRender(fixture);
    expect((byTestId(root, 'template-subject') as HTMLInputElement).value).toBe(
      '{siteName}: deleted on {deleteAt}',
    );
    // The reminder's preview is not shown as the deletion warning's while that one loads.
    expect(byTestId(root, 'preview-subject')).toBeNull();
    expect(byTestId(root, 'template-kind-hint')!.textContent).toContain(
      "3 days before an expired member's media account is deleted",
    );
    expect(placeholders()).toEqual([
      'placeholder-username',
      'placeholder-siteName',
      'placeholder-expiresAt',
      'placeholder-deleteAt',
      'placeholder-renewUrl',
    ]);
    const deletion = await answerPreview(fixture, http, (body) => ({
      kind: 'deletion_warning',
      locale: 'en',
      subject: 'Usher: deleted on 2026-03-04 10:00 UTC',
      text: body.text,
      sample: {
        username: 'admin',
        siteName: 'Usher',
        expiresAt: '2026-02-05T10:00:00.000Z',
        deleteAt: '2026-03-04T10:00:00.000Z',
        renewUrl: 'https://usher.example/console/renewal?from=reminder',
      },
    }));
    expect(deletion).toEqual({
      kind: 'deletion_warning',
      locale: 'en',
      subject: '{siteName}: deleted on {deleteAt}',
      text: 'Hi {username}, renew by {deleteAt}',
    });
    expect(byTestId(root, 'preview-subject')!.textContent).toBe(
      'Usher: deleted on 2026-03-04 10:00 UTC',
    );
    expect(root.querySelector('.sample')!.textContent).toContain('3 days before the deletion');

    // An edit to the inactivity warning in Chinese is kept while switching, and saved alone.
    byTestId(root, 'template-kind-inactivity_warning')!.querySelector('button')!.click();
    byTestId(root, 'template-locale-zh-CN')!.querySelector('button')!.click();
    await flushAndRender(fixture);
    expect(placeholders()).toEqual([
      'placeholder-username',
      'placeholder-siteName',
      'placeholder-days',
      'placeholder-disableAt',
    ]);
    const inactivitySample = {
      username: 'admin',
      siteName: 'Usher',
      days: 60,
      disableAt: '2026-03-08T10:00:00.000Z',
    };
    // Asked at once on switching, without waiting for a pause in typing.
    const switched = http.expectOne('/api/v1/admin/lifecycle/preview');
    expect(switched.request.body).toMatchObject({ kind: 'inactivity_warning', locale: 'zh-CN' });
    switched.flush({
      kind: 'inactivity_warning',
      locale: 'zh-CN',
      subject: 'Usher：60 天未播放',
      text: 'admin：2026-03-08 10:00 UTC 暂停',
      sample: inactivitySample,
    });
    await flushAndRender(fixture);
    byTestId(root, 'placeholder-days')!.click();
    await flushAndRender(fixture);
    const inactivity = await answerPreview(fixture, http, (body) => ({
      kind: 'inactivity_warning',
      locale: 'zh-CN',
      subject: 'Usher：60 天未播放',
      text: body.text,
      sample: inactivitySample,
    }));
    expect(inactivity).toMatchObject({ kind: 'inactivity_warning', locale: 'zh-CN' });
    expect(inactivity.text).toBe('{username}：{disableAt} 暂停{days}');
    expect(root.querySelector('.sample')!.textContent).toContain('after 60 days without playback');
    byTestId(root, 'template-kind-expiry_reminder')!.querySelector('button')!.click();
    await flushAndRender(fixture);
    expect((byTestId(root, 'template-text') as HTMLTextAreaElement).value).toBe(
      '{username}，你好：{renewUrl}',
    );
    byTestId(root, 'template-kind-inactivity_warning')!.querySelector('button')!.click();
    await flushAndRender(fixture);
    expect((byTestId(root, 'template-text') as HTMLTextAreaElement).value).toBe(
      '{username}：{disableAt} 暂停{days}',
    );
    (byTestId(root, 'template-save') as HTMLButtonElement).click();
    await flushAndRender(fixture);
    const put = http.expectOne('/api/v1/admin/settings/lifecycle');
    expect(put.request.body).toEqual({
      values: { INACTIVITY_WARNING_TEMPLATE_ZH_CN: '{username}：{disableAt} 暂停{days}' },
    });
    put.flush({ group: 'lifecycle', items: [] });
    await flushAndRender(fixture);
    http
      .expectOne('/api/v1/admin/settings')
      .flush(
        settingsWith('INACTIVITY_WARNING_TEMPLATE_ZH_CN', '{username}：{disableAt} 暂停{days}'),
      );
    await flushAndRender(fixture);

    await sendTest(fixture, http, {
      kind: 'inactivity_warning',
      channel: 'webhook',
      locale: 'zh-CN',
    });
    expect(shown).toHaveBeenCalledWith('lifecycle.templates.testSent.webhook');
  });
});

describe('AnnouncementDialog', () => {
  it('should post the announcement and close with the recipients', async () => {
    const close = jest.fn();
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: MatDialogRef, useValue: { close } },
      ],
    });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(AnnouncementDialog);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;

    // Empty: nothing is sent.
    byTestId(root, 'announce-send')!.click();
    await flushAndRender(fixture);
    http.expectNone('/api/v1/admin/announcements');

    typeInto(root, 'announce-title', '  New films  ');
    typeInto(root, 'announce-body', 'Ten new films this week.');
    byTestId(root, 'announce-channel-messenger')!.querySelector('input')!.click();
    byTestId(root, 'announce-channel-email')!.querySelector('input')!.click();
    await flushAndRender(fixture);
    byTestId(root, 'announce-send')!.click();
    await flushAndRender(fixture);
    const post = http.expectOne('/api/v1/admin/announcements');
    expect(post.request.body).toEqual({
      title: 'New films',
      body: 'Ten new films this week.',
      audience: 'active',
      channels: ['email', 'messenger'],
    });
    post.flush({ id: ANNOUNCEMENT_ID, recipients: 37 }, { status: 202, statusText: 'Accepted' });
    await flushAndRender(fixture);
    expect(close).toHaveBeenCalledWith({ id: ANNOUNCEMENT_ID, recipients: 37 });
  });

  it('should keep the dialog open and say why when the API refuses', async () => {
    const close = jest.fn();
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: MatDialogRef, useValue: { close } }],
    });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(AnnouncementDialog);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    typeInto(root, 'announce-title', 'Hello');
    typeInto(root, 'announce-body', 'World');
    await flushAndRender(fixture);
    byTestId(root, 'announce-send')!.click();
    await flushAndRender(fixture);
    http
      .expectOne('/api/v1/admin/announcements')
      .flush(errorBody('VALIDATION_FAILED', 'Title too long'), {
        status: 400,
        statusText: 'Bad',
      });
    await flushAndRender(fixture);
    expect(close).not.toHaveBeenCalled();
    expect(byTestId(root, 'announce-error')!.textContent).toContain('not valid');
  });
});

describe('LifecyclePage', () => {
  jest.setTimeout(30_000);

  async function render(tab: string, dialog?: MatDialog, inputs: Record<string, string> = {}) {
    storeSession();
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        ...(dialog ? [{ provide: MatDialog, useValue: dialog }] : []),
      ],
    });
    const http = TestBed.inject(HttpTestingController);
    const shown = jest.spyOn(TestBed.inject(Notifier), 'show').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(LifecyclePage);
    fixture.componentRef.setInput('tab', tab);
    for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
    await fixture.whenStable();
    return { fixture, http, shown, root: fixture.nativeElement as HTMLElement };
  }

  it('should list the notices with the filters from the URL', async () => {
    const { fixture, http, root } = await render('log', undefined, {
      status: 'failed',
      kind: 'bogus',
    });
    const request = http.expectOne((r) => r.url === '/api/v1/admin/notices');
    expect(request.request.params.get('status')).toBe('failed');
    expect(request.request.params.has('kind')).toBe(false);
    request.flush({
      data: [
        {
          id: ANNOUNCEMENT_ID,
          userId: ANA,
          username: 'ana',
          kind: 'expiry_reminder',
          channel: 'email',
          status: 'failed',
          attempts: 2,
          detail: 'SMTP answered 421',
          expiresAt: '2026-03-10T00:00:00.000Z',
          days: 7,
          createdAt: '2026-03-03T00:15:00.000Z',
          updatedAt: '2026-03-03T01:15:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      pageSize: 20,
    });
    await flushAndRender(fixture);
    const row = root.querySelector('[data-notice]')!;
    expect(row.textContent).toContain('Renewal reminder');
    expect(row.textContent).toContain('7 days before the end');
    expect(row.textContent).toContain('Failed');
    expect(row.textContent).toContain('SMTP answered 421');
    expect(row.textContent).toContain('2 tries');
    // No other tab loaded anything.
    http.verify();
  });

  it('should compose an announcement, report its recipients and list it', async () => {
    const dialog = scriptedDialog(() => ({ id: ANNOUNCEMENT_ID, recipients: 37 }));
    const { fixture, http, shown, root } = await render('announcements', dialog);
    http
      .expectOne((r) => r.url === '/api/v1/admin/announcements')
      .flush({ data: [], total: 0, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    expect(root.textContent).toContain('No announcements yet.');

    byTestId(root, 'announce-open')!.click();
    await flushAndRender(fixture);
    expect(dialog.open).toHaveBeenCalledWith(AnnouncementDialog, expect.any(Object));
    expect(byTestId(root, 'announce-posted')!.textContent).toContain('Posted to 37 members.');
    expect(shown).toHaveBeenCalledWith('lifecycle.announce.posted', { n: 37 });
    http
      .expectOne((r) => r.url === '/api/v1/admin/announcements')
      .flush({ data: [anAnnouncement()], total: 1, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    const row = root.querySelector(`[data-announcement="${ANNOUNCEMENT_ID}"]`)!;
    expect(row.textContent).toContain('Maintenance on Sunday');
    expect(row.textContent).toContain('Active members');
    expect(row.querySelector('[data-channel="email"]')!.textContent).toContain(
      '10 sent · 1 failed · 1 skipped',
    );
    http.verify();
  });
});
