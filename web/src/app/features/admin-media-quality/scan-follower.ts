import { Injectable, inject, signal } from '@angular/core';
import type { JobRun } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import type { Notifier } from '../../core/notifier';
import { LongActionTracker } from '../../shared/long-action';
import { JobsApi } from '../admin-jobs';
import { QualityApi } from './quality-api';

/** The job a scan runs as (30-settings.md §9). */
export const QUALITY_SCAN_JOB = 'media_quality_scan';

/** A running scan as the page shows it. */
export interface ScanState {
  /** What the scan covers: a library id or `all`. */
  libraryId: string;
  /** 0–100, or null before the first progress arrives (an indeterminate bar). */
  percent: number | null;
  itemsScanned: number;
  itemsTotal: number;
  librariesDone: number;
  libraries: number;
}

interface Progress {
  libraries: number;
  librariesDone: number;
  itemsTotal: number;
  itemsScanned: number;
}

function progressOf(summary: JobRun['summary']): Progress | null {
  const p = (summary as { progress?: Partial<Progress> } | null)?.progress;
  if (!p || typeof p !== 'object') return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  return {
    libraries: n(p.libraries),
    librariesDone: n(p.librariesDone),
    itemsTotal: n(p.itemsTotal),
    itemsScanned: n(p.itemsScanned),
  };
}

/** Whether a followed scan covers a card: its own library, an `all` scan, or the `all` card. */
export function scanCovers(scan: Pick<ScanState, 'libraryId'> | null, libraryId: string): boolean {
  return (
    !!scan && (scan.libraryId === libraryId || scan.libraryId === 'all' || libraryId === 'all')
  );
}

/**
 * How far a scan is, from its run's `summary.progress` (docs/devices-quality.md "Progress"): the
 * items read of one library; for several libraries, the libraries done plus the share of the
 * items read so far. `itemsTotal` only grows as each library's size becomes known, so the share
 * can drop when a library starts; `previous` keeps the bar from going back. Null before the
 * first page is read.
 */
export function scanPercent(
  summary: JobRun['summary'],
  previous: number | null = null,
): number | null {
  const p = progressOf(summary);
  if (!p || p.itemsTotal === 0 || p.libraries === 0) return previous;
  const ratio = Math.min(1, p.itemsScanned / p.itemsTotal);
  const percent =
    p.libraries <= 1
      ? ratio * 100
      : ((Math.min(p.librariesDone, p.libraries - 1) + ratio) / p.libraries) * 100;
  return Math.round(Math.max(previous ?? 0, Math.min(100, percent)));
}

/**
 * Starts and follows media-quality scans (60-web.md §5): one at a time across the server, so one
 * state. The scan's job run is polled with `LongActionTracker` for its progress; a page that
 * finds a scan running (409 `SCAN_IN_PROGRESS`, or `scanning` on a library) attaches to the
 * running run the same way. Provide it, with `LongActionTracker`, in the page component.
 */
@Injectable()
export class ScanFollower {
  private readonly api = inject(QualityApi);
  private readonly jobs = inject(JobsApi);
  private readonly tracker = inject(LongActionTracker);
  private following: string | null = null;

  /** The scan being followed, or null. */
  readonly state = signal<ScanState | null>(null);

  /**
   * Starts a scan of `libraryId` (or `all`) and resolves with its finished run. When one already
   * runs (409), follows that one instead. Other refusals are thrown.
   */
  async start(libraryId: string): Promise<JobRun | null> {
    try {
      const { runId } = await this.api.scan(libraryId);
      return await this.follow(runId, libraryId);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SCAN_IN_PROGRESS') return this.attach();
      throw error;
    }
  }

  /** Follows the scan that is running now, if any; resolves when it ends (null: none ran). */
  async attach(): Promise<JobRun | null> {
    const runs = await this.jobs.runs(QUALITY_SCAN_JOB, 1, 1);
    const run = runs.data[0];
    if (!run || run.status !== 'running') return null;
    const libraryId =
      typeof run.params?.['libraryId'] === 'string' ? run.params['libraryId'] : 'all';
    return this.follow(run.id, libraryId, run);
  }

  private async follow(runId: string, libraryId: string, first?: JobRun): Promise<JobRun | null> {
    if (this.following === runId) return null;
    this.following = runId;
    this.show(libraryId, first ?? null);
    try {
      return await this.tracker.track(
        async () => {
          const run = await this.jobs.getRun(runId);
          if (run.status === 'running') this.show(libraryId, run);
          return run;
        },
        (run) => run.status !== 'running',
      );
    } finally {
      this.following = null;
      this.state.set(null);
    }
  }

  private show(libraryId: string, run: JobRun | null): void {
    const previous = this.state();
    const p = run ? progressOf(run.summary) : null;
    this.state.set({
      libraryId,
      percent: run ? scanPercent(run.summary, previous?.percent ?? null) : null,
      itemsScanned: p?.itemsScanned ?? 0,
      itemsTotal: p?.itemsTotal ?? 0,
      librariesDone: p?.librariesDone ?? 0,
      libraries: p?.libraries ?? 0,
    });
  }
}

/**
 * Says how a followed scan ended (the page reloads after it).
 */
export function announceScan(notifier: Notifier, run: JobRun | null, name: string): void {
  if (!run) return;
  if (run.status === 'succeeded') notifier.show('quality.scanDone', { name });
  else notifier.show('quality.scanFailed', { name, error: run.error ?? run.status });
}
