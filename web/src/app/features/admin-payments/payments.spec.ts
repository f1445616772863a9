import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { MatDialog } from '@angular/material/dialog';
import { Router } from '@angular/router';
import type { AdminPaymentDetail, Payment } from '@usher/contracts';
import { storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import PaymentsPage from './payments-page';

const ROW: Payment = {
  id: '01936f6e-8a7b-7c3d-9e4f-0123456789b1',
  planId: '01936f6e-8a7b-7c3d-9e4f-0123456789a1',
  planName: 'Monthly',
  amount: 1999,
  currency: 'usd',
  days: 30,
  status: 'completed',
  statusReason: null,
  checkoutUrl: null,
  expiresAt: '2026-01-01T00:30:00.000Z',
  completedAt: '2026-01-01T00:05:00.000Z',
  previousExpiresAt: '2026-01-10T00:00:00.000Z',
  newExpiresAt: '2026-02-09T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  user: { id: '01936f6e-8a7b-7c3d-9e4f-0123456789ab', username: 'alice' },
};

jest.setTimeout(20_000);
describe('PaymentsPage', () => {
  let http: HttpTestingController;

  afterEach(() => http.verify());

  it('should send the URL filters, show the totals per currency and open a row with its events', async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    http = TestBed.inject(HttpTestingController);
    jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    const fixture = TestBed.createComponent(PaymentsPage);
    fixture.componentRef.setInput('status', 'completed');
    fixture.componentRef.setInput('from', '2026-01-01');
    fixture.componentRef.setInput('userId', 'not-an-id');
    await fixture.whenStable();
    const list = http.expectOne((r) => r.url === '/api/v1/admin/payments');
    expect(list.request.params.get('status')).toBe('completed');
    expect(list.request.params.get('from')).toBe('2026-01-01');
    expect(list.request.params.has('userId')).toBe(false);
    list.flush({
      data: [ROW],
      total: 1,
      page: 1,
      pageSize: 20,
      summary: { completedAmountByCurrency: { usd: 1999, jpy: 500 } },
    });
    http
      .expectOne((r) => r.url === '/api/v1/admin/plans')
      .flush({ data: [], total: 0, page: 1, pageSize: 100 });
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    const totals = byTestId(root, 'payments-totals')!;
    expect(totals.querySelector('[data-currency="usd"]')?.textContent).toBe('$19.99');
    expect(totals.querySelector('[data-currency="jpy"]')?.textContent).toBe('¥500');

    (root.querySelector(`[data-payment="${ROW.id}"]`) as HTMLElement).click();
    await flushAndRender(fixture);
    const detail: AdminPaymentDetail = {
      ...ROW,
      webhookEvents: [
        {
          eventId: 'evt_1',
          type: 'checkout.session.completed',
          status: 'processed',
          attempts: 2,
          error: null,
          receivedAt: '2026-01-01T00:05:00.000Z',
        },
      ],
    };
    http.expectOne(`/api/v1/admin/payments/${ROW.id}`).flush(detail);
    await flushAndRender(fixture);
    const events = document.querySelector('[data-testid="payment-events"]')!;
    expect(events.textContent).toContain('checkout.session.completed');
    expect(events.textContent).toContain('Processed');
    TestBed.inject(MatDialog).closeAll();
  });
});
