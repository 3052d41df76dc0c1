// Start-up benchmark (npm run bench:startup): how long `npm start` takes from spawn to its first answer, against a bare node:http server started the same way.
//
// Both sides are started through npm: `npm start -- --port <port>` at the root (the command a user runs) and
// `npm run startup-bare -- --port <port>` in bench/ (bench/startup-bare.js, a node:http server answering 200 at
// once). npm's own start-up (loading its CLI and config, a shell that execs node) is on both sides on purpose: it is
// paid by whoever types `npm start`, whatever the service does, so leaving it out of the bare side would make the
// ratio measure npm rather than what the service adds (loading lib/, reading the fixtures, building, compressing and
// validating the route table). Being on both sides it also pulls the ratio towards 1, so the difference of the
// medians is printed too. Each round starts one of each, alternating which goes first; a run is timed from the spawn
// to the end of the first 200 answer to GET /api/markets (polled every POLL_MS), then the process group is sent
// SIGTERM and waited for. Environment: ROUNDS (default 5). Exit code 1 when the ratio of the medians is over 6.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/nginx-run.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TARGET = 6;
const POLL_MS = 5;
const GIVE_UP_MS = 60_000;

interface Side {
  label: string;
  cwd: string;
  args: (port: number) => string[];
}

const SIDES: readonly Side[] = [
  { label: 'npm start', cwd: ROOT, args: (port) => ['start', '--', '--port', String(port)] },
  { label: 'bare node:http', cwd: join(ROOT, 'bench'), args: (port) => ['run', 'startup-bare', '--', '--port', String(port)] },
];

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** The status of one GET, once its body has arrived; undefined when nothing listens yet. */
function get(url: string): Promise<number | undefined> {
  return new Promise((done) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode));
    });
    req.on('error', () => done(undefined));
    req.end();
  });
}

const alive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM to the whole process group (npm and the node it execs), then waits until none of it is left. */
async function stop(pgid: number, exited: Promise<void>): Promise<void> {
  if (alive(pgid)) process.kill(-pgid, 'SIGTERM');
  await exited;
  for (let waited = 0; alive(pgid); waited += POLL_MS) {
    if (waited === 15_000) process.kill(-pgid, 'SIGKILL'); // still there 15 s after SIGTERM (the drain allows 10 s)
    await sleep(POLL_MS);
  }
}

let running: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (running !== undefined && alive(running)) process.kill(-running, 'SIGTERM');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** Milliseconds from spawning one side to the end of its first 200 answer. */
async function once(side: Side): Promise<number> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/markets`;
  const started = performance.now();
  // Its own process group, so the server npm execs is stopped and waited for with it.
  const child = spawn('npm', side.args(port), { cwd: side.cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const pgid = child.pid as number;
  running = pgid;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let gone = false;
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      gone = true;
      done();
    }),
  );
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      if (gone) throw new Error(`${side.label} exited (${String(child.exitCode ?? child.signalCode)}) before answering:\n${stderr}`);
      if ((await get(url)) === 200) return performance.now() - started;
      await sleep(POLL_MS);
    }
    throw new Error(`${side.label}: no 200 from ${url} within ${GIVE_UP_MS} ms:\n${stderr}`);
  } finally {
    await stop(pgid, exited);
    running = undefined;
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'lib', 'cli.js'))) {
    process.stdout.write('bench:startup: lib/ is missing; npm run compile\n');
    if (spawnSync('npm', ['run', 'compile'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('npm run compile failed');
  }
  const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim();
  process.stdout.write(
    `bench:startup: ${cpus().length} CPUs, node ${process.version}, npm ${npmVersion}; spawn to the first 200 of GET /api/markets, ` +
      `${ROUNDS} rounds, the first side alternating\n`,
  );
  const times = new Map<string, number[]>(SIDES.map((s) => [s.label, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
    for (const side of order) times.get(side.label)?.push(await once(side));
    const cells = SIDES.map((s) => `${s.label} ${(times.get(s.label)?.[round] ?? Number.NaN).toFixed(0)} ms`);
    process.stdout.write(`round ${round + 1}: ${cells.join(', ')}\n`);
  }
  const [subject, bare] = SIDES.map((s) => median(times.get(s.label) ?? []));
  const ratio = (subject ?? Number.NaN) / (bare ?? Number.NaN);
  process.stdout.write(
    `median: npm start ${(subject ?? Number.NaN).toFixed(0)} ms, bare node:http ${(bare ?? Number.NaN).toFixed(0)} ms ` +
      `(difference ${((subject ?? 0) - (bare ?? 0)).toFixed(0)} ms)\n` +
      `ratio of medians: ${ratio.toFixed(2)} (target <= ${TARGET}): ${ratio <= TARGET ? 'met' : 'NOT met'}\n`,
  );
  if (!(ratio <= TARGET)) process.exitCode = 1;
}

await main();
