// `npm run demo` end to end: the real script (deps check, API and bot builds, launcher bundle), the
// real API process on PGlite wired to the fakes and seeded through its routes, the real bot on the
// Telegram fake, the web app served at /, the printed credentials, and a clean Ctrl-C.
//
// The web app is a stand-in build passed as WEB_DIST_DIR (the script then builds nothing):
// building Angular here would take minutes. Whether a build is needed is web-app.test.ts's job.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../src/support/index.js';
import { commandMessage, tgUser } from '../../src/telegram/updates.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

interface Page<T> {
  data: T[];
  total: number;
}
interface AdminUser {
  username: string;
  isExpired: boolean;
  media: { state: string };
  messenger: { bound: boolean };
}

describe('npm run demo (scripts/demo.mjs)', () => {
  it('should come up seeded, serving the web app, with the bot on Telegram, then stop on SIGINT', async () => {
    const port = await freePort();
    const web = mkdtempSync(join(tmpdir(), 'usher-demo-web-'));
    writeFileSync(
      join(web, 'index.html'),
      '<!doctype html><html><head><title>Usher</title></head><body><app-root></app-root></body></html>',
    );
    const child = spawn(process.execPath, [join(root, 'scripts/demo.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), WEB_DIST_DIR: web },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const gone = new AbortController();
    void exited.then(() => gone.abort(new Error(`demo exited:\n${out}`)));
    try {
      // The banner is written in one piece; wait for its last line all the same.
      await eventually(
        () => expect(out).toMatch(/Usher demo is up[\s\S]*Ctrl-C stops everything\./),
        { timeoutMs: 100_000, intervalMs: 50, signal: gone.signal },
      );
      const password = /Sign in\s+admin \/ (\S+)/.exec(out)?.[1];
      const [, member, memberPassword] = /^\s+(\w+) \/ (\S+)\s+\(member/m.exec(out) ?? [];
      const dataDir = /fresh PGlite in (\S+)/.exec(out)?.[1];
      const imageBase = /TMDB\s+\S+\s+images (\S+)/.exec(out)?.[1];
      const mediaUrl = /Jellyfin\s+(http:\S+)/.exec(out)?.[1];
      const telegramUrl = /Telegram\s+(http:\S+)/.exec(out)?.[1];
      const telegramId = Number(/Telegram user (\d+), linked/.exec(out)?.[1]);
      const botUrl = /webhook mode at (http:\S+)/.exec(out)?.[1];
      expect(out).toContain(`Open       http://localhost:${port}`);
      expect(out).toContain(`Web app    ${web}`);
      expect(member).toBeDefined();
      expect(existsSync(dataDir!)).toBe(true);

      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/health`)).status).toBe(200);
      // The web app at the same origin, deep links included (SPA fallback).
      for (const path of ['/', '/admin/users']) {
        const page = await fetch(`${base}${path}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<app-root');
      }
      const site = (await (await fetch(`${base}/api/v1/public/site`)).json()) as Record<
        string,
        unknown
      >;
      expect(site).toMatchObject({
        siteName: 'Usher Demo',
        registrationMode: 'invite',
        mediaServerKind: 'jellyfin',
        tmdbImageBase: imageBase,
        emailEnabled: true,
        paymentsEnabled: true,
        setupPending: false,
      });

      const signIn = async (username: string, pass: string) => {
        const res = await fetch(`${base}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: pass }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { token: string; user: { mustChangePassword: boolean } };
      };
      const admin = await signIn('admin', password!);
      // The printed password is the one the seeding chose: nothing left to change.
      expect(admin.user.mustChangePassword).toBe(false);
      const get = async <T>(path: string, token = admin.token): Promise<T> => {
        const res = await fetch(`${base}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        return (await res.json()) as T;
      };

      // Usher's own database holds the community, not just the admin.
      const users = await get<Page<AdminUser>>('/api/v1/admin/users?pageSize=100');
      expect(users.total).toBeGreaterThan(25);
      expect(users.data.filter((u) => u.isExpired).length).toBeGreaterThanOrEqual(2);
      expect(users.data.some((u) => u.media.state === 'disabled_by_admin')).toBe(true);
      expect(users.data.find((u) => u.username === member)).toMatchObject({
        isExpired: false,
        media: { state: 'enabled' },
        messenger: { bound: true },
      });
      const codes = await get<Page<unknown>>('/api/v1/admin/redeem-codes?status=all');
      expect(codes.total).toBeGreaterThanOrEqual(5);
      expect((await get<Page<unknown>>('/api/v1/admin/redemptions')).total).toBeGreaterThan(0);
      const totals: Record<string, number> = {};
      for (const status of ['PENDING', 'APPROVED', 'REJECTED', 'INGESTED']) {
        totals[status] = (
          await get<Page<unknown>>(`/api/v1/admin/media-requests?status=${status}`)
        ).total;
      }
      // Requests in every state; an empty one would be named here.
      expect(Object.entries(totals).filter(([, n]) => n === 0)).toEqual([]);
      // Plans on sale (one withdrawn), and payments in every state through the Stripe fake.
      const plans = await get<Page<{ isActive: boolean }>>('/api/v1/admin/plans');
      expect(plans.data.filter((p) => p.isActive)).toHaveLength(4);
      expect(plans.data.filter((p) => !p.isActive)).toHaveLength(1);
      const payments: Record<string, number> = {};
      for (const status of ['pending', 'completed', 'expired', 'failed']) {
        payments[status] = (
          await get<Page<unknown>>(`/api/v1/admin/payments?status=${status}`)
        ).total;
      }
      expect(Object.entries(payments).filter(([, n]) => n === 0)).toEqual([]);
      const sums = await get<{ summary: { completedAmountByCurrency: Record<string, number> } }>(
        '/api/v1/admin/payments',
      );
      expect(Object.keys(sums.summary.completedAmountByCurrency).sort()).toEqual([
        'cny',
        'jpy',
        'usd',
      ]);
      expect(out).toMatch(/payments: \d+ completed, 1 pending, 2 expired, 1 failed/);
      // Devices of several client apps, a blacklist entry, and a finished quality scan in which
      // every resolution the demo library draws (4K, 1080p, 720p, SD) has items.
      const deviceStats = await get<{
        total: number;
        byClient: unknown[];
        blacklistEntries: number;
      }>('/api/v1/admin/devices/stats');
      expect(deviceStats.byClient.length).toBeGreaterThanOrEqual(4);
      expect(deviceStats.blacklistEntries).toBe(1);
      const quality = await get<{
        state: string;
        resolution: Record<string, number>;
        lowQuality: { total: number };
      }>('/api/v1/admin/media-quality/libraries/all');
      expect(quality.state).toBe('fresh');
      const { uhd4k, fhd1080, hd720, sd } = quality.resolution;
      expect([uhd4k, fhd1080, hd720, sd].every((n) => n! > 0)).toBe(true);
      expect(quality.lowQuality.total).toBeGreaterThan(0);
      // Settings saved through the settings center, pointing at the fakes.
      const settings = await get<{
        groups: { group: string; items: { key: string; source: string; value?: unknown }[] }[];
      }>('/api/v1/admin/settings');
      const item = settings.groups
        .flatMap((g) => g.items)
        .find((i) => i.key === 'MEDIA_SERVER_URL');
      expect(item).toMatchObject({ source: 'db', value: mediaUrl });

      // The printed member signs in and sees their own requests.
      const me = await signIn(member!, memberPassword!);
      expect(me.user.mustChangePassword).toBe(false);
      expect((await get<Page<unknown>>('/api/v1/media-requests', me.token)).total).toBeGreaterThan(
        0,
      );
      expect((await fetch(`${mediaUrl}/System/Info/Public`)).status).toBe(200);

      // The media pages have data: the member's portrait and rail, a year of history, live sessions.
      const portrait = await get<{ totals: { playCount: number } }>(
        '/api/v1/me/playback?range=90d',
        me.token,
      );
      expect(portrait.totals.playCount).toBeGreaterThan(0);
      // Rankings: finished days and weeks from the year of plays, with a full podium.
      const daily = await get<{ batch: { movies: unknown[]; series: unknown[] } | null }>(
        '/api/v1/rankings/latest?period=daily',
        me.token,
      );
      expect(daily.batch?.movies.length).toBeGreaterThanOrEqual(3);
      expect(daily.batch?.series.length).toBeGreaterThanOrEqual(3);
      const weeks = await get<Page<unknown>>('/api/v1/rankings/history?period=weekly', me.token);
      expect(weeks.total).toBe(6);
      // The watch calendar: last, this and next week synced, so this week has episodes, some
      // already in the library, and the member follows a few of them.
      type Week = { summary: { total: number; ready: number }; days: { items: unknown[] }[] };
      const calendar = await get<Week>('/api/v1/calendar/global?weekOffset=-1', me.token);
      expect(calendar.summary.total).toBeGreaterThan(0);
      expect(calendar.summary.ready).toBeGreaterThan(0);
      const followed = await get<Week>('/api/v1/calendar/following', me.token);
      expect(followed.summary.total).toBeGreaterThan(0);
      const latest = await get<{ state: string; items: { posterUrl: string }[] }>(
        '/api/v1/media/latest?type=movie',
        me.token,
      );
      expect(latest.state).toBe('ok');
      expect((await fetch(`${base}${latest.items[0]!.posterUrl}`)).status).toBe(200);
      const yearAgo = new Date(Date.now() - 360 * 86_400_000).toISOString().slice(0, 10);
      const history = await get<Page<unknown>>(
        `/api/v1/admin/playback/history?from=${yearAgo}&pageSize=1`,
      );
      expect(history.total).toBeGreaterThan(2000);
      const live = await get<{ data: { nowPlaying: unknown }[] }>('/api/v1/admin/sessions');
      expect(live.data.filter((x) => x.nowPlaying).length).toBeGreaterThanOrEqual(3);

      // The bot answers the linked member through the Telegram fake's control API.
      expect((await fetch(`${botUrl}/health`)).status).toBe(200);
      const update = commandMessage({
        from: tgUser({ id: telegramId, first_name: 'Member' }),
        command: 'info',
      });
      const pushed = await fetch(`${telegramUrl}/__fake/updates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deliver: 'webhook', update }),
      });
      expect(pushed.status).toBe(200);
      const chat = (await (
        await fetch(`${telegramUrl}/__fake/messages?chat_id=${telegramId}`)
      ).json()) as { text?: string; from?: { is_bot: boolean } }[];
      const replies = chat.filter((m) => m.from?.is_bot).map((m) => m.text ?? '');
      expect(replies.at(-1)).toContain(member);
      // The seeded requests reached the approver (the admin's Telegram) as review cards.
      const approver = /The admin is Telegram user (\d+)/.exec(out)?.[1];
      const cards = (await (
        await fetch(`${telegramUrl}/__fake/messages?chat_id=${approver}`)
      ).json()) as { text?: string; caption?: string }[];
      expect(
        cards.filter((m) => /New request/.test(m.text ?? m.caption ?? '')).length,
      ).toBeGreaterThan(0);
      await eventually(() => expect(out).toContain('💬 Bot to'), { signal: gone.signal });

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toContain('Usher demo stopped.');
      expect(existsSync(dataDir!)).toBe(false);
      await expect(fetch(`${mediaUrl}/System/Info/Public`)).rejects.toThrow();
      await expect(fetch(`${base}/health`)).rejects.toThrow();
      await expect(fetch(`${botUrl}/health`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(web, { recursive: true, force: true });
    }
  }, 150_000);
});
