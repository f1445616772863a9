import { HttpTestingController } from '@angular/common/http/testing';
import {
  type ComponentFixture,
  DeferBlockBehavior,
  DeferBlockState,
  TestBed,
} from '@angular/core/testing';
import { aUser, settle, storeSession } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { aSystemInfo } from '../../../testing/system-info';
import { SessionStore } from '../session/session-store';
import ConsoleShell from './console-shell';
import { ADMIN_NAV, CONSOLE_NAV } from './nav';

/** The shell shows the admin group to admins only (60-web.md §1 "Shell"). */
describe('ConsoleShell navigation', () => {
  /** The navigation and the user menu load after the first render (issue 14): load them now. */
  async function loadDeferred(fixture: ComponentFixture<unknown>): Promise<void> {
    for (const block of await fixture.getDeferBlocks())
      await block.render(DeferBlockState.Complete);
    await fixture.whenStable();
  }

  async function render(role: 'user' | 'admin'): Promise<HTMLElement> {
    storeSession();
    TestBed.configureTestingModule({
      providers: provideTestApp(),
      deferBlockBehavior: DeferBlockBehavior.Manual,
    });
    TestBed.inject(SessionStore).me.set(aUser({ role }));
    const fixture = TestBed.createComponent(ConsoleShell);
    await fixture.whenStable();
    await loadDeferred(fixture);
    return fixture.nativeElement as HTMLElement;
  }

  it('should render the page frame before the navigation list has loaded', async () => {
    storeSession();
    TestBed.configureTestingModule({
      providers: provideTestApp(),
      deferBlockBehavior: DeferBlockBehavior.Manual,
    });
    TestBed.inject(SessionStore).me.set(aUser());
    const fixture = TestBed.createComponent(ConsoleShell);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    expect(root.querySelector('main#main')).not.toBeNull();
    expect(root.querySelector('[data-testid="user-menu"]')).not.toBeNull();
    expect(root.querySelector('nav')).toBeNull();
    await loadDeferred(fixture);
    expect(root.querySelector('nav a[href="/console/overview"]')).not.toBeNull();
  });

  it('should open the user menu once loaded when its stand-in was clicked', async () => {
    storeSession();
    TestBed.configureTestingModule({
      providers: provideTestApp(),
      deferBlockBehavior: DeferBlockBehavior.Manual,
    });
    TestBed.inject(SessionStore).me.set(aUser({ username: 'alice' }));
    const fixture = TestBed.createComponent(ConsoleShell);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const standIn = root.querySelector<HTMLButtonElement>('[data-testid="user-menu"]')!;
    expect(standIn.getAttribute('aria-label')).toContain('alice');
    expect(standIn.getAttribute('aria-haspopup')).toBeNull();
    standIn.click();
    await loadDeferred(fixture);
    const trigger = root.querySelector('[data-testid="user-menu"]')!;
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-label')).toBe(standIn.getAttribute('aria-label'));
    expect(document.querySelector('[data-testid="sign-out"]')).not.toBeNull();
    document.querySelector('.cdk-overlay-container')?.remove();
  });

  const hrefs = (root: HTMLElement, selector: string) =>
    [...root.querySelectorAll<HTMLAnchorElement>(`${selector} a`)].map((a) =>
      a.getAttribute('href'),
    );

  afterEach(() => TestBed.inject(HttpTestingController).verify());

  it('should hide the admin group and every admin link from a member', async () => {
    const root = await render('user');
    expect(root.querySelector('[data-testid="admin-nav"]')).toBeNull();
    const links = [...root.querySelectorAll<HTMLAnchorElement>('a')].map((a) =>
      a.getAttribute('href'),
    );
    for (const item of ADMIN_NAV) expect(links).not.toContain(item.link);
    for (const item of CONSOLE_NAV) expect(links).toContain(item.link);
  });

  it('should show the admin group with every admin link to an admin', async () => {
    const root = await render('admin');
    TestBed.inject(HttpTestingController)
      .expectOne('/api/v1/admin/system/info')
      .flush(aSystemInfo());
    expect(root.querySelector('[data-testid="admin-nav"]')).not.toBeNull();
    expect(hrefs(root, '[data-testid="admin-nav"]')).toEqual(ADMIN_NAV.map((item) => item.link));
  });

  it('should count pending requests on the admin nav, and show no zero', async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    TestBed.inject(SessionStore).me.set(aUser({ role: 'admin' }));
    const fixture = TestBed.createComponent(ConsoleShell);
    await fixture.whenStable();
    TestBed.inject(HttpTestingController)
      .expectOne('/api/v1/admin/system/info')
      .flush(aSystemInfo({ requests: { pending: 3, automationErrors: 1 } }));
    await settle();
    await loadDeferred(fixture);
    const root = fixture.nativeElement as HTMLElement;
    const count = root.querySelector('[data-testid="nav-count-pendingRequests"]')!;
    expect(count.closest('a')!.getAttribute('href')).toBe('/admin/requests');
    expect(count.querySelector('[aria-hidden="true"]')!.textContent).toBe('3');
    expect(count.querySelector('.visually-hidden')!.textContent!.trim()).toBe('3 pending');
    expect(root.querySelector('[data-testid="nav-count-undecryptableSettings"]')).toBeNull();
  });

  it('should not ask for the counts while the admin must change their password (403)', async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    TestBed.inject(SessionStore).me.set(aUser({ role: 'admin', mustChangePassword: true }));
    const fixture = TestBed.createComponent(ConsoleShell);
    await fixture.whenStable();
    TestBed.inject(HttpTestingController).expectNone('/api/v1/admin/system/info');
  });
});
