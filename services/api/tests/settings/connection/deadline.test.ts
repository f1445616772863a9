import { jest } from '@jest/globals';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { ok, runCheck, TestDeadline } from '../../../src/modules/settings/connection/check.js';
import { TEST_DEADLINE_MS } from '../../../src/modules/settings/connection/index.js';
import { ENGINE } from '../../support/database.js';
import { check, connectionHarness, type ConnectionHarness } from './helpers.js';

const MEDIA_KEY = 'UsherTestKey0123456789abcdef';

const portOf = (server: Server | TcpServer) => (server.address() as { port: number }).port;

/** An upstream that accepts every request and never answers it. */
async function hangingHttpServer(): Promise<{ server: Server; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createHttpServer((req) => void seen.push(req));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, seen };
}

/**
 * A mail server that greets, accepts EHLO, sender and recipient, takes the message body and then
 * never confirms it: the `smtp` check passes, the `test_message` check hangs.
 */
async function smtpHangingAfterData(): Promise<{ server: TcpServer; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    let inData = false;
    socket.write('220 hang.test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        if (inData) continue; // the body and its final "." stay unanswered
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 hang.test\r\n');
        else if (verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET') socket.write('250 Ok\r\n');
        else if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else socket.write('502 Not implemented\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, sockets };
}

describe(`connection test: the whole test's deadline (${ENGINE})`, () => {
  it('should default to 10 s in production', () => {
    const deadline = new TestDeadline(TEST_DEADLINE_MS);
    deadline.dispose();

    expect(TEST_DEADLINE_MS).toBe(10_000);
    expect(deadline.timedOutMessage).toBe(
      "Timed out after 10 s: no answer before the connection test's 10 s limit",
    );
  });

  describe('with an upstream that never answers', () => {
    let media: Awaited<ReturnType<typeof hangingHttpServer>>;
    let smtp: Awaited<ReturnType<typeof smtpHangingAfterData>>;
    let h: ConnectionHarness;

    beforeAll(async () => {
      media = await hangingHttpServer();
      smtp = await smtpHangingAfterData();
      h = await connectionHarness(
        {
          MEDIA_SERVER_KIND: 'jellyfin',
          MEDIA_SERVER_URL: `http://127.0.0.1:${portOf(media.server)}`,
          MEDIA_SERVER_API_KEY: MEDIA_KEY,
          // Per call 2 s, so the group's own bound would be 16 s: only the deadline can answer.
          MEDIA_SERVER_TIMEOUT_SECONDS: '2',
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(portOf(smtp.server)),
          SMTP_SECURITY: 'none',
          SMTP_FROM: 'Usher <no-reply@usher.example>',
        },
        { connectionTestDeadlineMs: 1500 },
      );
    });
    afterAll(async () => {
      await h.close();
      media.server.closeAllConnections();
      for (const socket of smtp.sockets) socket.destroy();
      await Promise.all([
        new Promise((r) => media.server.close(r)),
        new Promise((r) => smtp.server.close(r)),
      ]);
    });

    it('should answer the media-server test at the deadline with ok:false and a timeout reason', async () => {
      const started = performance.now();

      const res = await h.test('media_server');

      const elapsed = performance.now() - started;
      expect(media.seen.length).toBeGreaterThan(0); // the upstream was really asked
      expect(res.ok).toBe(false);
      expect(res.checks).toEqual([
        {
          target: 'server',
          status: 'fail',
          message: "Timed out after 1.5 s: no answer before the connection test's 1.5 s limit",
          reason: 'deadline',
          latencyMs: expect.any(Number),
        },
      ]);
      expect(check(res, 'server').latencyMs).toBeGreaterThanOrEqual(1400);
      // The deadline answered (its message), long before the group's old 16 s bound.
      expect(elapsed).toBeGreaterThanOrEqual(1400);
      expect(elapsed).toBeLessThan(5000);
    });

    it('should bound the two email checks together and keep the one that finished', async () => {
      const started = performance.now();

      const res = await h.test('email', { to: 'admin@example.org' });

      const elapsed = performance.now() - started;
      expect(res.ok).toBe(false);
      expect(check(res, 'smtp')).toMatchObject({ status: 'ok' });
      expect(check(res, 'test_message')).toMatchObject({
        status: 'fail',
        message: "Timed out after 1.5 s: no answer before the connection test's 1.5 s limit",
      });
      // Each check alone may take 10 s; together they still answer at the 1.5 s deadline.
      expect(elapsed).toBeGreaterThanOrEqual(1400);
      expect(elapsed).toBeLessThan(5000);
    });
  });

  describe('runCheck against the deadline', () => {
    // Both bounds are timers on the clock (no sockets here), so a fake clock steps past them.
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('should fail a check still waiting at the deadline, before its own longer bound', async () => {
      const deadline = new TestDeadline(200);
      let settled = false;

      const pending = runCheck(
        'stripe',
        { timeoutMs: 10_000, deadline },
        () => new Promise(() => undefined),
      );
      void pending.then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(199);
      const settledEarly = settled;
      await jest.advanceTimersByTimeAsync(1);
      const settledAtDeadline = settled;
      const result = await pending;
      deadline.dispose();

      expect(settledEarly).toBe(false);
      expect(settledAtDeadline).toBe(true);
      expect(result).toEqual({
        target: 'stripe',
        status: 'fail',
        message: "Timed out after 0.2 s: no answer before the connection test's 0.2 s limit",
        reason: 'deadline',
        latencyMs: 200,
      });
    });

    it('should fail a check due to start after the deadline without running it', async () => {
      const deadline = new TestDeadline(0);
      await jest.advanceTimersByTimeAsync(5);
      let ran = false;

      const result = await runCheck('test_message', { timeoutMs: 10_000, deadline }, async () => {
        ran = true;
        return ok('sent');
      });
      deadline.dispose();

      expect(result).toEqual({
        target: 'test_message',
        status: 'fail',
        message: "Not run: the connection test's 0 s limit had passed",
        reason: 'not_run',
        latencyMs: 0,
      });
      expect(ran).toBe(false);
    });
  });
});
