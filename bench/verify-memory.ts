// Memory benchmark (npm run bench:verify-memory): the peak resident memory of `market-profiles verify` and of the client's command line against loopback servers that answer far more than any answer of the service can be.
//
// A node:http server in this process answers with bodies of BODY_MIB MiB (250 by default), poured in 1 MiB blocks as the
// socket takes them, so the server itself holds one block. Four deployments for verify: every request answered 200 with
// spaces (application/json), its length declared (Content-Length) or streamed without (chunked); the service itself (the
// route table built from fixtures/ and archive/ for the server's address), every route's identity bytes followed by
// BODY_MIB MiB of spaces with the route's own headers, so every JSON document still parses; and the service with only
// its sixteen profiles padded, by spaces before the JSON, to PROFILE_MIB MiB (63 by default: under the 64 MiB of
// --max-bytes, issue 56's deployment). For each, `verify <url>` runs in a child process of its own (`--timeout-ms
// 600000`, so the deadline never cuts a read short and only the size limits can), started through tsx from the source of
// ROOT (default this checkout; another checkout's root measures its code). Then the client's command line
// (ROOT/client/lib/bin.js, as installed) against three hostile answers: a valid JSON index of BODY_MIB MiB of small
// numbers (`list`), a profile of 200,000 nested arrays and a problem whose detail holds terminal escape sequences (`get`).
// Each child prints `process.resourceUsage().maxRSS` to a file as it exits; while it runs, its resident memory is read
// with `ps` every POLL_MS, and it is killed past CAP_MIB (a guard for a shared machine: the line then says "over").
// Prints one line per run: the peak, the exit code and (verify) its first failing check or (client) what it wrote on
// stderr: its lines, whether an escape byte was among them, the first line. Targets (issue 56): every peak under
// TARGET_MIB (512); the client exits 1 with one line and no escape byte. Environment: BODY_MIB, PROFILE_MIB, CAP_MIB
// (default 4096), ROOT. Exit code 1 when a target is not met.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readArchive } from '../src/archive/archive.ts';
import { buildRouteTable } from '../src/pipeline/build.ts';
import type { RouteTable } from '../src/routes/route-table.ts';
import { createHandler } from '../src/runtimes/server/handler.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';

const ROOT = resolve(process.env.ROOT ?? fileURLToPath(new URL('..', import.meta.url)));
const BODY_MIB = Number(process.env.BODY_MIB ?? 250);
const PROFILE_MIB = Number(process.env.PROFILE_MIB ?? 63);
const CAP_MIB = Number(process.env.CAP_MIB ?? 4096);
const TARGET_MIB = 512;
const POLL_MS = 100;
const BLOCK = Buffer.alloc(1024 * 1024, 0x20);
const PROFILE = /^\/api\/markets\/us-[a-z]{2}-[a-z0-9-]+$/;

type Mode = 'declared' | 'chunked' | 'padded' | 'profiles';
const LABELS: Record<Mode, string> = {
  declared: 'spaces, Content-Length declared        ',
  chunked: 'spaces, chunked, no length             ',
  padded: 'the service, each body padded          ',
  profiles: `the service, its profiles ${String(PROFILE_MIB).padStart(3)} MiB each `,
};
const HERE = fileURLToPath(new URL('..', import.meta.url));

/** Writes `head`, then `mib` MiB of spaces as the socket takes them (one block held at a time). */
function pour(res: ServerResponse, head: Buffer, mib: number, tail: Buffer = Buffer.alloc(0)): void {
  res.write(head);
  let left = mib;
  const more = (): void => {
    while (left > 0) {
      left -= 1;
      if (!res.write(BLOCK)) {
        res.once('drain', more);
        return;
      }
    }
    res.end(tail);
  };
  res.on('error', () => undefined);
  more();
}

/** A deployment for verify (see the header): what each mode answers at each path. */
function hugeDeployment(mode: Mode, table: () => RouteTable | undefined): Server {
  // The profiles mode is the service itself, its own handler, but for the profiles.
  let service: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const routes = table();
    if (mode === 'profiles' && routes !== undefined && !PROFILE.test(path)) {
      service ??= createHandler(routes);
      service(req, res);
      return;
    }
    const route = mode === 'padded' || mode === 'profiles' ? routes?.routes.get(path) : undefined;
    if ((mode === 'padded' || mode === 'profiles') && route === undefined) {
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
      return;
    }
    const identity = route?.identity.body ?? Buffer.alloc(0);
    const headers: Record<string, string | number> = Object.fromEntries(route?.headers ?? [['Content-Type', 'application/json']]);
    // Spaces before the JSON for a profile (it still parses), after it for every body of the padded service.
    const mib = mode === 'profiles' ? PROFILE_MIB : BODY_MIB;
    if (mode !== 'chunked') headers['Content-Length'] = identity.length + mib * BLOCK.length;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (mode === 'profiles') pour(res, Buffer.alloc(0), mib, identity);
    else pour(res, identity, mib);
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
  out: string;
  err: string;
}

/** Preloaded into each child: its peak resident memory written to MAXRSS_FILE as it exits, so stderr holds only what it says. */
const MAXRSS_HOOK = `data:text/javascript,${encodeURIComponent("import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.MAXRSS_FILE, String(process.resourceUsage().maxRSS)));")}`;

