// Runs the shared HTTP contract suite against the embedded server on a free loopback port.
import { createServer } from 'node:net';
import { buildRouteTable } from '../src/build.ts';
import { fixtureReader } from '../src/cli.ts';
import { startServer } from '../src/server.ts';
import { defineHttpSuite } from './support/http-suite.ts';

/** A free port, so the bytes can be built for the URL the server will answer on. */
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

defineHttpSuite('embedded server', async () => {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const table = buildRouteTable({ baseUrl, read: fixtureReader(new URL('../fixtures/', import.meta.url).pathname) });
  const running = await startServer(table, { host: '127.0.0.1', port });
  return { baseUrl, stop: () => running.close() };
});
