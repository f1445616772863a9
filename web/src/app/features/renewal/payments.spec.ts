import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import type { MemberPlans, Payment, Plan } from '@usher/contracts';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, clickOn, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { CheckoutReturn, POLL_FAST_MS, POLL_SLOW_MS } from './checkout-return';
import { PaymentHistory } from './payment-history';
import { BrowserLocation, CHECKOUT_STORAGE_KEY } from './payments-api';
import { PlansTab } from './plans-tab';

const YEN: Plan = {
  id: '01936f6e-8a7b-7c3d-9e4f-0123456789a1',
  name: 'Yearly',
  description: 'A whole year',
  days: 365,
  price: 5000,
  currency: 'jpy',
  isActive: true,
  sortOrder: 0,
  maxStreams: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const DINAR: Plan = {
  ...YEN,
  id: '01936f6e-8a7b-7c3d-9e4f-0123456789a2',
  name: 'Dinar',
  price: 12340,
  currency: 'kwd',
  days: 30,
};
const PAYMENT_ID = '01936f6e-8a7b-7c3d-9e4f-0123456789b1';
const payment = (overrides: Partial<Payment> = {}): Payment => ({
  id: PAYMENT_ID,
  planId: YEN.id,
  planName: 'Yearly',
  amount: 5000,
  currency: 'jpy',
  days: 365,
  status: 'pending',
  statusReason: null,
  checkoutUrl: null,
  expiresAt: '2026-01-01T00:30:00.000Z',
  completedAt: null,
  previousExpiresAt: null,
  newExpiresAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

jest.setTimeout(20_000);
describe('Renewal payments', () => {
  let http: HttpTestingController;
  const assign = jest.fn();

  function setUp(): void {
    storeSession();
    sessionStorage.clear();
    assign.mockReset();
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: BrowserLocation, useValue: { assign } },
      ],
    });
    http = TestBed.inject(HttpTestingController);
    TestBed.inject(SessionStore).me.set(aUser());
  }
  afterEach(() => {
    jest.useRealTimers();
    http.verify();
  });

  async function plansTab(reply: MemberPlans) {
    setUp();
    const fixture = TestBed.createComponent(PlansTab);
    await fixture.whenStable();
    http.expectOne('/api/v1/plans').flush(reply);
    await flushAndRender(fixture);
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  // Issue 36: renewal as a pricing page.
  it('should price each plan a month, mark the best value and say the expiry it gives', async () => {
    const monthly = {
      ...YEN,
      id: '01936f6e-8a7b-7c3d-9e4f-0123456789a3',
      name: 'Monthly',
      days: 30,
      price: 500,
    };
    const { root } = await plansTab({ data: [monthly, YEN], paymentsEnabled: true, pending: [] });
    const card = (name: string) => root.querySelector<HTMLElement>(`[data-plan="${name}"]`)!;
    const text = (name: string, id: string) =>
      card(name).querySelector(`[data-testid="${id}"]`)?.textContent?.trim();
    expect(text('Monthly', 'plan-per-month')).toBeUndefined();
    expect(text('Yearly', 'plan-per-month')).toBe('≈ ¥411 a month');
    expect(card('Yearly').querySelector('[data-testid="plan-best"]')?.textContent).toContain(
      'Best value',
    );
    expect(card('Monthly').querySelector('[data-testid="plan-best"]')).toBeNull();
    expect(text('Monthly', 'plan-new-expiry')).toMatch(/^Valid until /);
  });

  it('should show each price in its currency digits and send the member to Stripe on Buy', async () => {
    const { fixture, root } = await plansTab({
      data: [YEN, DINAR],
      paymentsEnabled: true,
      pending: [],
    });
    const prices = [...root.querySelectorAll('[data-testid="plan-price"]')].map((e) =>
      e.textContent?.trim(),
    );
    expect(prices).toEqual(['¥5,000', 'KWD\u00a012.340']);

    await clickOn(fixture, root, 'plan-buy');
    const req = http.expectOne('/api/v1/payments/checkout');
    expect(req.request.body).toEqual({ planId: YEN.id });
    req.flush({
      paymentId: PAYMENT_ID,
      url: 'https://checkout.example/c/pay/cs_1',
      expiresAt: '2026-01-01T00:30:00.000Z',
    });
    await flushAndRender(fixture);
    expect(sessionStorage.getItem(CHECKOUT_STORAGE_KEY)).toBe(PAYMENT_ID);
    expect(assign).toHaveBeenCalledWith('https://checkout.example/c/pay/cs_1');
  });

  it('should offer Continue payment for a pending checkout, without a new one', async () => {
    const { fixture, root } = await plansTab({
      data: [YEN],
      paymentsEnabled: true,
      pending: [
        {
          planId: YEN.id,
          paymentId: PAYMENT_ID,
          checkoutUrl: 'https://checkout.example/c/pay/cs_2',
          expiresAt: '2026-01-01T00:30:00.000Z',
        },
      ],
    });
    expect(byTestId(root, 'plan-buy')).toBeNull();
    await clickOn(fixture, root, 'plan-resume');
    expect(assign).toHaveBeenCalledWith('https://checkout.example/c/pay/cs_2');
    expect(sessionStorage.getItem(CHECKOUT_STORAGE_KEY)).toBe(PAYMENT_ID);
  });

  it('should say online payment is unavailable when disabled, and after a 503 at checkout', async () => {
    const off = await plansTab({ data: [YEN], paymentsEnabled: false, pending: [] });
    expect(byTestId(off.root, 'plans-unavailable')).not.toBeNull();
    expect(byTestId(off.root, 'plan-buy')).toBeNull();
    TestBed.resetTestingModule();

    const { fixture, root } = await plansTab({ data: [YEN], paymentsEnabled: true, pending: [] });
    await clickOn(fixture, root, 'plan-buy');
    http
      .expectOne('/api/v1/payments/checkout')
      .flush(errorBody('NOT_CONFIGURED', 'Stripe is not configured', { system: 'stripe' }), {
        status: 503,
        statusText: 'Service Unavailable',
      });
    await flushAndRender(fixture);
    expect(byTestId(root, 'plans-unavailable')).not.toBeNull();
    expect(byTestId(root, 'plan-buy')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('should poll the stored payment after Stripe until it is completed, then show the new expiry', async () => {
    // The poll interval passes on a fake clock (which also creeps on with real time, so the
    // zero-delay waits of flushAndRender still run): no real two-second sleeps.
    jest.useFakeTimers({ advanceTimers: true });
    setUp();
    sessionStorage.setItem(CHECKOUT_STORAGE_KEY, PAYMENT_ID);
    const session = TestBed.inject(SessionStore);
    const refresh = jest.spyOn(session, 'refreshMe').mockResolvedValue(aUser());
    const fixture: ComponentFixture<CheckoutReturn> = TestBed.createComponent(CheckoutReturn);
    fixture.componentRef.setInput('checkout', 'success');
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    http.expectOne(`/api/v1/me/payments/${PAYMENT_ID}`).flush(payment());
    await flushAndRender(fixture);
    expect(byTestId(root, 'checkout-confirming')).not.toBeNull();

    jest.advanceTimersByTime(POLL_FAST_MS);
    await flushAndRender(fixture);
    http.expectOne(`/api/v1/me/payments/${PAYMENT_ID}`).flush(
      payment({
        status: 'completed',
        completedAt: '2026-01-01T00:05:00.000Z',
        newExpiresAt: '2027-01-01T00:05:00.000Z',
      }),
    );
    await flushAndRender(fixture);
    expect(byTestId(root, 'checkout-completed')?.textContent).toContain('2027');
    expect(refresh).toHaveBeenCalled();
    expect(sessionStorage.getItem(CHECKOUT_STORAGE_KEY)).toBeNull();
    jest.advanceTimersByTime(POLL_SLOW_MS * 2);
    await flushAndRender(fixture);
    http.expectNone(`/api/v1/me/payments/${PAYMENT_ID}`); // polling stopped
  });

  it('should show a snackbar on cancel and poll nothing', async () => {
    setUp();
    const show = jest.spyOn(TestBed.inject(Notifier), 'show').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(CheckoutReturn);
    fixture.componentRef.setInput('checkout', 'cancelled');
    await flushAndRender(fixture);
    expect(show).toHaveBeenCalledWith('payments.cancelled');
    http.expectNone(() => true);
  });

  it('should list the member payments with amount and status', async () => {
    setUp();
    const fixture = TestBed.createComponent(PaymentHistory);
    await fixture.whenStable();
    http
      .expectOne((r) => r.url === '/api/v1/me/payments')
      .flush({ data: [payment({ status: 'completed' })], total: 1, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    const table = byTestId(fixture.nativeElement as HTMLElement, 'payment-history')!;
    expect(table.textContent).toContain('Yearly');
    expect(table.textContent).toContain('¥5,000');
    expect(table.textContent).toContain('Completed');
  });
});
