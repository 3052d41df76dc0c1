// Memory benchmark (npm run bench:verify-memory): the peak resident memory of `market-profiles verify` against a loopback deployment whose every answer is a 250 MiB body.
//
// A node:http server in this process answers with BODY_MIB MiB bodies, poured in 1 MiB blocks as the socket takes them,
// so the server itself holds one block. Three deployments: every request answered 200 with spaces (application/json),
// its length declared (Content-Length) or streamed without (chunked); and the service itself (the route table built
// from fixtures/ and archive/ for the server's address), every route's identity bytes followed by BODY_MIB MiB of
// spaces with the route's own headers, so every JSON document still parses and verify reads on through every check. For each, `verify <url>` runs in a child process
// of its own (`--timeout-ms 600000`, so the deadline never cuts a read short and only the size limit can), started
// through tsx from the source of ROOT (default this checkout; another checkout's root measures its code, such as main's
// before the limit). The child prints `process.resourceUsage().maxRSS` as it exits; while it runs, its resident memory
// is read with `ps` every POLL_MS, and it is killed past CAP_MIB (a guard for a shared machine: the line then says
// "over"). Prints one line per deployment: the peak, the exit code and verify's first failing check. Environment:
// BODY_MIB (default 250), CAP_MIB (default 4096), ROOT. Exit code 1 when a peak reaches the cap.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readArchive } from '../src/archive/archive.ts';
import { buildRouteTable } from '../src/pipeline/build.ts';
import type { RouteTable } from '../src/routes/route-table.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';

const ROOT = resolve(process.env.ROOT ?? fileURLToPath(new URL('..', import.meta.url)));
const BODY_MIB = Number(process.env.BODY_MIB ?? 250);
const CAP_MIB = Number(process.env.CAP_MIB ?? 4096);
const POLL_MS = 100;
const BLOCK = Buffer.alloc(1024 * 1024, 0x20);

type Mode = 'declared' | 'chunked' | 'padded';
const LABELS: Record<Mode, string> = {
  declared: 'spaces, Content-Length declared',
  chunked: 'spaces, chunked, no length     ',
  padded: 'the service, each body padded  ',
};
const HERE = fileURLToPath(new URL('..', import.meta.url));

/** A deployment whose every answer is BODY_MIB MiB (padded: the service's route, then BODY_MIB MiB of spaces). */
function hugeDeployment(mode: Mode, table: () => RouteTable | undefined): Server {
  return createServer((req, res) => {
    const route = mode === 'padded' ? table()?.routes.get((req.url ?? '/').split('?')[0] ?? '/') : undefined;
    if (mode === 'padded' && route === undefined) {
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
      return;
    }
    const head = route?.identity.body ?? Buffer.alloc(0);
    const headers: Record<string, string | number> = Object.fromEntries(route?.headers ?? [['Content-Type', 'application/json']]);
    if (mode !== 'chunked') headers['Content-Length'] = head.length + BODY_MIB * BLOCK.length;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.write(head);
    let left = BODY_MIB;
    const pour = (): void => {
      while (left > 0) {
        left -= 1;
        if (!res.write(BLOCK)) {
          res.once('drain', pour);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => undefined);
    pour();
  });
}

/** The resident memory of a process in MiB, read with ps; undefined once it is gone. */
function rssMib(pid: number): number | undefined {
  const out = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  const kib = Number(out.stdout.trim());
  return out.status === 0 && Number.isFinite(kib) && kib > 0 ? kib / 1024 : undefined;
}

interface Measured {
  peakMib: number;
  over: boolean;
  code: number | null;
  firstFailure: string;
}

/** Runs ROOT's verify against `url` in a child process and measures its peak resident memory. */
async function measure(url: string): Promise<Measured> {
  const cli = pathToFileURL(resolve(ROOT, 'src/commands/cli.ts')).href;
  const entry = [
    `process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS + '\\n'));`,
    `const { main } = await import(${JSON.stringify(cli)});`,
    `process.exitCode = await main(['verify', ${JSON.stringify(url)}, '--timeout-ms', '600000'], {});`,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', entry], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-20_000)));
  let sampled = 0;
  let over = false;
  const poll = setInterval(() => {
    const now = child.pid === undefined ? undefined : rssMib(child.pid);
    if (now === undefined) return;
    sampled = Math.max(sampled, now);
    if (now >= CAP_MIB && !over) {
      over = true;
      child.kill('SIGKILL');
    }
  }, POLL_MS);
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  clearInterval(poll);
  const reported = /maxrss (\d+)/.exec(err)?.[1];
  const peakMib = Math.max(sampled, reported === undefined ? 0 : Number(reported) / 1024);
  const firstFailure = out.split('\n').find((line) => line.startsWith('FAIL')) ?? (err.trim().split('\n')[0] || '(none)');
  return { peakMib, over, code, firstFailure };
}

let failed = false;
console.log(`verify ${ROOT} against answers of ${BODY_MIB} MiB each (cap ${CAP_MIB} MiB)`);
for (const mode of ['declared', 'chunked', 'padded'] as const) {
  let table: RouteTable | undefined;
  const server = hugeDeployment(mode, () => table);
  // No idle or request deadline of the server's own: only verify's limits end a read (a kept-alive socket closed under
  // a verify busy parsing would otherwise end its run early with "socket hang up").
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (mode === 'padded') {
    table = buildRouteTable({ baseUrl: url, read: fixturesOnDisk(resolve(HERE, 'fixtures')), archive: readArchive(resolve(HERE, 'archive')) });
  }
  try {
    const m = await measure(url);
    failed ||= m.over;
    const peak = m.over ? `over ${CAP_MIB} MiB (killed)` : `${m.peakMib.toFixed(0)} MiB`;
    console.log(`${LABELS[mode]}: peak RSS ${peak}; exit ${String(m.code)}; ${m.firstFailure.slice(0, 200)}`);
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}
process.exitCode = failed ? 1 : 0;
