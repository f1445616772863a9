// `npm run demo` end to end: the real script (deps check, API build, launcher bundle), the real
// API process on PGlite wired to the fakes, the printed credentials, and a clean Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm run demo (scripts/demo.mjs)', () => {
  it('should come up with working credentials and wired fakes, then stop on SIGINT', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(root, 'scripts/demo.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!out.includes('Usher demo is up')) {
        if (child.exitCode !== null) throw new Error(`demo exited early:\n${out}`);
        if (Date.now() > deadline) throw new Error(`demo not up within 60 s:\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const password = /Sign in\s+admin \/ (\S+)/.exec(out)?.[1];
      const dataDir = /fresh PGlite in (\S+)/.exec(out)?.[1];
      const imageBase = /TMDB\s+\S+\s+images (\S+)/.exec(out)?.[1];
      const mediaUrl = /Jellyfin\s+(http:\S+)/.exec(out)?.[1];
      expect(out).toContain(`Open       http://localhost:${port}`);
      expect(existsSync(dataDir!)).toBe(true);

      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/health`)).status).toBe(200);
      const site = (await (await fetch(`${base}/api/v1/public/site`)).json()) as Record<
        string,
        unknown
      >;
      expect(site).toMatchObject({
        siteName: 'Usher Demo',
        mediaServerKind: 'jellyfin',
        tmdbImageBase: imageBase,
        emailEnabled: true,
        paymentsEnabled: true,
      });
      const login = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status).toBe(200);
      const body = (await login.json()) as { user: { mustChangePassword: boolean } };
      expect(body.user.mustChangePassword).toBe(true);
      expect((await fetch(`${mediaUrl}/System/Info/Public`)).status).toBe(200);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toContain('Usher demo stopped.');
      expect(existsSync(dataDir!)).toBe(false);
      await expect(fetch(`${mediaUrl}/System/Info/Public`)).rejects.toThrow();
      await expect(fetch(`${base}/health`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
