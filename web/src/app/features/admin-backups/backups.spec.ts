import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { BackupList, JobRun } from '@usher/contracts';
import { storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import BackupsPage, { formatBytes } from './backups-page';

const RUN_ID = '01936f6e-8a7b-7c3d-9e4f-00000000000b';
const FILE = 'usher-20261207T030000.000Z.usher-backup.gz';

function aList(overrides: Partial<BackupList> = {}): BackupList {
  return {
    data: [{ name: FILE, bytes: 1_234_567, createdAt: '2026-12-07T03:00:01.000Z' }],
    total: 1,
    directory: '/app/data/backups',
    keep: 7,
    job: {
      name: 'backup',
      description: 'Writes a backup file',
      schedule: '',
      scheduleSetting: 'BACKUP_CRON',
      timezone: 'UTC',
      enabled: false,
      disabledBy: 'BACKUP_CRON',
      nextRunAt: null,
      running: false,
      lastRun: null,
    },
    ...overrides,
  };
}

const RUN: JobRun = {
  id: RUN_ID,
  jobName: 'backup',
  trigger: 'manual',
  scheduledFor: null,
  triggeredBy: null,
  replicaId: 'api-1',
  status: 'succeeded',
  params: null,
  summary: { file: FILE, bytes: 1_234_567 },
  error: null,
  startedAt: '2026-12-07T03:00:00.000Z',
  finishedAt: '2026-12-07T03:00:01.000Z',
};

describe('formatBytes', () => {
  it('should show sizes in powers of 1000', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(5_000_000_000)).toBe('5.0 GB');
  });
});

jest.setTimeout(20_000);
describe('BackupsPage', () => {
  let http: HttpTestingController;

  beforeEach(() => {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    http = TestBed.inject(HttpTestingController);
  });
  afterEach(() => http.verify());

  it('should list the files, say that no schedule is set and where files are kept', async () => {
    const fixture = TestBed.createComponent(BackupsPage);
    await fixture.whenStable();
    http.expectOne('/api/v1/admin/backups').flush(aList());
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    expect(byTestId(root, 'backups-off')).not.toBeNull();
    expect(byTestId(root, 'backups-facts')!.textContent).toContain('/app/data/backups');
    const row = root.querySelector(`[data-backup="${FILE}"]`)!;
    expect(row.textContent).toContain('1.2 MB');
  });

  it('should run a backup now, follow the run and list the new file', async () => {
    const notify = jest.spyOn(TestBed.inject(Notifier), 'show').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(BackupsPage);
    await fixture.whenStable();
    http.expectOne('/api/v1/admin/backups').flush(aList({ data: [], total: 0 }));
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    expect(byTestId(root, 'backups-empty')).not.toBeNull();

    byTestId(root, 'backups-run')!.click();
    const post = http.expectOne((r) => r.method === 'POST' && r.url === '/api/v1/admin/backups');
    post.flush({ runId: RUN_ID });
    await flushAndRender(fixture);
    http.expectOne(`/api/v1/admin/job-runs/${RUN_ID}`).flush(RUN);
    await flushAndRender(fixture);
    http.expectOne('/api/v1/admin/backups').flush(aList());
    await flushAndRender(fixture);
    expect(notify).toHaveBeenCalledWith('adminBackups.done', { name: FILE });
    expect(root.querySelector(`[data-backup="${FILE}"]`)).not.toBeNull();
  });

  it('should download a file with the session token, not through a bare link', async () => {
    const created = jest.fn(() => 'blob:backup');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    const click = jest
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(BackupsPage);
    await fixture.whenStable();
    http.expectOne('/api/v1/admin/backups').flush(aList());
    await flushAndRender(fixture);
    byTestId(fixture.nativeElement as HTMLElement, 'backup-download')!.click();
    const get = http.expectOne(`/api/v1/admin/backups/${encodeURIComponent(FILE)}`);
    expect(get.request.responseType).toBe('blob');
    expect(get.request.headers.get('Authorization')).toBe('Bearer stored-token');
    get.flush(new Blob(['gz']));
    await flushAndRender(fixture);
    expect(created).toHaveBeenCalled();
    expect(click).toHaveBeenCalledTimes(1);
  });
});
