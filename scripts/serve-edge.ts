// `npm run serve:edge`: builds dist/ for PORT and BASE_URL, then runs the edge Worker on Cloudflare's local runtime (workerd, through Miniflare) in the foreground, restarting it if it stops answering.
import { resolve } from 'node:path';
import { readArchive } from '../src/archive/archive.ts';
import { writeBuild } from '../src/artifact/write.ts';
import { buildRouteTable } from '../src/pipeline/build.ts';
import { loadConfig } from '../src/commands/config.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';
import { installEdgeTools, superviseMiniflare } from './edge-run.ts';

const config = loadConfig(process.env, process.argv.slice(2));
installEdgeTools();
// Always rebuilt: the links inside dist/ must name the address the Worker is about to serve.
const table = buildRouteTable({ baseUrl: config.baseUrl, read: fixturesOnDisk(config.fixturesDir), archive: readArchive(config.archiveDir) });
await writeBuild(table, config.outDir);
const say = (line: string): void => void process.stderr.write(`market-profiles: ${line}\n`);
// workerd through Miniflare, as the tests run it; wrangler dev's development proxy in front of it is left out, since one
// request (a body announced and never sent) stopped that proxy for good (docs/deploy.md).
const edge = await superviseMiniflare(
  { distDir: resolve(config.outDir), host: config.host, port: config.port },
  { everyMs: 2000, timeoutMs: 1500, failures: 3, restarts: 3, say },
  () => process.exit(1),
);
process.stdout.write(`market-profiles: the edge Worker (workerd) serving ${config.outDir}/edge/ on ${edge.url} (links use ${config.baseUrl})\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void edge.stop().then(() => process.exit(0));
  });
}
