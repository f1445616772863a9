import { performance } from 'node:perf_hooks';
import type { AccountsEnv } from '../accounts/support.js';
import { aUser } from '../support/users.js';

/** Times `samples` failed logins per kind, interleaved so drift in machine load hits all alike. */
export async function measureLoginTiming(
  env: AccountsEnv,
  samples: number,
): Promise<{ unknown: number[]; linked: number[]; unlinked: number[] }> {
  const server = await env.t.context.integrations.mediaServer.get();
  const media = await server.createUser(`timing_linked_${Date.now()}`, 'Right-Pass-123');
  const linked = await aUser()
    .named(media.name)
    .withPassword('Right-Pass-123')
    .withProductionHash()
    .linkedTo(media.id)
    .create(env.t.context.db);
  const unlinked = await aUser()
    .withPassword('Right-Pass-123')
    .withProductionHash()
    .create(env.t.context.db);
  const times = { unknown: [] as number[], linked: [] as number[], unlinked: [] as number[] };
  const names = {
    unknown: 'nobody_by_that_name',
    linked: linked.username,
    unlinked: unlinked.username,
  };
  let ip = 0;
  const once = async (kind: keyof typeof names) => {
    // A fresh address each time, so neither limiter slows the measurement.
    const from = `10.77.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`;
    const start = performance.now();
    const res = await env.call('POST', '/api/v1/auth/login', {
      body: { username: names[kind], password: 'Wrong-Pass-999' },
      ip: from,
    });
    times[kind].push(performance.now() - start);
    if (res.status !== 401) throw new Error(`${kind}: expected 401, got ${res.status}`);
  };
  for (const kind of ['unknown', 'linked', 'unlinked'] as const) await once(kind); // warm-up
  for (const k of Object.keys(times)) times[k as keyof typeof times].length = 0;
  for (let i = 0; i < samples; i++) {
    for (const kind of ['unknown', 'linked', 'unlinked'] as const) await once(kind);
  }
  return times;
}
