// A TCP listener that records every connection and byte: the attacker's address in the
// secret-destination tests (tests/settings/connection and the reliability suite).
import { createServer, type Socket } from 'node:net';

export interface RecordingListener {
  url: string;
  port: number;
  connections: number;
  /** Every byte received, as latin1 text (a secret sent in any protocol shows up here). */
  received: string;
  close(): Promise<void>;
}

/**
 * Records what arrives, then hangs up after the first chunk, so a client that did connect gives
 * up at once. With `greeting`, it speaks first (e.g. `220 …` so an SMTP client talks).
 */
export async function startRecordingListener(
  options: { greeting?: string } = {},
): Promise<RecordingListener> {
  const sockets = new Set<Socket>();
  const listener = { connections: 0, received: '' } as RecordingListener;
  const server = createServer((socket) => {
    listener.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      listener.received += chunk.toString('latin1');
      socket.end();
    });
    if (options.greeting) socket.write(options.greeting);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  listener.port = (server.address() as { port: number }).port;
  listener.url = `http://127.0.0.1:${listener.port}`;
  listener.close = () => {
    for (const s of sockets) s.destroy();
    return new Promise((r) => server.close(() => r()));
  };
  return listener;
}
