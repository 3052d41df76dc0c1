// `npm run serve:nginx`: builds dist/ for PORT and BASE_URL from FIXTURES_DIR and ARCHIVE_DIR (as `build` does), then runs the real nginx over it in the foreground.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readArchive } from '../src/archive/archive.ts';
import { writeBuild } from '../src/artifact/write.ts';
import { buildRouteTable } from '../src/pipeline/build.ts';
import { loadConfig } from '../src/commands/config.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';
import { startNginx } from './nginx-run.ts';

const config = loadConfig(process.env, process.argv.slice(2));
// Always rebuilt: the links inside dist/ must name the address nginx is about to serve.
const table = buildRouteTable({ baseUrl: config.baseUrl, read: fixturesOnDisk(config.fixturesDir), archive: readArchive(config.archiveDir) });
await writeBuild(table, config.outDir);
const runDir = join(tmpdir(), `market-profiles-nginx-${config.port}`);
const nginx = await startNginx({
  distDir: resolve(config.outDir),
  runDir,
  host: config.host,
  port: config.port,
  accessLog: config.log,
  workerProcesses: 'auto',
  stdio: 'inherit',
});
process.stdout.write(
  `market-profiles: nginx (pid ${nginx.process.pid ?? '?'}) serving ${config.outDir}/ on ${nginx.url} (links use ${config.baseUrl}); config ${nginx.confPath}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void nginx.stop().then(() => process.exit(0));
  });
}
nginx.process.on('exit', (code) => process.exit(code ?? 1));
