// Starts the embedded server in this process on a free loopback port, with bytes built for that very URL.
import { createServer } from 'node:net';
import { buildRouteTable } from '../../src/build/build.ts';
import { fixturesOnDisk } from '../../src/sources/load.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../src/runtimes/server/listener.ts';

/** A free port, so the route table can be built for the URL the server will answer on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startEmbedded(options: ServerOptions = {}): Promise<{ running: RunningServer; table: RouteTable; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const table = buildRouteTable({ baseUrl, read: fixturesOnDisk(new URL('../../fixtures/', import.meta.url).pathname) });
  const running = await startServer(table, { host: '127.0.0.1', port }, options);
  return { running, table, baseUrl };
}
