import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** Switches that make a fake misbehave the way a real upstream does on a bad day. */
export interface FaultSwitches {
  /** Delays every reply by `ms` (0 turns it off), to exercise client timeouts. */
  slow(ms: number): void;
  /** Every request gets the fake's own server-error reply with `status` (default 500 or 502). */
  fail(status?: number): void;
  /** Stops listening: new connections are refused (ECONNREFUSED), open ones are cut. */
  down(): Promise<void>;
  /** Listens again on the same port after `down()`. */
  up(): Promise<void>;
  /** Turns every switch off and brings the server back up. */
  clear(): Promise<void>;
  /** The current switch positions, for assertions and debugging. */
  readonly current: { slowMs: number; failStatus: number | null; down: boolean };
}

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

export interface FakeHttpServerOptions {
  /** Writes the system-specific server-error body used by `faults.fail()`. */
  failReply: (res: http.ServerResponse, status: number) => void;
  /** Status used by `faults.fail()` without an argument. */
  defaultFailStatus?: number;
}

export interface FakeHttpServer {
  readonly url: string;
  readonly port: number;
  readonly server: http.Server;
  readonly faults: FaultSwitches;
  close(): Promise<void>;
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function stopListening(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    // Keep-alive sockets would otherwise hold `close()` open until they time out.
    server.closeAllConnections();
  });
}

/**
 * Starts a node:http server on 127.0.0.1 with an OS-chosen port and the common fault switches.
 * Handler errors become a bare 500 so a bug in a fake shows up as a failing test, not a hang.
 */
export async function startFakeHttpServer(
  handler: RequestHandler,
  options: FakeHttpServerOptions,
): Promise<FakeHttpServer> {
  const state = { slowMs: 0, failStatus: null as number | null, down: false };
  const server = http.createServer((req, res) => {
    void (async () => {
      if (state.slowMs > 0) await delay(state.slowMs);
      if (state.failStatus !== null) {
        options.failReply(res, state.failStatus);
        return;
      }
      await handler(req, res);
    })().catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake server error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  const port = await listen(server, 0);
  const faults: FaultSwitches = {
    slow(ms) {
      state.slowMs = ms;
    },
    fail(status) {
      state.failStatus = status ?? options.defaultFailStatus ?? 500;
    },
    async down() {
      state.down = true;
      await stopListening(server);
    },
    async up() {
      if (!server.listening) await listen(server, port);
      state.down = false;
    },
    async clear() {
      state.slowMs = 0;
      state.failStatus = null;
      await faults.up();
    },
    get current() {
      return { ...state };
    },
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    faults,
    close: () => stopListening(server),
  };
}
