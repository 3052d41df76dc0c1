// The shared HTTP contract suite, unchanged, against the real nginx serving a built dist/ with the generated configuration.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBuild } from '../src/artifact.ts';
import { buildRouteTable } from '../src/build.ts';
import { fixtureReader } from '../src/cli.ts';
import { startNginx } from '../src/engines/nginx-run.ts';
import { defineHttpSuite } from './support/http-suite.ts';

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

function freePort(): Promise<number> {
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

/** Builds dist/ for the port nginx will answer on, then runs nginx over it; a missing nginx fails here, loudly. */
export async function startNginxOverBuild(): Promise<{ baseUrl: string; stop: () => Promise<void>; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mp-nginx-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  await writeBuild(buildRouteTable({ baseUrl, read: fixtureReader(FIXTURES) }), join(dir, 'dist'));
  const run = await startNginx({ distDir: join(dir, 'dist'), runDir: join(dir, 'run'), host: '127.0.0.1', port });
  return {
    baseUrl,
    dir,
    stop: async () => {
      await run.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

defineHttpSuite('nginx over dist/', startNginxOverBuild);
