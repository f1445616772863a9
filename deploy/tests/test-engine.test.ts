// The database engine `npm test` gives the API's suites (scripts/test/engine.mjs): the server in
// TEST_DATABASE_URL, else the machine's PostgreSQL when the suites can use it, else embedded
// PGlite — and USHER_TEST_ENGINE to choose.
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

interface Probe {
  ok: boolean;
  version?: string;
  reason?: string;
}
interface Engine {
  LOCAL_POSTGRES: string;
  probePostgres(url: string, timeoutMs?: number): Promise<Probe>;
  chooseEngine(
    env: Record<string, string | undefined>,
    probe?: (url: string) => Promise<Probe>,
  ): Promise<{ engine: string; url?: string; why: string }>;
  includesApi(args: string[]): boolean;
}
let engine: Engine;
beforeAll(async () => {
  engine = (await import(pathToFileURL(join(ROOT, 'scripts/test/engine.mjs')).href)) as Engine;
});

/** A probe that records the addresses it was asked about. */
function probeAnswering(answer: Probe) {
  const asked: string[] = [];
  const probe = (url: string) => {
    asked.push(url);
    return Promise.resolve(answer);
  };
  return { asked, probe };
}

describe('choosing the engine', () => {
  test('TEST_DATABASE_URL wins, without probing anything', async () => {
    const { asked, probe } = probeAnswering({ ok: true, version: '17' });
    const url = 'postgres://ci@db.example:5433/postgres';
    const choice = await engine.chooseEngine(
      { TEST_DATABASE_URL: url, USHER_TEST_ENGINE: 'pglite' },
      probe,
    );
    expect(choice).toMatchObject({ engine: 'postgres', url });
    expect(asked).toEqual([]);
  });

  test('USHER_TEST_ENGINE=pglite uses PGlite even when a server is there', async () => {
    const { asked, probe } = probeAnswering({ ok: true, version: '17' });
    const choice = await engine.chooseEngine({ USHER_TEST_ENGINE: 'pglite' }, probe);
    expect(choice.engine).toBe('pglite');
    expect(choice.url).toBeUndefined();
    expect(asked).toEqual([]);
  });

  test.each([undefined, 'auto', 'postgres'])(
    'with USHER_TEST_ENGINE=%s, a usable local server is used',
    async (wanted) => {
      const { asked, probe } = probeAnswering({ ok: true, version: '17.6' });
      const choice = await engine.chooseEngine({ USHER_TEST_ENGINE: wanted }, probe);
      expect(choice).toMatchObject({ engine: 'postgres', url: engine.LOCAL_POSTGRES });
      expect(choice.why).toContain('PostgreSQL 17.6');
      expect(asked).toEqual([engine.LOCAL_POSTGRES]);
    },
  );

  test('without a usable server it falls back to PGlite and says why', async () => {
    const { probe } = probeAnswering({ ok: false, reason: 'connect ECONNREFUSED 127.0.0.1:5432' });
    const choice = await engine.chooseEngine({}, probe);
    expect(choice.engine).toBe('pglite');
    expect(choice.why).toContain('ECONNREFUSED');
  });

  test('USHER_TEST_ENGINE=postgres without a usable server fails, saying why', async () => {
    const { probe } = probeAnswering({ ok: false, reason: 'the role may not create databases' });
    await expect(engine.chooseEngine({ USHER_TEST_ENGINE: 'postgres' }, probe)).rejects.toThrow(
      /not usable: the role may not create databases/,
    );
  });

  test('an unknown USHER_TEST_ENGINE is refused', async () => {
    const { asked, probe } = probeAnswering({ ok: true });
    await expect(engine.chooseEngine({ USHER_TEST_ENGINE: 'mysql' }, probe)).rejects.toThrow(
      /must be one of auto, postgres, pglite, not "mysql"/,
    );
    expect(asked).toEqual([]);
  });
});

describe('probing a server', () => {
  let silent: Server;
  const held: Socket[] = [];
  let silentPort = 0;
  beforeAll(async () => {
    // Accepts connections and never answers, like a firewalled or hung server.
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    held.forEach((socket) => socket.destroy());
    await new Promise((done) => silent.close(done));
  });

  test('a closed port is not usable', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    const found = await engine.probePostgres(`postgres://postgres@127.0.0.1:${port}/postgres`);
    expect(found.ok).toBe(false);
    expect(found.reason).toMatch(/ECONNREFUSED/);
  });

  test('a server that never answers is given up on within the timeout', async () => {
    const started = Date.now();
    const found = await engine.probePostgres(
      `postgres://postgres@127.0.0.1:${silentPort}/postgres`,
      300,
    );
    expect(found.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  const server = process.env.TEST_DATABASE_URL;
  (server ? test : test.skip)(
    'the PostgreSQL the suites run on is usable (runs where TEST_DATABASE_URL is set)',
    async () => {
      const found = await engine.probePostgres(server!);
      expect(found).toMatchObject({ ok: true });
      expect(found.version).toMatch(/^\d+/);
    },
  );
});

test.each([
  [[], true],
  [['--projects=api'], true],
  [['--projects=web,api'], true],
  [['-p', 'api'], true],
  [['--projects', 'web,deploy'], false],
  [['--projects=api-pglite'], false],
  [['--skip-nx-cache'], true],
])('nx arguments %j leave the API in the run: %s', (args, included) => {
  expect(engine.includesApi(args)).toBe(included);
});
