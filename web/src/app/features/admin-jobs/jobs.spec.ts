import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MatDialog } from '@angular/material/dialog';
import type { JobRun, JobSummary } from '@usher/contracts';
import { of } from 'rxjs';
import { errorBody, storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { POLL_FAST_MS } from '../../shared/long-action';
import en from '../../../assets/i18n/en.json';
import zhCN from '../../../assets/i18n/zh-CN.json';
import { SUMMARY_COUNTERS, cronWords, summaryText } from './cron-words';
import JobsPage from './jobs-page';

const RUN_ID = '01936f6e-8a7b-7c3d-9e4f-00000000000a';

function aRun(overrides: Partial<JobRun> = {}): JobRun {
  return {
    id: RUN_ID,
    jobName: 'expiry_check',
    trigger: 'manual',
    scheduledFor: null,
    triggeredBy: null,
    replicaId: 'api-1',
    status: 'succeeded',
    params: null,
    summary: { checked: 120, disabled: 3 },
    error: null,
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:00:04.000Z',
    ...overrides,
  };
}

function aJob(overrides: Partial<JobSummary> = {}): JobSummary {
  return {
    name: 'expiry_check',
    description: 'Disables the media accounts of members whose membership has ended',
    schedule: '0 * * * *',
    scheduleSetting: 'EXPIRY_CHECK_CRON',
    timezone: 'Europe/Berlin',
    enabled: true,
    disabledBy: null,
    nextRunAt: '2026-03-01T11:00:00.000Z',
    running: false,
    lastRun: aRun(),
    ...overrides,
  };
}

describe('cron in words', () => {
  it.each([
    ['*/30 * * * * *', 'Every 30 seconds'],
    ['*/5 * * * *', 'Every 5 minutes'],
    ['30 3 * * *', 'At 03:30'],
    ['0 30 3 * * *', 'At 03:30'],
    ['30 20 * * 0', 'At 20:30, only on Sunday'],
    ['0 6 1 * *', 'At 06:00, on day 1 of the month'],
    ['0 9-17 * * 1-5', 'Every hour, between 09:00 and 17:00, Monday through Friday'],
  ])('should read %s in English', (expression, words) => {
    expect(cronWords(expression, 'en')).toBe(words);
  });

  it('should read a schedule in Chinese', () => {
    expect(cronWords('30 20 * * 0', 'zh-CN')).toBe('在20:30, 仅星期日');
  });

  it('should give up on what is not cron', () => {
    expect(cronWords('nonsense', 'en')).toBeNull();
  });

  it('should flatten summaries and drop zero counts of a breakdown', () => {
    expect(summaryText({ checked: 120, disabled: 3 })).toBe('checked 120 · disabled 3');
    expect(
      summaryText({ removed: { audit_log: 2, email_codes: 0 }, total: 2, cutoffAt: 'x' }),
    ).toBe('audit_log 2 · total 2');
    expect(summaryText(null)).toBe('');
  });

  // Issue 36: raw counter keys (`gaveUp`, `sessionsFailed`) and counts without separators.
  it('should name every counter in words and write counts with separators', () => {
    const words = {
      label: (key: string) => `<${key}>`,
      count: (n: number) => n.toLocaleString('en'),
    };
    expect(summaryText({ due: 1480, gaveUp: 2, sessionsFailed: 1 }, words)).toBe(
      '<due> 1,480 · <gaveUp> 2 · <sessionsFailed> 1',
    );
    expect(summaryText({ gaveUp: 2, sessionsFailed: 1 })).toBe('gave up 2 · sessions failed 1');
    // A skip's reason as written; ids, dates and lists of failures not as raw values.
    expect(
      summaryText({ reason: 'media server not configured', batchId: 'b1', failed: [{}, {}] }),
    ).toBe('media server not configured · failed 2');
  });

  it('should have every counter in both languages', () => {
    for (const lang of [en, zhCN]) {
      const counters = (lang.jobs as { counter: Record<string, string> }).counter;
      expect(Object.keys(counters).sort()).toEqual([...SUMMARY_COUNTERS].sort());
    }
  });
});

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('JobsPage', () => {
  let http: HttpTestingController;
  let notifier: { show: jest.Mock };
  let fixture: ComponentFixture<JobsPage>;
  let confirmed: boolean[];
  /** What the confirmation dialogs were opened with, and what the admin answers. */
  let asked: { consequenceKeys?: string[] }[];
  let answer: boolean;

  async function render(): Promise<HTMLElement> {
    storeSession();
    notifier = { show: jest.fn() };
    confirmed = [];
    asked = [];
    answer = true;
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: Notifier, useValue: notifier },
        {
          provide: MatDialog,
          useValue: {
            open: (_component: unknown, config: { data: { consequenceKeys?: string[] } }) => {
              confirmed.push(true);
              asked.push(config.data);
              return { afterClosed: () => of(answer) };
            },
          },
        },
      ],
    });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(JobsPage);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const flushJobs = async (jobs: JobSummary[]) => {
    http.expectOne('/api/v1/admin/jobs').flush({ data: jobs });
    await flushAndRender(fixture);
  };

  afterEach(() => {
    http.verify();
    jest.useRealTimers();
  });

  it('should show the schedule in words and cron, the next run and the last outcome', async () => {
    const root = await render();
    await flushJobs([aJob(), aJob({ name: 'cleanup', schedule: '30 3 * * *', lastRun: null })]);
    const row = root.querySelector('[data-job="expiry_check"]')!;
    expect(row.textContent).toContain('Expiry check');
    expect(row.querySelector('[data-testid="job-schedule"]')?.textContent).toContain('Every hour');
    expect(row.textContent).toContain('0 * * * * · Europe/Berlin');
    expect(row.textContent).toContain('EXPIRY_CHECK_CRON');
    expect(row.textContent).toContain('On');
    expect(row.querySelector('time')!.getAttribute('datetime')).toBe('2026-03-01T11:00:00.000Z');
    expect(row.textContent).toContain('Succeeded');
    expect(row.textContent).toContain('checked 120 · disabled 3');
    const cleanup = root.querySelector('[data-job="cleanup"]')!;
    expect(cleanup.textContent).toContain('At 03:30');
    expect(cleanup.textContent).toContain('Never ran');
    expect(byTestId(root, 'jobs-switched-off')).toBeNull();
  });

  it('should say when JOBS_ENABLED switched scheduled runs off', async () => {
    const root = await render();
    await flushJobs([aJob({ enabled: false, disabledBy: 'JOBS_ENABLED', nextRunAt: null })]);
    expect(byTestId(root, 'jobs-switched-off')!.textContent).toContain('JOBS_ENABLED');
    expect(root.querySelector('[data-job="expiry_check"]')!.textContent).toContain(
      'Off (JOBS_ENABLED)',
    );
  });

  it('should run now after confirming, follow the run until it ends, then reload', async () => {
    const root = await render();
    await flushJobs([aJob()]);
    jest.useFakeTimers({ advanceTimers: true });
    byTestId(root, 'run-expiry_check')!.click();
    await flushAndRender(fixture);
    expect(confirmed).toHaveLength(1);
    const post = http.expectOne('/api/v1/admin/jobs/expiry_check/run');
    expect(post.request.method).toBe('POST');
    post.flush({ runId: RUN_ID });
    await flushAndRender(fixture);
    expect(byTestId(root, 'job-running')!.textContent).toContain('Running…');
    expect((byTestId(root, 'run-expiry_check') as HTMLButtonElement).disabled).toBe(true);

    await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
    http.expectOne(`/api/v1/admin/job-runs/${RUN_ID}`).flush(aRun({ status: 'running' }));
    await flushAndRender(fixture);
    expect(byTestId(root, 'job-running')).not.toBeNull();

    await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
    http.expectOne(`/api/v1/admin/job-runs/${RUN_ID}`).flush(aRun());
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('jobs.finished.succeeded', {
      job: 'Expiry check',
      details: 'checked 120 · disabled 3',
    });
    await flushJobs([aJob()]);
    expect(byTestId(root, 'job-running')).toBeNull();
  });

  it('should ask before applying the member policy and send nothing when declined', async () => {
    const root = await render();
    const policyJob = aJob({
      name: 'media_policy_apply',
      description: 'Writes the member policy template to every linked member',
      schedule: '0 0 1 1 *',
      scheduleSetting: null,
      enabled: false,
      disabledBy: 'manual only',
      nextRunAt: null,
      lastRun: null,
    });
    await flushJobs([policyJob]);
    const row = root.querySelector('[data-job="media_policy_apply"]')!;
    expect(row.textContent).toContain('Apply member policy');
    answer = false;

    byTestId(root, 'run-media_policy_apply')!.click();
    await flushAndRender(fixture);

    expect(asked).toEqual([
      expect.objectContaining({ consequenceKeys: ['jobs.consequence.media_policy_apply'] }),
    ]);
    http.expectNone('/api/v1/admin/jobs/media_policy_apply/run');
    expect(byTestId(root, 'job-running')).toBeNull();

    answer = true;
    byTestId(root, 'run-media_policy_apply')!.click();
    await flushAndRender(fixture);
    expect(confirmed).toHaveLength(2);
    http.expectOne('/api/v1/admin/jobs/media_policy_apply/run').flush({ runId: RUN_ID });
    await flushAndRender(fixture);
    expect(byTestId(root, 'job-running')!.textContent).toContain('Running…');
  });

  it('should say so when the job is already running (409)', async () => {
    const root = await render();
    await flushJobs([aJob({ name: 'cleanup', schedule: '30 3 * * *' })]);
    byTestId(root, 'run-cleanup')!.click();
    await flushAndRender(fixture);
    // Cleanup changes no user: no confirmation.
    expect(confirmed).toHaveLength(0);
    http
      .expectOne('/api/v1/admin/jobs/cleanup/run')
      .flush(errorBody('JOB_RUNNING', 'Job cleanup is already running'), {
        status: 409,
        statusText: 'Conflict',
      });
    await flushAndRender(fixture);
    expect(notifier.show).toHaveBeenCalledWith('jobs.alreadyRunning', { job: 'Cleanup' });
    await flushJobs([aJob({ name: 'cleanup', running: true })]);
    expect(byTestId(root, 'job-running')!.textContent).toContain('Running…');
  });

  // Issue 36: a double click on "Run now" started the job twice.
  it('should start one run for a double click on Run now', async () => {
    const root = await render();
    await flushJobs([aJob({ name: 'cleanup', schedule: '30 3 * * *' })]);
    byTestId(root, 'run-cleanup')!.click();
    byTestId(root, 'run-cleanup')!.click();
    await flushAndRender(fixture);
    http.expectOne('/api/v1/admin/jobs/cleanup/run').flush({ runId: RUN_ID });
    await flushAndRender(fixture);
    expect(byTestId(root, 'job-running')).not.toBeNull();
  });

  it('should open the paged run history with errors', async () => {
    const root = await render();
    await flushJobs([aJob()]);
    byTestId(root, 'history-expiry_check')!.click();
    await flushAndRender(fixture);
    const req = http.expectOne((r) => r.url === '/api/v1/admin/jobs/expiry_check/runs');
    expect(req.request.params.get('pageSize')).toBe('10');
    req.flush({
      data: [aRun({ status: 'failed', error: 'media server unreachable', summary: null })],
      total: 1,
      page: 1,
      pageSize: 10,
    });
    await flushAndRender(fixture);
    const runs = byTestId(root, 'runs-expiry_check')!;
    expect(runs.textContent).toContain('Failed');
    expect(runs.textContent).toContain('media server unreachable');
    expect(runs.textContent).toContain('4 s');
  });
});
