import { Clipboard } from '@angular/cdk/clipboard';
import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MAT_DIALOG_DATA, MatDialog, MatDialogRef } from '@angular/material/dialog';
import { Router } from '@angular/router';
import type { RedeemCode } from '@usher/contracts';
import { of } from 'rxjs';
import { storeSession, refusal } from '../../../testing/fixtures';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  clickOn,
  flushAndRender,
  typeInto,
} from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { CodeDialog, fromDateInput } from './code-dialog';
import RedeemCodesPage from './redeem-codes-page';
import { codesCsvRows } from './redeem-codes-api';

function aCode(overrides: Partial<RedeemCode> = {}): RedeemCode {
  return {
    id: '01936f6e-8a7b-7c3d-9e4f-00000000000a',
    code: 'ABCDEF0123456789',
    days: 30,
    maxUses: 5,
    usedCount: 2,
    expiresAt: null,
    status: 'active',
    notes: 'spring promo',
    createdBy: { id: '01936f6e-8a7b-7c3d-9e4f-0123456789ab', username: 'admin' },
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const list = (data: RedeemCode[]) => ({ data, total: data.length, page: 1, pageSize: 20 });

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('admin redeem codes', () => {
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };

  function setUp(extra: unknown[] = []): void {
    storeSession();
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: Notifier, useValue: notifier },
        ...(extra as never[]),
      ],
    });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
  }

  afterEach(() => http.verify());

  describe('RedeemCodesPage', () => {
    let fixture: ComponentFixture<RedeemCodesPage>;
    let confirmAnswer: boolean;

    async function render(inputs: Record<string, string> = {}): Promise<HTMLElement> {
      confirmAnswer = true;
      setUp([
        {
          provide: MatDialog,
          useValue: { open: () => ({ afterClosed: () => of(confirmAnswer) }) },
        },
      ]);
      fixture = TestBed.createComponent(RedeemCodesPage);
      for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
      await fixture.whenStable();
      return fixture.nativeElement as HTMLElement;
    }

    it('should list active codes by default, with uses and status', async () => {
      const root = await render();
      const req = http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes');
      expect(req.request.params.toString()).toBe('status=active&page=1&pageSize=20');
      req.flush(list([aCode()]));
      await flushAndRender(fixture);
      const table = byTestId(root, 'codes-table')!;
      expect(table.textContent).toContain('ABCDEF0123456789');
      expect(table.textContent).toContain('2 / 5');
      expect(table.textContent).toContain('Active');
      expect(table.textContent).toContain('spring promo');
    });

    it('should query the filters and page from the URL', async () => {
      await render({ status: 'exhausted', search: 'promo', page: '3', pageSize: '50' });
      const req = http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes');
      expect(req.request.params.get('status')).toBe('exhausted');
      expect(req.request.params.get('search')).toBe('promo');
      expect(req.request.params.get('page')).toBe('3');
      expect(req.request.params.get('pageSize')).toBe('50');
      req.flush(list([]));
      await flushAndRender(fixture);
      expect(fixture.nativeElement.textContent).toContain('No results for these filters.');
    });

    it('should ignore an unknown status and page size', async () => {
      await render({ status: 'bogus', pageSize: '7' });
      const req = http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes');
      expect(req.request.params.get('status')).toBe('active');
      expect(req.request.params.get('pageSize')).toBe('20');
      req.flush(list([]));
    });

    it('should list redemptions on their tab with the filters', async () => {
      const root = await render({
        tab: 'redemptions',
        username: 'bob',
        kind: 'renew',
        from: '2026-01-01',
        to: 'not-a-day',
      });
      const req = http.expectOne((r) => r.url === '/api/v1/admin/redemptions');
      expect(req.request.params.get('username')).toBe('bob');
      expect(req.request.params.get('kind')).toBe('renew');
      expect(req.request.params.get('from')).toBe('2026-01-01');
      expect(req.request.params.has('to')).toBe(false);
      req.flush({
        data: [
          {
            id: '01936f6e-8a7b-7c3d-9e4f-00000000000b',
            code: 'ABCDEF0123456789',
            kind: 'renew',
            days: 30,
            previousExpiresAt: null,
            newExpiresAt: '2026-02-01T00:00:00.000Z',
            createdAt: '2026-01-02T00:00:00.000Z',
            user: { id: '01936f6e-8a7b-7c3d-9e4f-0123456789ab', username: 'bob' },
          },
        ],
        total: 1,
        page: 1,
        pageSize: 20,
      });
      await flushAndRender(fixture);
      const table = byTestId(root, 'redemptions-table')!;
      expect(table.textContent).toContain('bob');
      expect(table.textContent).toContain('Renewal');
      expect(table.textContent).toContain('none → Feb 1, 2026');
    });

    it('should delete a code after confirmation and reload', async () => {
      await render();
      http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes').flush(list([aCode()]));
      await flushAndRender(fixture);
      const page = fixture.componentInstance as unknown as { remove(c: RedeemCode): Promise<void> };
      const done = page.remove(aCode());
      await flushAndRender(fixture);
      http
        .expectOne({ method: 'DELETE', url: `/api/v1/admin/redeem-codes/${aCode().id}` })
        .flush(null, { status: 204, statusText: 'x' });
      await flushAndRender(fixture);
      http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes').flush(list([]));
      await done;
      expect(notifier.show).toHaveBeenCalledWith('redeemCodes.deleted');
    });

    it('should copy a sign-up link that pre-fills the code', async () => {
      await render();
      http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes').flush(list([aCode()]));
      const copy = jest.spyOn(TestBed.inject(Clipboard), 'copy').mockReturnValue(true);
      const page = fixture.componentInstance as unknown as {
        copyInviteLink(c: RedeemCode): void;
      };
      page.copyInviteLink(aCode());
      expect(copy).toHaveBeenCalledWith(`${location.origin}/register?code=ABCDEF0123456789`);
      expect(notifier.show).toHaveBeenCalledWith('common.copied');
    });

    it('should not delete when the confirmation is cancelled', async () => {
      await render();
      http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes').flush(list([aCode()]));
      confirmAnswer = false;
      const page = fixture.componentInstance as unknown as { remove(c: RedeemCode): Promise<void> };
      await page.remove(aCode());
      http.expectNone({ method: 'DELETE' });
    });

    it('should change the status filter through the URL, back to page 1', async () => {
      await render({ page: '2' });
      http.expectOne((r) => r.url === '/api/v1/admin/redeem-codes').flush(list([]));
      const page = fixture.componentInstance as unknown as {
        navigate(p: Record<string, string | null>): void;
      };
      page.navigate({ status: 'all' });
      expect(router.navigate).toHaveBeenCalledWith([], {
        queryParams: { status: 'all', page: null },
        queryParamsHandling: 'merge',
      });
    });
  });

  describe('CodeDialog', () => {
    let ref: { close: jest.Mock; disableClose: boolean };
    let clipboard: { copy: jest.Mock };

    async function open(code?: RedeemCode) {
      ref = { close: jest.fn(), disableClose: false };
      clipboard = { copy: jest.fn().mockReturnValue(true) };
      setUp([
        { provide: MAT_DIALOG_DATA, useValue: code ? { code } : {} },
        { provide: MatDialogRef, useValue: ref },
        { provide: Clipboard, useValue: clipboard },
      ]);
      const fixture = TestBed.createComponent(CodeDialog);
      await fixture.whenStable();
      return { fixture, root: fixture.nativeElement as HTMLElement };
    }

    it('should create a batch in one request with a progress bar, then list the codes', async () => {
      const { fixture, root } = await open();
      byTestId(root, 'kind-batch')!.querySelector('button')!.click();
      await fixture.whenStable();
      typeInto(root, 'code-count', '3');
      typeInto(root, 'code-days', '14');
      typeInto(root, 'code-notes', 'party');
      await clickOn(fixture, root, 'code-save');
      const post = http.expectOne('/api/v1/admin/redeem-codes/batch');
      expect(post.request.body).toEqual({
        count: 3,
        days: 14,
        maxUses: 1,
        expiresAt: null,
        notes: 'party',
      });
      expect(byTestId(root, 'code-progress')).not.toBeNull();
      expect((byTestId(root, 'code-save') as HTMLButtonElement).disabled).toBe(true);
      const codes = ['A', 'B', 'C'].map((c, i) =>
        aCode({ id: `01936f6e-8a7b-7c3d-9e4f-00000000000${i}`, code: c.repeat(16) }),
      );
      post.flush({ data: codes, count: 3 }, { status: 201, statusText: 'Created' });
      await flushAndRender(fixture);
      expect(byTestId(root, 'created-codes')!.textContent).toContain('AAAAAAAAAAAAAAAA');
      await clickOn(fixture, root, 'copy-all');
      expect(clipboard.copy).toHaveBeenCalledWith(
        'AAAAAAAAAAAAAAAA\nBBBBBBBBBBBBBBBB\nCCCCCCCCCCCCCCCC',
      );
    });

    it('should create a single code with an expiry at the end of the chosen day', async () => {
      const { fixture, root } = await open();
      typeInto(root, 'code-expires', '2031-06-30');
      await clickOn(fixture, root, 'code-save');
      const post = http.expectOne('/api/v1/admin/redeem-codes');
      expect(post.request.body).toEqual({
        days: 30,
        maxUses: 1,
        expiresAt: fromDateInput('2031-06-30'),
        notes: '',
      });
      post.flush(aCode(), { status: 201, statusText: 'Created' });
      await flushAndRender(fixture);
      expect(byTestId(root, 'created-codes')!.textContent).toContain('ABCDEF0123456789');
    });

    it('should send nothing for days out of range', async () => {
      const { fixture, root } = await open();
      typeInto(root, 'code-days', '0');
      await clickOn(fixture, root, 'code-save');
      http.expectNone('/api/v1/admin/redeem-codes');
      expect(root.textContent).toContain('Between 1 and 3650');
    });

    it('should edit a code and show "below used" on the uses field', async () => {
      const { fixture, root } = await open(aCode());
      expect(byTestId(root, 'kind-batch')).toBeNull();
      typeInto(root, 'code-max-uses', '1');
      typeInto(root, 'code-expires', '');
      await clickOn(fixture, root, 'code-save');
      const patch = http.expectOne(`/api/v1/admin/redeem-codes/${aCode().id}`);
      expect(patch.request.method).toBe('PATCH');
      expect(patch.request.body).toMatchObject({ maxUses: 1, expiresAt: null });
      patch.flush(...refusal(422, 'MAX_USES_BELOW_USED'));
      await flushAndRender(fixture);
      expect(root.textContent).toContain('cannot be lower than the uses so far');
      expect(ref.close).not.toHaveBeenCalled();
    });
  });

  it('should build the CSV rows of created codes', () => {
    expect(codesCsvRows([aCode({ notes: 'a,b' })])).toEqual([
      ['code', 'days', 'maxUses', 'expiresAt', 'notes'],
      ['ABCDEF0123456789', 30, 5, null, 'a,b'],
    ]);
  });
});
