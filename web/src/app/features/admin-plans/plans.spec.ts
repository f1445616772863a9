import { HttpTestingController } from '@angular/common/http/testing';
import { ApplicationRef } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatDialog } from '@angular/material/dialog';
import { Router } from '@angular/router';
import type { Plan } from '@usher/contracts';
import type { RowAction } from '../../shared/row-menu';
import { storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { PlanDialog, toMajorText, toMinorUnits } from './plan-dialog';
import PlansPage from './plans-page';

const PLAN: Plan = {
  id: '01936f6e-8a7b-7c3d-9e4f-0123456789a1',
  name: 'Monthly',
  description: '',
  days: 30,
  price: 1999,
  currency: 'usd',
  isActive: true,
  sortOrder: 0,
  maxStreams: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('toMinorUnits', () => {
  it('should read a major-unit price in the currency digits', () => {
    expect(toMinorUnits('19.99', 'usd')).toBe(1999);
    expect(toMinorUnits('19,9', 'eur')).toBe(1990);
    expect(toMinorUnits('500', 'jpy')).toBe(500);
    expect(toMinorUnits('12.34', 'kwd')).toBe(12340);
    expect(toMinorUnits('12.340', 'kwd')).toBe(12340);
  });

  it('should refuse more decimals than the currency has, zero, and what Stripe cannot take', () => {
    expect(toMinorUnits('500.5', 'jpy')).toBeNull();
    expect(toMinorUnits('1.999', 'usd')).toBeNull();
    expect(toMinorUnits('12.345', 'kwd')).toBeNull();
    expect(toMinorUnits('0', 'usd')).toBeNull();
    expect(toMinorUnits('1000000', 'usd')).toBeNull();
    expect(toMinorUnits('abc', 'usd')).toBeNull();
  });

  it('should show a stored price back in major units', () => {
    expect(toMajorText(1999, 'usd')).toBe('19.99');
    expect(toMajorText(500, 'jpy')).toBe('500');
    expect(toMajorText(12340, 'kwd')).toBe('12.340');
  });
});

jest.setTimeout(20_000);
describe('PlansPage', () => {
  let http: HttpTestingController;

  afterEach(() => http.verify());

  it('should list plans with their price and warn while members cannot pay online', async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    http = TestBed.inject(HttpTestingController);
    jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    const fixture = TestBed.createComponent(PlansPage);
    await fixture.whenStable();
    const list = http.expectOne((r) => r.url === '/api/v1/admin/plans');
    expect(list.request.params.get('includeInactive')).toBe('true');
    list.flush({
      data: [PLAN, { ...PLAN, id: PLAN.id.replace('a1', 'a2'), name: 'Old', isActive: false }],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    http.expectOne('/api/v1/plans').flush({ data: [PLAN], paymentsEnabled: false, pending: [] });
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    expect(byTestId(root, 'plans-disabled-banner')).not.toBeNull();
    const table = byTestId(root, 'plans-table')!;
    expect(table.textContent).toContain('$19.99');
    expect(table.querySelector('[data-plan="Old"]')?.textContent).toContain('Withdrawn');
  });

  describe('moving a plan', () => {
    const second: Plan = { ...PLAN, id: PLAN.id.replace('a1', 'b2'), name: 'Yearly', days: 365 };
    const third: Plan = { ...PLAN, id: PLAN.id.replace('a1', 'c3'), name: 'Weekly', days: 7 };

    async function page() {
      storeSession();
      TestBed.configureTestingModule({
        providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS],
      });
      http = TestBed.inject(HttpTestingController);
      const fixture = TestBed.createComponent(PlansPage);
      await fixture.whenStable();
      const rows = [PLAN, second, third];
      http
        .expectOne((r) => r.url === '/api/v1/admin/plans')
        .flush({
          data: rows,
          total: 3,
          page: 1,
          pageSize: 20,
        });
      http.expectOne('/api/v1/plans').flush({ data: rows, paymentsEnabled: true, pending: [] });
      await flushAndRender(fixture);
      const actions = (plan: Plan) =>
        (fixture.componentInstance as unknown as { rowActions(p: Plan): RowAction[] }).rowActions(
          plan,
        );
      /** Runs a row's move action and answers the order read it makes first. */
      const move = async (plan: Plan, label: string) => {
        actions(plan)
          .find((a) => a.label === label)!
          .run();
        await flushAndRender(fixture);
        http
          .expectOne((r) => r.method === 'GET' && r.url === '/api/v1/plans')
          .flush({ data: [PLAN, second, third], paymentsEnabled: true, pending: [] });
        await flushAndRender(fixture);
        return http.expectOne('/api/v1/admin/plans/order');
      };
      /** Answers the reloads that follow every action. */
      const reloaded = (rows: Plan[]) => {
        http
          .expectOne((r) => r.url === '/api/v1/admin/plans')
          .flush({ data: rows, total: rows.length, page: 1, pageSize: 20 });
        http.expectOne('/api/v1/plans').flush({ data: [], paymentsEnabled: true, pending: [] });
      };
      return { fixture, move, reloaded };
    }

    it('should send the whole new order in one PUT and never PATCH a sort order', async () => {
      const { fixture, move, reloaded } = await page();

      const put = await move(PLAN, 'adminPlans.moveDown');

      expect(put.request.method).toBe('PUT');
      expect(put.request.body).toEqual({ ids: [second.id, PLAN.id, third.id] });
      put.flush({ data: [second, PLAN, third] });
      await flushAndRender(fixture);
      reloaded([second, PLAN, third]);
      http.expectNone((r) => r.method === 'PATCH');
    });

    it('should show a refused order as the error line and reload the list', async () => {
      const { fixture, move, reloaded } = await page();

      const put = await move(third, 'adminPlans.moveUp');
      expect(put.request.body).toEqual({ ids: [PLAN.id, third.id, second.id] });
      put.flush(
        {
          error: {
            code: 'PLAN_ORDER_MISMATCH',
            message: 'The order must name every plan on sale exactly once',
            requestId: 'req-1',
            details: { unknown: [], missing: ['x'], duplicate: [] },
          },
        },
        { status: 422, statusText: 'Unprocessable' },
      );
      await flushAndRender(fixture);
      reloaded([PLAN, second, third]);
      await flushAndRender(fixture);

      const error = byTestId(fixture.nativeElement as HTMLElement, 'plans-action-error');
      expect(error?.textContent).toContain('The plans changed meanwhile');
      expect(error?.textContent).toContain('req-1');
    });
  });
});

describe('PlanDialog stream limit', () => {
  it("should show a plan's stream limit, refuse 0, and send an emptied one as null", async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    const http = TestBed.inject(HttpTestingController);
    TestBed.inject(MatDialog).open(PlanDialog, {
      data: { plan: { ...PLAN, maxStreams: 2 } },
    });
    await TestBed.inject(ApplicationRef).whenStable();
    const input = document.querySelector('[data-testid="plan-max-streams"]') as HTMLInputElement;
    expect(input.value).toBe('2');
    input.value = '0';
    input.dispatchEvent(new Event('input'));
    (document.querySelector('[data-testid="plan-save"]') as HTMLElement).click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await TestBed.inject(ApplicationRef).whenStable();
    http.expectNone((r) => r.url.startsWith('/api/v1/admin/plans'));
    input.value = '';
    input.dispatchEvent(new Event('input'));
    (document.querySelector('[data-testid="plan-save"]') as HTMLElement).click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const patch = http.expectOne(`/api/v1/admin/plans/${PLAN.id}`);
    expect(patch.request.body).toMatchObject({ maxStreams: null, name: 'Monthly' });
    patch.flush({ ...PLAN, maxStreams: null });
    http.verify();
  });
});