/** Runs node with `args` in a child process and measures its peak resident memory, polled and as it reported it. */
async function measure(args: readonly string[]): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'verify-memory-'));
  const file = join(dir, 'maxrss');
  const child = spawn(process.execPath, ['--import', MAXRSS_HOOK, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MAXRSS_FILE: file },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out = (out + c.toString('latin1')).slice(-20_000)));
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('latin1')).slice(-20_000)));
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
  let reported = 0;
  try {
    reported = Number(readFileSync(file, 'utf8')) / 1024;
  } catch {
    reported = 0; // killed before it could write
  }
  rmSync(dir, { recursive: true, force: true });
  return { peakMib: Math.max(sampled, reported), over, code, out, err };
}

const peakText = (m: Measured): string => (m.over ? `over ${CAP_MIB} MiB (killed)` : `${m.peakMib.toFixed(0)} MiB`);
const underTarget = (m: Measured): boolean => !m.over && m.peakMib < TARGET_MIB;

let failed = false;
console.log(
  `bench:verify-memory: ${ROOT}; answers of ${BODY_MIB} MiB, profiles of ${PROFILE_MIB} MiB; target: every peak under ${TARGET_MIB} MiB (cap ${CAP_MIB} MiB)`,
);

/** Serves `handler` on a loopback port for the time `body` takes. */
async function serving<T>(server: Server, body: (url: string) => Promise<T>): Promise<T> {
  // No idle or request deadline of the server's own: only the client's limits end a read.
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    return await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}

const cli = pathToFileURL(resolve(ROOT, 'src/commands/cli.ts')).href;
for (const mode of ['declared', 'chunked', 'padded', 'profiles'] as const) {
  let table: RouteTable | undefined;
  await serving(
    hugeDeployment(mode, () => table),
    async (url) => {
      if (mode === 'padded' || mode === 'profiles') {
        table = buildRouteTable({ baseUrl: url, read: fixturesOnDisk(resolve(HERE, 'fixtures')), archive: readArchive(resolve(HERE, 'archive')) });
      }
      const entry = [
        `const { main } = await import(${JSON.stringify(cli)});`,
        `process.exitCode = await main(['verify', ${JSON.stringify(url)}, '--timeout-ms', '600000'], {});`,
      ].join('\n');
      const m = await measure(['--import', 'tsx', '--input-type=module', '-e', entry]);
      failed ||= !underTarget(m);
      const fails = m.out.split('\n').filter((line) => line.startsWith('FAIL'));
      const first = fails[0] ?? (m.err.trim().split('\n')[0] || '(none)');
      console.log(`verify, ${LABELS[mode]}: peak RSS ${peakText(m)}; exit ${String(m.code)}; ${fails.length} checks failed; first: ${first.slice(0, 220)}`);
    },
  );
}

/** The client's command line against one hostile answer: what it wrote on stderr, and whether that meets the targets. */
const ESC = '\u001b';
const hostile: { label: string; argv: string[]; answer: (res: ServerResponse) => void }[] = [
  {
    label: `list, a ${BODY_MIB} MiB index of small numbers, chunked`,
    argv: ['list'],
    answer: (res) => {
      const head = Buffer.from('{"schemaVersion":"1","caveats":["c"],"markets":[0');
      const tail = Buffer.from(']}');
      // Chunked, no length declared: only a limit on what is read ends it.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // ",0" repeated: a block of it, BODY_MIB times.
      const block = Buffer.from(',0'.repeat(BLOCK.length / 2));
      res.write(head);
      let left = BODY_MIB;
      const more = (): void => {
        while (left > 0) {
          left -= 1;
          if (!res.write(block)) {
            res.once('drain', more);
            return;
          }
        }
        res.end(tail);
      };
      res.on('error', () => undefined);
      more();
    },
  },
  {
    label: 'get --series, 200,000 nested arrays           ',
    argv: ['get', 'us-tx-austin', '--series'],
    answer: (res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"schemaVersion":"1","caveats":["c"],"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`),
  },
  {
    label: 'get, a problem whose detail holds escapes     ',
    argv: ['get', 'us-tx-austin'],
    answer: (res) =>
      res.writeHead(404, { 'Content-Type': 'application/problem+json' }).end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Not found',
          status: 404,
          code: 'market_not_found',
          detail: `${ESC}[2J${ESC}[H${ESC}]0;owned\u0007${ESC}[31mAll is well.${ESC}[0m`,
        }),
      ),
  },
];
const bin = resolve(ROOT, 'client/lib/bin.js');
for (const { label, argv, answer } of hostile) {
  await serving(
    createServer((_req, res) => answer(res)),
    async (url) => {
      const m = await measure([bin, ...argv, '--base-url', url]);
      const lines = m.err.split('\n').filter((line) => line !== '');
      const escapes = m.err.includes(ESC) || m.out.includes(ESC);
      const ok = underTarget(m) && m.code === 1 && lines.length === 1 && !escapes;
      failed ||= !ok;
      console.log(
        `client ${label}: peak RSS ${peakText(m)}; exit ${String(m.code)}; ${lines.length} line${lines.length === 1 ? '' : 's'} on stderr; ${escapes ? 'an escape byte written' : 'no escape byte'}; ${JSON.stringify((lines[0] ?? '').slice(0, 200))}`,
      );
    },
  );
}
console.log(failed ? 'targets: NOT met' : 'targets: met');
process.exitCode = failed ? 1 : 0;
