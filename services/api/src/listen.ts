import { createServer } from 'node:net';

/**
 * Listening problems an operator fixes with PORT or HOST, said in one line instead of Node's
 * `EADDRINUSE` stack trace (issue 32). Undefined for any other error, which stays a crash.
 */
export function listenFailure(
  err: NodeJS.ErrnoException,
  port: number,
  host: string | undefined,
): string | undefined {
  const on = host ? ` on ${host}` : '';
  switch (err.code) {
    case 'EADDRINUSE':
      return `Port ${port}${on} is already in use (PORT=${port}): stop the other process or set PORT`;
    case 'EACCES':
      return `Port ${port}${on} needs privileges this process lacks (PORT=${port}): choose a port above 1023 or set PORT`;
    case 'EADDRNOTAVAIL':
      return `HOST=${host ?? ''} is not an address of this machine: set HOST to one of its addresses, or leave it unset`;
    default:
      return undefined;
  }
}

/**
 * Binds and releases `port` so a busy port is found before the database is opened (migrations,
 * and on the embedded database its lock). The real listen can still lose a race for the port; its
 * error takes the same one-line path.
 */
export function probePort(
  port: number,
  host: string | undefined,
): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}
