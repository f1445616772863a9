import { HttpTestingController } from '@angular/common/http/testing';
import { DeferBlockBehavior, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { User } from '@usher/contracts';
import { aUser, storeSession } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../session/session-store';
import ConsoleShell from './console-shell';
import { CONSOLE_NAV, MEMBER_TABS } from './nav';

/** The member's bottom bar at phone widths (issue 36). */
describe('ConsoleShell bottom navigation', () => {
  const realMatchMedia = window.matchMedia;
  afterEach(() => {
    window.matchMedia = realMatchMedia;
    TestBed.inject(HttpTestingController).verify();
  });

  /** Renders the shell with the window `width` px wide (matchMedia answers max-width queries). */
  async function render(width: number, user: Partial<User> = {}) {
    window.matchMedia = (query: string) => {
      const max = /max-width:\s*([\d.]+)px/.exec(query);
      return { ...realMatchMedia(query), matches: max ? width <= Number(max[1]) : false };
    };
    storeSession();
    TestBed.configureTestingModule({
      providers: provideTestApp([{ path: '**', children: [] }]),
      deferBlockBehavior: DeferBlockBehavior.Manual,
    });
    TestBed.inject(SessionStore).me.set(aUser(user));
    const fixture = TestBed.createComponent(ConsoleShell);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  const tabs = (root: HTMLElement) => [
    ...root.querySelectorAll<HTMLAnchorElement>('[data-testid="bottom-nav"] a'),
  ];

  it('should offer the five member places at 390 px, before the drawer has loaded', async () => {
    const { root } = await render(390);
    const nav = root.querySelector('[data-testid="bottom-nav"]')!;
    expect(nav.tagName).toBe('NAV');
    expect(nav.getAttribute('aria-label')).toBe('Main places');
    expect(tabs(root).map((a) => a.getAttribute('href'))).toEqual([
      '/console/overview',
      '/console/requests',
      '/console/calendar',
      '/console/renewal',
      '/console/account',
    ]);
    expect(tabs(root).map((a) => a.textContent!.trim())).toEqual([
      'Overview',
      'Requests',
      'Calendar',
      'Renewal',
      'Account',
    ]);
    // Every tab is also in the drawer: the bar is a shortcut, not the only way.
    for (const tab of MEMBER_TABS) expect(CONSOLE_NAV).toContain(tab);
  });

  it('should not show the bar from 600 px on', async () => {
    const { root } = await render(600);
    expect(root.querySelector('[data-testid="bottom-nav"]')).toBeNull();
  });

  it('should mark the open place as the current page', async () => {
    const { fixture, root } = await render(390);
    await TestBed.inject(Router).navigateByUrl('/console/calendar');
    await fixture.whenStable();
    const current = tabs(root).filter((a) => a.getAttribute('aria-current') === 'page');
    expect(current.map((a) => a.getAttribute('href'))).toEqual(['/console/calendar']);
    expect(current[0]!.classList).toContain('active');
  });

  it('should put a dot on Renewal for an expired member', async () => {
    const { root } = await render(390, {
      isExpired: true,
      expiresAt: '2026-01-01T00:00:00.000Z',
    });
    expect(root.querySelectorAll('[data-testid="tab-renew-dot"]')).toHaveLength(1);
    const renewal = tabs(root)[3]!;
    expect(renewal.querySelector('[data-testid="tab-renew-dot"]')).not.toBeNull();
  });

  it('should leave only Account usable during a forced password change', async () => {
    const { root } = await render(390, { mustChangePassword: true });
    const off = tabs(root).filter((a) => a.getAttribute('aria-disabled') === 'true');
    expect(off).toHaveLength(4);
    for (const a of off) expect(a.getAttribute('href')).toBeNull();
    expect(tabs(root)[4]!.getAttribute('href')).toBe('/console/account');
  });
});
