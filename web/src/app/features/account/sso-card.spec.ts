import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { browserLocation } from '../../core/session/sso';
import { SiteStore, SITE_DEFAULTS } from '../../core/site/site-store';
import { SsoCard } from './sso-card';

const IDENTITY = {
  id: '01900000-0000-7000-8000-000000000001',
  issuer: 'https://auth.example.org/application/o/usher/',
  email: 'alice@example.org',
  createdAt: '2026-12-01T10:00:00.000Z',
  lastUsedAt: null,
};

describe('SsoCard', () => {
  let http: HttpTestingController;
  let assign: jest.SpyInstance;

  async function render(enabled = true) {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    TestBed.inject(SiteStore).site.set({
      ...SITE_DEFAULTS,
      sso: { enabled, label: 'SSO', autoRedirect: false, passwordLogin: true },
    });
    assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(SsoCard);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }
  const byTestId = (root: HTMLElement, id: string) =>
    root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  afterEach(() => {
    http.verify();
    assign.mockRestore();
  });

  it('should list the linked sign-ins by provider host', async () => {
    const { fixture, root } = await render();
    http
      .expectOne('/api/v1/me/identities')
      .flush({ data: [IDENTITY], hasPassword: true, passwordLogin: true, canLink: true });
    await settle();
    await fixture.whenStable();
    expect(byTestId(root, 'sso-identity')!.textContent).toContain('auth.example.org');
    expect(byTestId(root, 'sso-link')).not.toBeNull();
  });

  it('should start linking at the provider address the API gives', async () => {
    const { fixture, root } = await render();
    http
      .expectOne('/api/v1/me/identities')
      .flush({ data: [], hasPassword: true, passwordLogin: true, canLink: true });
    await settle();
    await fixture.whenStable();
    byTestId(root, 'sso-link')!.click();
    http
      .expectOne({ method: 'POST', url: '/api/v1/me/identities/link' })
      .flush({ authorizationUrl: 'https://auth.example.org/authorize?x=1' });
    await settle();
    expect(assign).toHaveBeenCalledWith('https://auth.example.org/authorize?x=1');
  });

  it('should ask nothing and show nothing while single sign-on is off', async () => {
    const { root } = await render(false);
    http.expectNone('/api/v1/me/identities');
    expect(byTestId(root, 'sso-card')).toBeNull();
  });
});
