import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { Redemption } from '@usher/contracts';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  clickOn,
  flushAndRender,
  typeInto,
} from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import Renewal from './renewal';
import { maskedCode } from './renewal-api';

const CODE = 'ABCDEF0123456789';
const REDEMPTION: Redemption = {
  id: '01936f6e-8a7b-7c3d-9e4f-0123456789ac',
  code: CODE,
  kind: 'renew',
  days: 30,
  previousExpiresAt: '2026-01-01T00:00:00.000Z',
  newExpiresAt: '2026-01-31T00:00:00.000Z',
  createdAt: '2026-01-01T10:00:00.000Z',
  user: { id: '01936f6e-8a7b-7c3d-9e4f-0123456789ab', username: 'alice' },
};

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('Renewal', () => {
  let fixture: ComponentFixture<Renewal>;
  let http: HttpTestingController;
  let session: SessionStore;

  async function render(user = aUser(), history: Redemption[] = []): Promise<HTMLElement> {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    http = TestBed.inject(HttpTestingController);
    jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    session = TestBed.inject(SessionStore);
    session.me.set(user);
    fixture = TestBed.createComponent(Renewal);
    await fixture.whenStable();
    http
      .expectOne((r) => r.url === '/api/v1/me/redemptions')
      .flush({ data: history, total: history.length, page: 1, pageSize: 10 });
    // The plans come first on the page (payments.spec.ts tests them).
    for (const plans of http.match('/api/v1/plans')) {
      plans.flush({ data: [], paymentsEnabled: false, pending: [] });
    }
    await flushAndRender(fixture);
    return fixture.nativeElement as HTMLElement;
  }

  afterEach(() => http.verify());

  async function check(root: HTMLElement) {
    typeInto(root, 'redeem-code', ` ${CODE.toLowerCase()} `);
    await clickOn(fixture, root, 'redeem-check');
    return http.expectOne('/api/v1/me/redeem/validate');
  }

  it('should preview, redeem, then show the new expiry and the media outcome', async () => {
    const root = await render(aUser({ isExpired: true, expiresAt: '2026-01-01T00:00:00.000Z' }));
    expect(byTestId(root, 'renewal-expired-hint')).not.toBeNull();
    const validate = await check(root);
    expect(validate.request.body).toEqual({ code: CODE });
    validate.flush({
      valid: true,
      days: 30,
      codeExpiresAt: null,
      newExpiresAt: '2030-03-02T00:00:00.000Z',
    });
    await flushAndRender(fixture);
    expect(byTestId(root, 'redeem-preview')!.textContent).toContain(
      '+30 days → valid until Mar 2, 2030',
    );
    await clickOn(fixture, root, 'redeem-submit');
    const redeem = http.expectOne('/api/v1/me/redeem');
    expect(redeem.request.body).toEqual({ code: CODE });
    redeem.flush({
      days: 30,
      previousExpiresAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2030-03-02T00:00:00.000Z',
      mediaSync: 'applied',
    });
    await flushAndRender(fixture);
    http.expectOne('/api/v1/me').flush(aUser({ expiresAt: '2030-03-02T00:00:00.000Z' }));
    http
      .expectOne((r) => r.url === '/api/v1/me/redemptions')
      .flush({ data: [REDEMPTION], total: 1, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    expect(byTestId(root, 'redeem-result')!.textContent).toContain('Redeemed: +30 days.');
    expect(byTestId(root, 'redeem-media-sync')!.textContent).toContain(
      'Media-server access is on.',
    );
    expect(session.me()?.expiresAt).toBe('2030-03-02T00:00:00.000Z');
    expect(byTestId(root, 'redeem-preview')).toBeNull();
    // The emptied field is ready for the next code, without a "Required" error.
    expect((byTestId(root, 'redeem-code') as HTMLInputElement).value).toBe('');
    expect(root.querySelector('mat-error')).toBeNull();
  });

  it.each([
    ['REDEEM_CODE_INVALID', 422, { reason: 'not_found' }, 'No such code. Check for typos.'],
    ['REDEEM_CODE_INVALID', 422, { reason: 'expired' }, 'This code has expired.'],
    ['REDEEM_CODE_INVALID', 422, { reason: 'exhausted' }, 'This code has been used up.'],
    ['REDEEM_CODE_ALREADY_USED', 409, undefined, 'You have already redeemed this code.'],
  ])('should word %s %j on its own', async (code, status, details, text) => {
    const root = await render();
    (await check(root)).flush(errorBody(code, 'x', details), { status, statusText: 'x' });
    await flushAndRender(fixture);
    expect(byTestId(root, 'redeem-error')!.textContent).toContain(text);
    expect(byTestId(root, 'redeem-submit')).toBeNull();
  });

  it('should not redeem a code typed after the check without a new check', async () => {
    const root = await render();
    (await check(root)).flush({
      valid: true,
      days: 7,
      codeExpiresAt: null,
      newExpiresAt: '2030-01-01T00:00:00.000Z',
    });
    await flushAndRender(fixture);
    typeInto(root, 'redeem-code', 'FFFFFFFFFFFFFFFF');
    await fixture.whenStable();
    expect(byTestId(root, 'redeem-submit')).toBeNull();
    http.expectNone('/api/v1/me/redeem');
  });

  it('should send nothing without a code', async () => {
    const root = await render();
    await clickOn(fixture, root, 'redeem-check');
    http.expectNone('/api/v1/me/redeem/validate');
  });

  it('should be read-only for an account that never expires', async () => {
    const root = await render(aUser({ role: 'admin', expiresAt: null }));
    expect(byTestId(root, 'renewal-not-renewable')).not.toBeNull();
    expect(byTestId(root, 'redeem-code')).toBeNull();
  });

  it('should list redemptions with only the last four characters of the code', async () => {
    const root = await render(aUser(), [REDEMPTION]);
    fixture.componentRef.setInput('tab', 'history');
    await flushAndRender(fixture);
    // The History tab also lists payments (tested in payments.spec.ts).
    http
      .expectOne((r) => r.url === '/api/v1/me/payments')
      .flush({ data: [], total: 0, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    const table = byTestId(root, 'redemption-history')!;
    expect(table.textContent).toContain('••••6789');
    expect(table.textContent).not.toContain(CODE);
    expect(maskedCode(CODE)).toBe('••••6789');
  });
});
