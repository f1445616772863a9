// Devices and media quality in the demo (issue 20): one blacklist entry, so the blacklist tab is
// not empty (an app the world does not use, so no demo device is signed out by the 15-minute
// sweep), and a finished quality scan of every library, so the media-quality pages open on
// charts and low-quality groups rather than "never scanned".
import type { Session, UsherClient } from './usher-client.js';

interface JobRun {
  status: string;
}

export async function seedDevicesAndQuality(api: UsherClient, admin: Session): Promise<void> {
  await api.call('POST', '/api/v1/admin/devices/blacklist', {
    session: admin,
    body: { clientName: 'MrMC', reason: 'Shared-account player', logoutNow: false },
  });
  const { runId } = await api.call<{ runId: string }>(
    'POST',
    '/api/v1/admin/media-quality/libraries/all/scan',
    { session: admin },
  );
  // The demo library is a few hundred items: a second or two.
  for (let i = 0; i < 600; i++) {
    const run = await api.call<JobRun>('GET', `/api/v1/admin/job-runs/${runId}`, {
      session: admin,
    });
    if (run.status !== 'running') {
      if (run.status !== 'succeeded') throw new Error(`demo quality scan ended ${run.status}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('demo quality scan did not finish within a minute');
}
