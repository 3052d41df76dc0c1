// Starts the embedded server in this process on a loopback port, with bytes built for that very URL.
import { fixturesOnDisk } from '../../src/sources/load.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../src/runtimes/server/listener.ts';
import { WORLD_FIXTURES, buildWorld } from '../world/world.ts';

/** Binds port 0 first and builds the table for the port the kernel gave: no probe, so no port another test can take meanwhile. */
export async function startEmbedded(options: ServerOptions = {}): Promise<{ running: RunningServer; table: RouteTable; baseUrl: string }> {
  const read = fixturesOnDisk(WORLD_FIXTURES);
  const running = await startServer((port) => buildWorld({ baseUrl: `http://127.0.0.1:${port}`, read }), { host: '127.0.0.1', port: 0 }, options);
  return { running, table: running.table, baseUrl: running.table.baseUrl };
}
