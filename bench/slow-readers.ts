// Slow-reader benchmark (npm run bench:slow-readers): what a new client waits while stalled readers pile answers up, on `serve` and on a bare node:http server.
//
// Each side is a child process over the same build (.dist-slow-readers): `node bin/market-profiles.js serve --out`
// (it starts from the built table) and bench/slow-readers-bare.ts (node:http answering every route's bytes from a Map,
// nothing checked). In a round, this process opens a new connection every 10 ms and asks GET /healthz (the bare side:
// GET /robots.txt, as small) for PROBE_SECONDS; after one second, 200 other clients (python3: node cannot shrink a
// socket's receive window) each set SO_RCVBUF to 1 KB, send 20 pipelined `GET /` and never read. Printed per round: the
// probe's worst wait before the attack and under it, and the kernel's TCP memory (/proc/net/sockstat, pages) at the
// peak and a second after the attackers close. ROUNDS rounds (default 5), the first side alternating; the summary
// compares the medians of the worst waits under attack. Exit code 1 when serve's is over TARGET times the bare server's.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/nginx-run.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = '.dist-slow-readers';
const ENV = { ...process.env, BASE_URL: 'http://localhost:3000' };
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PROBE_SECONDS = 4;
const ATTACK_AT_MS = 1000;
const READERS = 200;
const PIPELINED = 20;
const TARGET = 2;

const ATTACK = `
import socket, sys, time
port, readers, pipelined, seconds = (int(a) for a in sys.argv[1:5])
held = []
for _ in range(readers):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024); s.connect(('127.0.0.1', port))
    s.sendall(b'GET / HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n' * pipelined); held.append(s)
time.sleep(seconds)
for s in held: s.close()
`;

interface Side {
  label: string;
  probePath: string;
  start: () => Promise<{ port: number; child: ChildProcess }>;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Spawns a server and waits for the line that gives its port. */
function spawnServer(args: string[], portOf: (line: string) => number | undefined): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited (${String(code)}) before listening`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      const port = portOf(chunk.toString());
      if (port !== undefined) done({ port, child });
    });
  });
}

const SIDES: readonly Side[] = [
  {
    label: 'serve',
    probePath: '/healthz',
    start: async () => {
      const port = await freePort();
      return spawnServer(['bin/market-profiles.js', 'serve', '--out', OUT, '--port', String(port)], (line) =>
        line.includes(' routes on ') ? port : undefined,
      );
    },
  },
  {
    label: 'bare node:http',
    probePath: '/robots.txt',
    start: () =>
      spawnServer(['--import', 'tsx', 'bench/slow-readers-bare.ts', OUT], (line) => Number(/READY (\d+)/.exec(line)?.[1] ?? Number.NaN) || undefined),
  },
];

function tcpMemoryPages(): number {
  const line = readFileSync('/proc/net/sockstat', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('TCP:'));
  return Number(/\bmem (\d+)/.exec(line ?? '')?.[1] ?? Number.NaN);
}

/** One request on a new connection: ms from connect() to the end of the answer (the server closes after it). */
function ask(port: number, path: string): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    socket.resume();
    socket.on('close', () => done(performance.now() - started));
    socket.on('error', fail);
  });
}

interface Round {
  before: number;
  during: number;
  peak: number;
  after: number;
}

async function round(side: Side): Promise<Round> {
  const { port, child } = await side.start();
  try {
    const before: number[] = [];
    const during: number[] = [];
    let peak = tcpMemoryPages();
    let attack: ChildProcess | undefined;
    const started = performance.now();
    while (performance.now() - started < PROBE_SECONDS * 1000) {
      if (attack === undefined && performance.now() - started >= ATTACK_AT_MS) {
        const args = ['-c', ATTACK, String(port), String(READERS), String(PIPELINED), String(PROBE_SECONDS)];
        attack = spawn('python3', args, { stdio: 'inherit' });
      }
      (attack === undefined ? before : during).push(await ask(port, side.probePath));
      peak = Math.max(peak, tcpMemoryPages());
      await sleep(10);
    }
    await new Promise<void>((done) => (attack?.exitCode !== null ? done() : attack.once('exit', () => done())));
    await sleep(1000);
    return { before: Math.max(...before), during: Math.max(...during), peak, after: tcpMemoryPages() };
  } finally {
    child.kill('SIGTERM');
    await new Promise<void>((done) => (child.exitCode !== null ? done() : child.once('exit', () => done())));
  }
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  if (spawnSync('python3', ['-c', 'pass']).status !== 0) throw new Error('bench:slow-readers needs python3 for the attacking clients');
  if (spawnSync('npm', ['run', 'compile'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('npm run compile failed');
  const built = spawnSync(process.execPath, ['bin/market-profiles.js', 'build', '--out', OUT], { cwd: ROOT, env: ENV, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the build failed:\n${built.stderr}`);
  process.stdout.write(
    `bench:slow-readers: ${cpus().length} CPUs, node ${process.version}; a new connection every 10 ms for ${PROBE_SECONDS} s; after ` +
      `${ATTACK_AT_MS / 1000} s, ${READERS} clients with a 1 KB receive window send ${PIPELINED} pipelined GET / each and never read; ` +
      `${ROUNDS} rounds, the first side alternating\n${built.stdout}`,
  );
  const worst = new Map<string, number[]>(SIDES.map((s) => [s.label, []]));
  for (let r = 0; r < ROUNDS; r += 1) {
    for (const side of r % 2 === 0 ? SIDES : [...SIDES].reverse()) {
      const result = await round(side);
      worst.get(side.label)?.push(result.during);
      process.stdout.write(
        `round ${r + 1}, ${side.label}: worst wait ${result.before.toFixed(0)} ms before the attack, ${result.during.toFixed(0)} ms under it; ` +
          `kernel TCP memory ${result.peak} pages at the peak, ${result.after} a second after the attackers closed\n`,
      );
    }
  }
  const [subject, bare] = SIDES.map((s) => median(worst.get(s.label) ?? []));
  const ratio = (subject ?? Number.NaN) / (bare ?? Number.NaN);
  process.stdout.write(
    `median worst wait under attack: serve ${(subject ?? Number.NaN).toFixed(0)} ms, bare node:http ${(bare ?? Number.NaN).toFixed(0)} ms\n` +
      `ratio: ${ratio.toFixed(2)} (target <= ${TARGET}): ${ratio <= TARGET ? 'met' : 'NOT met'}\n`,
  );
  if (!(ratio <= TARGET)) process.exitCode = 1;
}

await main();
