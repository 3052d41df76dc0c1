// `npm run serve:edge`: builds dist/ for PORT and BASE_URL, then runs the edge Worker on Cloudflare's local runtime (wrangler dev, workerd) in the foreground.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readArchive } from '../src/archive/archive.ts';
import { writeBuild } from '../src/artifact/write.ts';
import { buildRouteTable } from '../src/build/build.ts';
import { loadConfig } from '../src/commands/config.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';
import { installEdgeTools, startEdge } from './edge-run.ts';

const config = loadConfig(process.env, process.argv.slice(2));
installEdgeTools();
// Always rebuilt: the links inside dist/ must name the address the Worker is about to serve.
const table = buildRouteTable({ baseUrl: config.baseUrl, read: fixturesOnDisk(config.fixturesDir), archive: readArchive(config.archiveDir) });
await writeBuild(table, config.outDir);
const edge = await startEdge({
  distDir: resolve(config.outDir),
  runDir: join(tmpdir(), `market-profiles-edge-${config.port}`),
  host: config.host,
  port: config.port,
  stdio: 'inherit',
  logLevel: config.log ? 'info' : 'warn',
});
process.stdout.write(
  `market-profiles: the edge Worker (wrangler dev, pid ${edge.process.pid ?? '?'}) serving ${config.outDir}/edge/ on ${edge.url} (links use ${config.baseUrl})\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void edge.stop().then(() => process.exit(0));
  });
}
edge.process.on('exit', (code) => process.exit(code ?? 1));
