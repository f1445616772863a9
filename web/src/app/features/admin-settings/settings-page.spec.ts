import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { TranslocoService } from '@jsverse/transloco';
import type { SettingsTestReply } from '@usher/contracts';
import { errorBody, settle, refusal } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { unsavedSettingsGuard } from './routes';
import { MEDIA_KEY, MEDIA_URL, aGroup, aList, anItem } from './settings-fixtures';
import SettingsPage from './settings-page';

const LIST_URL = '/api/v1/admin/settings';

const LIST = aList(
  [
    aGroup('general', [anItem({ source: 'db', value: 'My cinema' })], false),
    aGroup('media_server', [
      MEDIA_URL,
      MEDIA_KEY,
      anItem({
        key: 'MEDIA_SERVER_TIMEOUT_SECONDS',
        group: 'media_server',
        label: 'Timeout (seconds)',
        type: 'integer',
        min: 1,
        max: 120,
        value: 15,
        default: 15,
      }),
    ]),
    aGroup('email', [
      anItem({
        key: 'SMTP_PASSWORD',
        group: 'email',
        label: 'Password',
        type: 'secret',
        sensitive: true,
        source: 'db',
        value: undefined,
        masked: '••••',
        state: 'undecryptable',
      }),
    ]),
    aGroup(
      'deployment',
      [
        anItem({
          key: 'PORT',
          group: 'deployment',
          editable: false,
          apply: 'restart',
          source: 'env',
          value: '8080',
        }),
      ],
      false,
    ),
  ],
  ['SMTP_PASSWORD'],
);

