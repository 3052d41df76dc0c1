// Start-up benchmark (npm run bench:startup): how long `node bin/market-profiles.js serve` takes from spawn to its first answer, against a bare node:http server spawned the same way.
//
// Both sides are spawned the same way, `node <script> --port <port>` with the same environment: `node
// bin/market-profiles.js serve --out .dist-startup` at the root (the command `npm start` execs) and `node
// bench/startup-bare.js` (a node:http server answering 200 at once). Before the rounds, `node bin/market-profiles.js
// build --out .dist-startup` writes the artifact, so `serve` loads the route table the build wrote (its manifest's
// fingerprint matches the fixtures, the archive, the code and BASE_URL) instead of rendering and compressing again;
// its first line, which says where the table came from, is printed. Each round starts one of each, alternating which
// goes first; a run is timed from the spawn to the end of the first 200 answer to GET /api/markets (polled every
// POLL_MS), then the process is sent SIGTERM and waited for. Environment: ROUNDS (default 5). Exit code 1 when the
// ratio of the medians is over 1.5.
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/nginx-run.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** The ratio of the medians, at most (issue 47). */
const TARGET = 1.5;
/** The build and every serve use this BASE_URL, so the artifact matches (a free port would name another origin). */
const BASE_URL = 'http://localhost:3000';
const OUT = '.dist-startup';
const POLL_MS = 5;
const GIVE_UP_MS = 60_000;

interface Side {
  label: string;
  args: (port: number) => string[];
}

const SIDES: readonly Side[] = [
  { label: 'serve', args: (port) => ['bin/market-profiles.js', 'serve', '--out', OUT, '--port', String(port)] },
  { label: 'bare node:http', args: (port) => ['bench/startup-bare.js', '--port', String(port)] },
];
const ENV = { ...process.env, BASE_URL };
/** The first line `serve` printed (where its table came from). */
let serveLine = '';

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

/** SIGTERM to the process group, then waits until none of it is left. */
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
  // Its own process group, so the server and anything it starts are stopped and waited for with it.
  const child = spawn(process.execPath, side.args(port), { cwd: ROOT, env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => {
    if (side.label === 'serve' && serveLine === '') serveLine = chunk.toString().split('\n')[0] ?? '';
  });
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
  // lib/ is what bin/ runs: compiled from the sources as they are (incremental, quick when nothing changed).
  if (spawnSync('npm', ['run', 'compile'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('npm run compile failed');
  const built = spawnSync(process.execPath, ['bin/market-profiles.js', 'build', '--out', OUT], { cwd: ROOT, env: ENV, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the build failed:\n${built.stderr}`);
  process.stdout.write(
    `bench:startup: ${cpus().length} CPUs, node ${process.version}; node <script> --port <port>, BASE_URL=${BASE_URL}; ` +
      `spawn to the first 200 of GET /api/markets, ${ROUNDS} rounds, the first side alternating\n${built.stdout}`,
  );
  const times = new Map<string, number[]>(SIDES.map((s) => [s.label, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
    for (const side of order) times.get(side.label)?.push(await once(side));
    const cells = SIDES.map((s) => `${s.label} ${(times.get(s.label)?.[round] ?? Number.NaN).toFixed(0)} ms`);
    process.stdout.write(`round ${round + 1}: ${cells.join(', ')}\n`);
  }
  process.stdout.write(`${serveLine}\n`);
  const [subject, bare] = SIDES.map((s) => median(times.get(s.label) ?? []));
  const ratio = (subject ?? Number.NaN) / (bare ?? Number.NaN);
  process.stdout.write(
    `median: serve ${(subject ?? Number.NaN).toFixed(0)} ms, bare node:http ${(bare ?? Number.NaN).toFixed(0)} ms ` +
      `(difference ${((subject ?? 0) - (bare ?? 0)).toFixed(0)} ms)\n` +
      `ratio of medians: ${ratio.toFixed(2)} (target <= ${TARGET}): ${ratio <= TARGET ? 'met' : 'NOT met'}\n`,
  );
  if (!(ratio <= TARGET)) process.exitCode = 1;
}

await main();