describe('SettingsPage', () => {
  let fixture: ComponentFixture<SettingsPage>;
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };
  let root: HTMLElement;

  async function render(group?: string, list = LIST, lang = 'en'): Promise<void> {
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: Notifier, useValue: notifier }],
    });
    TestBed.inject(TranslocoService).setActiveLang(lang);
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
    fixture = TestBed.createComponent(SettingsPage);
    if (group) fixture.componentRef.setInput('group', group);
    root = fixture.nativeElement as HTMLElement;
    await fixture.whenStable();
    http.expectOne(LIST_URL).flush(list);
    await settle();
    await fixture.whenStable();
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  async function type(id: string, value: string): Promise<void> {
    const input = byTestId(id) as HTMLInputElement;
    input.value = value;
    input.dispatchEvent(new Event('input'));
    await fixture.whenStable();
  }

  async function click(id: string): Promise<void> {
    byTestId(id)!.click();
    await fixture.whenStable();
  }

  afterEach(() => http.verify());

  it('should open the group named in the URL with source badges and the masked secret', async () => {
    await render('media_server');
    expect(byTestId('panel-media_server')).not.toBeNull();
    expect(byTestId('group-media_server')!.getAttribute('aria-selected')).toBe('true');
    const url = byTestId('setting-MEDIA_SERVER_URL')!;
    expect(url.querySelector('[data-testid="source-badge"]')!.textContent).toContain('Not set');
    const key = byTestId('setting-MEDIA_SERVER_API_KEY')!;
    expect(key.querySelector('[data-testid="source-badge"]')!.textContent).toContain('Database');
    expect(key.textContent).toContain('Saved (••••WXYZ)');
    expect((byTestId('setting-MEDIA_SERVER_API_KEY-input') as HTMLInputElement).value).toBe('');
  });

  it('should fall back to the first group for an unknown group name', async () => {
    await render('nope');
    expect(byTestId('panel-general')).not.toBeNull();
  });

  it('should flag undecryptable secrets on the group, the item and in a banner', async () => {
    await render('email');
    expect(byTestId('undecryptable-banner')!.textContent).toContain("1 secret can't be decrypted");
    expect(byTestId('group-email')!.textContent).toContain('1 needs attention');
    expect(byTestId('state-undecryptable')!.textContent).toContain("Can't decrypt — enter again");
  });

  it('should show read-only deployment values with the restart badge and no Save', async () => {
    await render('deployment');
    expect(byTestId('needs-restart')!.textContent).toContain('Restart needed');
    expect(byTestId('setting-PORT')!.textContent).toContain('8080');
    expect(byTestId('save')).toBeNull();
  });

  it('should keep one sticky bar: Test while clean, Save and Discard once edited', async () => {
    await render('general');
    // Not testable and clean: no bar at all.
    expect(byTestId('settings-actions')).toBeNull();
    await click('group-media_server');
    const bar = byTestId('settings-actions')!;
    expect(bar.classList).toContain('action-bar');
    expect(byTestId('test')!.textContent).toContain('Test connection');
    expect([byTestId('save'), byTestId('discard'), byTestId('unsaved-note')]).toEqual([
      null,
      null,
      null,
    ]);
    await type('setting-MEDIA_SERVER_URL-input', 'http://emby:8096');
    expect(byTestId('unsaved-note')!.textContent).toContain('Unsaved changes');
    expect(byTestId('test')!.textContent).toContain('Test with these changes');
    expect((byTestId('save') as HTMLButtonElement).disabled).toBe(false);
    await click('discard');
    expect(byTestId('save')).toBeNull();
  });

  it('should label each control once, by the setting heading', async () => {
    await render('media_server');
    expect(byTestId('panel-media_server')!.querySelectorAll('mat-label').length).toBe(0);
    const input = byTestId('setting-MEDIA_SERVER_URL-input')!;
    const label = root.querySelector(`#${input.getAttribute('aria-labelledby')}`)!;
    expect(label.textContent!.trim()).toBe('Server URL');
    expect(input.getAttribute('placeholder')).toBeNull();
  });

  it('should save only the typed keys and leave the untouched secret out', async () => {
    await render('media_server');
    expect(byTestId('save')).toBeNull();
    await type('setting-MEDIA_SERVER_URL-input', 'http://emby:8096');
    await type('setting-MEDIA_SERVER_TIMEOUT_SECONDS-input', '30');
    await click('save');
    const put = http.expectOne(`${LIST_URL}/media_server`);
    expect(put.request.method).toBe('PUT');
    expect(put.request.body).toEqual({
      values: { MEDIA_SERVER_URL: 'http://emby:8096', MEDIA_SERVER_TIMEOUT_SECONDS: 30 },
    });
    put.flush({
      group: 'media_server',
      items: [{ ...MEDIA_URL, source: 'db', hasValue: true, value: 'http://emby:8096' }, MEDIA_KEY],
    });
    await settle();
    await fixture.whenStable();
    expect(notifier.show).toHaveBeenCalledWith('adminSettings.saved');
    const badge = byTestId('setting-MEDIA_SERVER_URL')!.querySelector(
      '[data-testid="source-badge"]',
    );
    expect(badge!.textContent).toContain('Database');
    expect(byTestId('save')).toBeNull();
  });

  it('should send a typed secret, and null when it is cleared', async () => {
    await render('media_server');
    await type('setting-MEDIA_SERVER_API_KEY-input', 'abcdefghijklmnop1234');
    await click('save');
    const put = http.expectOne(`${LIST_URL}/media_server`);
    expect(put.request.body).toEqual({ values: { MEDIA_SERVER_API_KEY: 'abcdefghijklmnop1234' } });
    put.flush({ group: 'media_server', items: [MEDIA_URL, MEDIA_KEY] });
    await settle();
    await fixture.whenStable();
    await click('setting-MEDIA_SERVER_API_KEY-clear');
    expect(byTestId('setting-MEDIA_SERVER_API_KEY')!.textContent).toContain(
      'Cleared when you save',
    );
    await click('save');
    const clear = http.expectOne(`${LIST_URL}/media_server`);
    expect(clear.request.body).toEqual({ values: { MEDIA_SERVER_API_KEY: null } });
    clear.flush({ group: 'media_server', items: [MEDIA_URL, { ...MEDIA_KEY, source: 'unset' }] });
    await settle();
  });

  it('should revert a database value to default/env with null', async () => {
    await render('general');
    await click('setting-SITE_NAME-revert');
    await click('save');
    const put = http.expectOne(`${LIST_URL}/general`);
    expect(put.request.body).toEqual({ values: { SITE_NAME: null } });
    put.flush({ group: 'general', items: [anItem()] });
    await settle();
  });

  it('should put SETTING_INVALID messages on their fields and keep the draft', async () => {
    await render('media_server');
    await type('setting-MEDIA_SERVER_URL-input', 'ftp://nope');
    await click('save');
    http
      .expectOne(`${LIST_URL}/media_server`)
      .flush(
        errorBody('SETTING_INVALID', 'Some values are not valid', [
          { key: 'MEDIA_SERVER_URL', message: 'must be an http or https URL' },
        ]),
        { status: 400, statusText: 'Bad Request' },
      );
    await settle();
    await fixture.whenStable();
    expect(byTestId('setting-MEDIA_SERVER_URL-error')!.textContent).toContain(
      'must be an http or https URL',
    );
    expect(byTestId('setting-MEDIA_SERVER_URL-error')!.querySelector('.rule')!.textContent).toBe(
      'Enter an absolute http:// or https:// address',
    );
    expect(byTestId('fields-invalid')).not.toBeNull();
    expect(notifier.show).not.toHaveBeenCalled();
    expect((byTestId('save') as HTMLButtonElement).disabled).toBe(false);
    // Typing again takes the message away.
    await type('setting-MEDIA_SERVER_URL-input', 'http://ok:8096');
    expect(byTestId('setting-MEDIA_SERVER_URL-error')).toBeNull();
  });

  it('should ask for the API key in place when a moved address needs it again', async () => {
    await render('media_server');
    await type('setting-MEDIA_SERVER_URL-input', 'http://elsewhere:8096');
    await click('save');
    http
      .expectOne(`${LIST_URL}/media_server`)
      .flush(
        errorBody(
          'SECRET_REENTRY_REQUIRED',
          'MEDIA_SERVER_URL changed: enter MEDIA_SERVER_API_KEY again to use it there',
          { keys: ['MEDIA_SERVER_API_KEY'], changed: ['MEDIA_SERVER_URL'] },
        ),
        { status: 422, statusText: 'Unprocessable Entity' },
      );
    await settle();
    await fixture.whenStable();
    expect(byTestId('setting-MEDIA_SERVER_API_KEY-reentry')!.textContent).toContain(
      'Enter the secret again',
    );
    expect(byTestId('setting-MEDIA_SERVER_API_KEY-input')!.getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(byTestId('setting-MEDIA_SERVER_URL-reentry')).toBeNull();
    expect(byTestId('group-error')!.textContent).toContain('enter the highlighted secrets again');
    expect(notifier.show).not.toHaveBeenCalled();
    // Typing the key takes the request away; the next save carries the draft and the key.
    await type('setting-MEDIA_SERVER_API_KEY-input', 'NewKey0123456789abcd');
    expect(byTestId('setting-MEDIA_SERVER_API_KEY-reentry')).toBeNull();
    await click('save');
    const put = http.expectOne(`${LIST_URL}/media_server`);
    expect(put.request.body).toEqual({
      values: {
        MEDIA_SERVER_URL: 'http://elsewhere:8096',
        MEDIA_SERVER_API_KEY: 'NewKey0123456789abcd',
      },
    });
    put.flush({ group: 'media_server', items: [MEDIA_URL, MEDIA_KEY] });
    await settle();
  });

  it('should ask for the secret when a connection test of a moved address is refused', async () => {
    await render('media_server');
    await type('setting-MEDIA_SERVER_URL-input', 'http://elsewhere:8096');
    await click('test');
    http.expectOne(`${LIST_URL}/media_server/test`).flush(
      errorBody('SECRET_REENTRY_REQUIRED', 'x', {
        keys: ['MEDIA_SERVER_API_KEY'],
        changed: ['MEDIA_SERVER_URL'],
      }),
      { status: 422, statusText: 'Unprocessable Entity' },
    );
    await settle();
    await fixture.whenStable();
    expect(byTestId('setting-MEDIA_SERVER_API_KEY-reentry')).not.toBeNull();
    expect(byTestId('test-error')!.textContent).toContain('enter the highlighted secrets again');
    http.expectNone(`${LIST_URL}/media_server`);
  });

  it('should explain a refused number in Chinese with its limits, keeping the detail', async () => {
    await render('media_server', LIST, 'zh-CN');
    await type('setting-MEDIA_SERVER_TIMEOUT_SECONDS-input', '500');
    await click('save');
    http
      .expectOne(`${LIST_URL}/media_server`)
      .flush(
        errorBody('SETTING_INVALID', 'Some values are not valid', [
          { key: 'MEDIA_SERVER_TIMEOUT_SECONDS', message: 'must be at most 120' },
        ]),
        { status: 400, statusText: 'Bad Request' },
      );
    await settle();
    await fixture.whenStable();
    const error = byTestId('setting-MEDIA_SERVER_TIMEOUT_SECONDS-error')!;
    expect(error.querySelector('.rule')!.textContent).toBe('请输入 1 到 120 之间的整数');
    expect(error.querySelector('[lang="en"]')!.textContent).toBe('must be at most 120');
  });

  it('should test the unsaved draft and list each check with status, message and latency', async () => {
    await render('media_server');
    await type('setting-MEDIA_SERVER_URL-input', 'http://emby:8096');
    await click('test');
    expect(byTestId('test')!.textContent).toContain('Testing…');
    expect((byTestId('test') as HTMLButtonElement).disabled).toBe(true);
    const post = http.expectOne(`${LIST_URL}/media_server/test`);
    expect(post.request.body).toEqual({ values: { MEDIA_SERVER_URL: 'http://emby:8096' } });
    const reply: SettingsTestReply = {
      ok: false,
      checks: [
        {
          target: 'server',
          status: 'fail',
          message: 'The server refused the API key (401)',
          reason: 'auth',
          latencyMs: 12,
        },
        { target: 'webhook', status: 'warn', message: 'No webhook token', latencyMs: 0 },
      ],
    };
    post.flush(reply);
    await settle();
    await fixture.whenStable();
    const results = byTestId('test-results')!;
    expect(results.textContent).toContain('Some checks failed');
    expect(byTestId('check-server')!.textContent).toContain('Server');
    expect(byTestId('check-server')!.textContent).toContain('Failed');
    expect(byTestId('check-server')!.textContent).toContain('The server refused the API key (401)');
    expect(byTestId('check-server')!.textContent).toContain('12 ms');
    expect(byTestId('reason-server')!.textContent).toBe('Credentials refused');
    expect(byTestId('check-webhook')!.textContent).toContain('Warning');
    expect(byTestId('reason-webhook')).toBeNull();
    http.expectNone(`${LIST_URL}/media_server`);
  });

  it('should name why a check failed in Chinese, keeping the details', async () => {
    await render('media_server', LIST, 'zh-CN');
    await click('test');
    http.expectOne(`${LIST_URL}/media_server/test`).flush({
      ok: false,
      checks: [
        {
          target: 'server',
          status: 'fail',
          message: "Timed out after 10 s: no answer before the connection test's 10 s limit",
          reason: 'deadline',
          latencyMs: 10_000,
        },
      ],
    } satisfies SettingsTestReply);
    await settle();
    await fixture.whenStable();
    expect(byTestId('reason-server')!.textContent).toBe('已达 10 秒上限而中止');
    expect(byTestId('check-server')!.textContent).toContain('失败');
    expect(byTestId('check-server')!.querySelector('[lang="en"]')!.textContent).toContain(
      'Timed out after 10 s',
    );
  });

  it('should send the test recipient for the email group', async () => {
    await render('email');
    await type('test-recipient', 'ops@example.com');
    await click('test');
    const post = http.expectOne(`${LIST_URL}/email/test`);
    expect(post.request.body).toEqual({ to: 'ops@example.com' });
    post.flush({
      ok: true,
      checks: [{ target: 'smtp', status: 'ok', message: 'sent', latencyMs: 5 }],
    });
    await settle();
    await fixture.whenStable();
    expect(byTestId('test-results')!.textContent).toContain('All checks passed');
  });

  it('should show a load failure with Retry', async () => {
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: Notifier, useValue: notifier }],
    });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(SettingsPage);
    root = fixture.nativeElement as HTMLElement;
    await fixture.whenStable();
    http.expectOne(LIST_URL).flush(...refusal(500, 'INTERNAL_ERROR'));
    await settle();
    await fixture.whenStable();
    expect(byTestId('settings-error')!.textContent).toContain('Reference: req-123');
    (byTestId('settings-error')!.querySelector('button') as HTMLButtonElement).click();
    http.expectOne(LIST_URL).flush(LIST);
    await settle();
    await fixture.whenStable();
    expect(byTestId('settings-error')).toBeNull();
  });

  it('should ask before leaving with unsaved edits, and not otherwise', async () => {
    await render('media_server');
    const confirm = jest.spyOn(window, 'confirm').mockReturnValue(false);
    const guard = () =>
      TestBed.runInInjectionContext(() =>
        unsavedSettingsGuard(fixture.componentInstance, null!, null!, null!),
      );
    expect(guard()).toBe(true);
    expect(confirm).not.toHaveBeenCalled();
    await type('setting-MEDIA_SERVER_URL-input', 'http://emby:8096');
    expect(guard()).toBe(false);
    expect(confirm).toHaveBeenCalledWith('You have unsaved settings. Leave anyway?');
  });

  it('should offer the media-server libraries for library ids', async () => {
    const libraries = anItem({
      key: 'MEMBER_LIBRARY_IDS',
      group: 'media_server',
      label: 'Member libraries',
      type: 'list',
      value: ['lib-gone'],
      default: [],
      source: 'db',
    });
    const configured = { ...MEDIA_URL, value: 'http://emby:8096', source: 'db' as const };
    await render(
      'media_server',
      aList([aGroup('media_server', [configured, MEDIA_KEY, libraries])]),
    );
    http.expectOne('/api/v1/admin/media-server/libraries').flush({
      data: [
        { id: 'lib-1', name: 'Movies', collectionType: 'movies' },
        { id: 'lib-2', name: 'TV Shows', collectionType: 'tvshows' },
      ],
    });
    await settle();
    await fixture.whenStable();
    const select = byTestId('setting-MEMBER_LIBRARY_IDS-input')!;
    expect(select.tagName.toLowerCase()).toBe('mat-select');
    expect(select.textContent).toContain('lib-gone');
  });

  it('should keep library ids as chips when the libraries cannot be listed', async () => {
    const libraries = anItem({
      key: 'RANKING_LIBRARY_IDS',
      group: 'schedule',
      label: 'Ranking libraries',
      type: 'list',
      value: [],
      default: [],
    });
    const configured = { ...MEDIA_URL, value: 'http://emby:8096', source: 'db' as const };
    await render(
      'schedule',
      aList([aGroup('media_server', [configured, MEDIA_KEY]), aGroup('schedule', [libraries])]),
    );
    http
      .expectOne('/api/v1/admin/media-server/libraries')
      .flush(...refusal(503, 'NOT_CONFIGURED', 'x', { system: 'media_server' }));
    await settle();
    await fixture.whenStable();
    expect(byTestId('setting-RANKING_LIBRARY_IDS-input')!.tagName.toLowerCase()).toBe('input');
  });

  it('should move between groups with the arrow keys, Home and End', async () => {
    await render('general');
    const press = async (key: string) => {
      root
        .querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')!
        .dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      await fixture.whenStable();
    };
    await press('ArrowDown');
    expect(byTestId('panel-media_server')).not.toBeNull();
    expect(router.navigate).toHaveBeenLastCalledWith([], {
      queryParams: { group: 'media_server' },
      queryParamsHandling: 'merge',
      replaceUrl: true,
    });
    await press('End');
    expect(byTestId('panel-deployment')).not.toBeNull();
    await press('ArrowDown');
    expect(byTestId('panel-general')).not.toBeNull();
    await press('ArrowUp');
    expect(byTestId('panel-deployment')).not.toBeNull();
    await press('Home');
    expect(byTestId('panel-general')).not.toBeNull();
    expect(document.activeElement?.getAttribute('data-testid')).toBe('group-general');
  });

  it('should not ask an unconfigured media server for its libraries', async () => {
    const libraries = anItem({
      key: 'MEMBER_LIBRARY_IDS',
      group: 'media_server',
      type: 'list',
      value: [],
      default: [],
    });
    await render(
      'media_server',
      aList([aGroup('media_server', [MEDIA_URL, MEDIA_KEY, libraries])]),
    );
    http.expectNone('/api/v1/admin/media-server/libraries');
    expect(byTestId('setting-MEMBER_LIBRARY_IDS-input')!.tagName.toLowerCase()).toBe('input');
  });

  it('should generate a webhook token, show its URL once and send it on save', async () => {
    const token = anItem({
      key: 'MEDIA_SERVER_WEBHOOK_TOKEN',
      group: 'media_server',
      type: 'secret',
      sensitive: true,
      allowEmpty: true,
      value: undefined,
      default: undefined,
      source: 'unset',
      hasValue: false,
    });
    const site = anItem({ key: 'PUBLIC_WEB_URL', type: 'url', value: 'https://usher.example' });
    await render(
      'media_server',
      aList([aGroup('general', [site], false), aGroup('media_server', [token])]),
    );
    await click('generate-token');
    const shown = byTestId('generated-webhook-url')!.textContent!;
    const match =
      /https:\/\/usher\.example\/api\/v1\/webhooks\/media-server\?token=([0-9a-f]{64})/.exec(shown);
    expect(match).not.toBeNull();
    await click('save');
    const put = http.expectOne(`${LIST_URL}/media_server`);
    expect(put.request.body).toEqual({ values: { MEDIA_SERVER_WEBHOOK_TOKEN: match![1] } });
    put.flush({ group: 'media_server', items: [{ ...token, source: 'db', hasValue: true }] });
    await settle();
  });
});
