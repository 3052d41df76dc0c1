// Serving benchmark (npm run bench:serve): the embedded server against the node:http ceiling and static servers, side by side in one run.
//
// nginx with the generated configuration is measured against stock nginx (bench/nginx-stock.ts: one worker, access_log
// off, etag on, our nginx.conf's sendfile and open_file_cache, one `location = /path` per row with `alias` to the same
// file and each of our headers as a literal string), the two interleaved BENCH_ROUNDS times with their worker's CPU per request; target (issue 56): 0.9 or more of
// stock for the common request (the rows of an exact path, identity or a precompressed variant).
// Every server runs in its own child process on a loopback port; the load generator is wrk (Debian's, when
// installed: its C client costs the shared CPUs far less per request than a JavaScript one, so the servers are
// what is measured) or else autocannon in this process. Ratios to the ceiling are the measure (docs/serving.md):
// the ceiling (a bare node:http server sending the embedded server's exact answers from a Map), the embedded server,
// a second copy of the ceiling and a bare server without the required headers are measured BENCH_ROUNDS times,
// interleaved, and each ratio is the median of the per-round ratios, so drift in a shared machine's speed falls on
// both sides; the second ceiling's ratio (ideally 1.00) shows how much of any gap the machine's noise alone explains.
// Environment: BENCH_SECONDS (per cell, default 1), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (default 11),
// BENCH_LOADGEN (wrk | autocannon), BENCH_ONLY (comma-separated server keys, e.g. ceiling,embedded), NGINX (binary),
// BENCH_PIN (1 by default: with taskset and two or more CPUs, every server runs on CPU 0 and the load generator on
// CPU 1, so neither is ever scheduled onto the other's core and a server's speed is not a matter of placement).
// The static-file servers and autocannon come from bench/package.json, installed on the first run (bench/deps.ts).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SITE_DIR, fileFor, type Manifest } from '../src/artifact/manifest.ts';
import { findNginx, freePort, startNginx as startNginxRun, type NginxRun } from '../scripts/nginx-run.ts';
import { ensureBenchPackages } from './deps.ts';
import { MADE_BY_NGINX, startStockNginx, type StockAnswer } from './nginx-stock.ts';
import { ROWS, type Row } from './serve-rows.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.dist-bench');
const BASE_URL = 'http://127.0.0.1:8080';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const WARMUP_SECONDS = 1;
/** The embedded server's worst row, as a share of the ceiling's requests per second (issue 47). */
const TARGET = 0.95;
/** Measured round by round, interleaved; every other server is measured once per row. */
const INTERLEAVED = ['ceiling', 'embedded', 'ceiling-2', 'bare'];
/** nginx with our configuration and the stock ones: measured round by round too, interleaved with each other. */
const NGINX_PAIR = ['nginx', 'nginx-stock', 'nginx-stock-transport'];
/** nginx with our configuration, worst common row, as a share of stock nginx's requests per second (issue 56). */
const NGINX_TARGET = 0.9;

function which(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin'])) {
    const path = join(dir, cmd);
    if (dir !== '' && existsSync(path)) return path;
  }
  return undefined;
}

const WRK = process.env.BENCH_LOADGEN === 'autocannon' ? undefined : which('wrk');
const TASKSET = process.env.BENCH_PIN === '0' || cpus().length < 2 ? undefined : which('taskset');
const SERVER_CPU = '0';
const LOADGEN_CPU = '1';

/** The command line that runs `cmd` on one CPU, when pinning is on. */
const pinned = (cpu: string, cmd: string, args: string[]): [string, string[]] => (TASKSET === undefined ? [cmd, args] : [TASKSET, ['-c', cpu, cmd, ...args]]);

/** Moves a running process, every thread of it and its child processes (nginx's workers) onto one CPU. */
function pinProcessTree(pid: number, cpu: string): void {
  if (TASKSET === undefined) return;
  for (const p of [String(pid), ...childrenOf(pid)]) spawnSync(TASKSET, ['-a', '-cp', cpu, p], { stdio: 'ignore' });
}

/** The live child processes of a process, from /proc. */
const childrenOf = (pid: number): string[] => readdirSync('/proc').filter((p) => /^\d+$/.test(p) && parentOf(p) === String(pid));

function parentOf(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
  } catch {
    return undefined; // exited between the listing and the read
  }
}

interface Target {
  key: string;
  label: string;
  /** The request target this server is sent for a row (some static servers need the file's own path). */
  pathFor: (row: Row) => string;
  note?: string;
  url?: string;
  child?: ChildProcess;
  stop?: () => void;
}

const routeKind = (path: string): 'json' | 'csv' => (path.endsWith('/csv') ? 'csv' : 'json');
/** The file behind a route in dist/site (src/artifact/manifest.ts decides the mapping). */
const filePath = (row: Row): string => (row.kind === 'not-found' ? row.path : `/${fileFor({ path: row.path, kind: routeKind(row.path) })}`);

function startChild(kind: string): Promise<{ url: string; child: ChildProcess }> {
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, ['--import', 'tsx', join(ROOT, 'bench/serve-targets.ts'), kind, join(OUT, SITE_DIR), BASE_URL]);
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1] !== undefined) resolveUrl({ url: m[1], child });
    });
    child.once('exit', (code) => reject(new Error(`${kind} exited with ${String(code)} before listening`)));
  });
}

async function startNode(t: Target): Promise<void> {
  const { url, child } = await startChild(t.key === 'ceiling-2' ? 'ceiling' : t.key);
  t.url = url;
  t.child = child;
}

/** nginx over the same built output, through the generated config (scripts/nginx-run.ts), when nginx is installed. */
async function startNginx(target: Target): Promise<string | undefined> {
  let run: NginxRun;
  try {
    findNginx();
  } catch (error) {
    return `skipped: ${(error as Error).message}`;
  }
  try {
    // One worker, like each single-threaded node server here.
    run = await startNginxRun({
      distDir: OUT,
      runDir: mkdtempSync(join(tmpdir(), 'bench-nginx-')),
      host: '127.0.0.1',
      port: await freePort(),
      workerProcesses: 1,
    });
  } catch (error) {
    return `skipped: ${(error as Error).message.split('\n')[0] ?? ''}`;
  }
  target.url = run.url;
  target.child = run.process;
  if (run.process.pid !== undefined) pinProcessTree(run.process.pid, SERVER_CPU);
  target.stop = () => void run.stop();
  return undefined;
}

interface Probe {
  status: number;
  etag: string | undefined;
  encoding: string | undefined;
}

function probe(url: string, path: string, headers: Record<string, string>): Promise<Probe> {
  return new Promise((done, reject) => {
    const req = request(`${url}${path}`, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, etag: res.headers.etag, encoding: res.headers['content-encoding'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One answer as sent: status, headers with their names' case, body (never decompressed). */
function capture(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; raw: string[]; body: Buffer }> {
  return new Promise((done, reject) => {
    const req = request(`${url}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, raw: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What stock nginx answers for each row: our nginx's answer, the file behind it (by its ETag in the manifest) or its body. */
async function stockAnswers(nginxUrl: string): Promise<StockAnswer[]> {
  const manifest = JSON.parse(readFileSync(join(OUT, 'manifest.json'), 'utf8')) as Manifest;
  const answers: StockAnswer[] = [];
  for (const row of ROWS) {
    const got = await capture(nginxUrl, row.path, row.acceptEncoding === undefined ? {} : { 'Accept-Encoding': row.acceptEncoding });
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < got.raw.length; i += 2) pairs.push([got.raw[i] ?? '', got.raw[i + 1] ?? '']);
    const value = (name: string): string | undefined => pairs.find(([k]) => k.toLowerCase() === name)?.[1];
    const variant = manifest.routes.find((r) => r.path === row.path)?.variants.find((v) => v.etag === value('etag'));
    answers.push({
      path: row.path,
      status: got.status,
      contentType: value('content-type') ?? '',
      ...(variant === undefined ? { body: got.body.toString('utf8') } : { file: join(OUT, SITE_DIR, variant.file) }),
      headers: pairs.filter(([k]) => !MADE_BY_NGINX.has(k.toLowerCase())),
    });
  }
  return answers;
}

interface Cell {
  rps: number;
  p99: number;
  errors: number;
  requests: number;
  cpuUs?: number;
}

const MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };

function wrk(url: string, headers: Record<string, string>, seconds: number): Cell {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const out = execFileSync(...pinned(LOADGEN_CPU, WRK as string, args), { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socket === null ? 0 : socket.slice(1).reduce((s, n) => s + Number(n), 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  return { rps, p99: p99 === null ? Number.NaN : Number(p99[1]) * (MS[p99[2] ?? 'ms'] ?? 1), errors, requests };
}

async function cannon(url: string, headers: Record<string, string>, seconds: number): Promise<Cell> {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, headers, duration: seconds });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts, requests: result.requests.total };
}

/**
 * CPU time (user + system, µs) a process and its live children (nginx's workers) have used so far, from /proc;
 * undefined where there is no /proc.
 */
function cpuUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const ticks = (p: string): number => {
    const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  };
  const childTicks = (p: string): number => {
    try {
      return ticks(p);
    } catch {
      return 0; // exited between the listing and the read
    }
  };
  try {
    return ((ticks(String(pid)) + childrenOf(pid).reduce((sum, p) => sum + childTicks(p), 0)) * 1e6) / 100; // USER_HZ ticks of 1/100 s
  } catch {
    return undefined;
  }
}

async function measure(url: string, headers: Record<string, string>, pid: number | undefined, warm: boolean): Promise<Cell> {
  if (warm && WRK !== undefined) wrk(url, headers, WARMUP_SECONDS);
  else if (warm) await cannon(url, headers, WARMUP_SECONDS);
  const before = cpuUs(pid);
  const cell = WRK !== undefined ? wrk(url, headers, SECONDS) : await cannon(url, headers, SECONDS);
  const after = cpuUs(pid);
  if (before !== undefined && after !== undefined && cell.requests > 0) cell.cpuUs = (after - before) / cell.requests;
  return cell;
}

/** The q-quantile by linear interpolation (q = 0.5 is the median). */
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return (s[lo] ?? Number.NaN) + ((s[lo + 1] ?? s[lo] ?? 0) - (s[lo] ?? 0)) * (at - lo);
};
const median = (xs: number[]): number => quantile(xs, 0.5);

async function main(): Promise<void> {
  ensureBenchPackages('bench:serve');
  process.stdout.write(`bench:serve: building into ${OUT.replace(ROOT, '')}/ (base URL ${BASE_URL})\n`);
  const built = spawnSync(process.execPath, [join(ROOT, 'bin/market-profiles.js'), 'build', '--out', OUT, '--base-url', BASE_URL], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);

  const targets: Target[] = [
    { key: 'ceiling', label: 'node:http ceiling', pathFor: (r) => r.path, note: "the embedded server's bytes from a Map" },
    { key: 'embedded', label: 'embedded server', pathFor: (r) => r.path },
    // The same ceiling again in its own process: its ratio to the first is this run's noise floor.
    { key: 'ceiling-2', label: 'ceiling, 2nd process', pathFor: (r) => r.path, note: 'noise floor' },
    { key: 'bare', label: 'node:http, bare', pathFor: (r) => r.path, note: 'Content-Type and Content-Length only' },
    { key: 'fastify-static', label: '@fastify/static', pathFor: filePath, note: 'file path' },
    { key: 'sirv', label: 'sirv', pathFor: (r) => r.path },
    { key: 'express-static', label: 'express.static', pathFor: filePath, note: 'file path; no precompressed files' },
    { key: 'nginx', label: 'nginx', pathFor: (r) => r.path, note: 'the generated configuration' },
    { key: 'nginx-stock', label: 'nginx, stock', pathFor: (r) => r.path, note: 'literal location per row' },
    { key: 'nginx-stock-transport', label: 'nginx, stock+', pathFor: (r) => r.path, note: 'the same, with our sendfile and open_file_cache' },
  ];
  // autocannon runs in this process: it takes the load generator's CPU (the servers are started pinned to theirs).
  if (WRK === undefined) pinProcessTree(process.pid, LOADGEN_CPU);
  const only = process.env.BENCH_ONLY?.split(',');
  const notes: string[] = [];
  const live: Target[] = [];
  try {
    for (const t of targets.filter((x) => only === undefined || only.includes(x.key))) {
      if (t.key === 'nginx') {
        const skipped = await startNginx(t);
        if (skipped === undefined) live.push(t);
        else notes.push(`nginx ${skipped}`);
        continue;
      }
      if (t.key === 'nginx-stock' || t.key === 'nginx-stock-transport') {
        const ours = live.find((x) => x.key === 'nginx');
        if (ours?.url === undefined) {
          notes.push('stock nginx skipped: it answers what nginx with the generated configuration answers, which did not start');
          continue;
        }
        const run = await startStockNginx(
          mkdtempSync(join(tmpdir(), 'bench-nginx-stock-')),
          '127.0.0.1',
          await freePort(),
          await stockAnswers(ours.url),
          t.key === 'nginx-stock-transport',
        );
        t.url = run.url;
        t.child = run.process;
        if (run.process.pid !== undefined) pinProcessTree(run.process.pid, SERVER_CPU);
        t.stop = () => void run.stop();
        live.push(t);
        continue;
      }
      await startNode(t);
      live.push(t);
    }

    const loadgen = WRK === undefined ? 'autocannon' : (spawnSync(WRK, ['--version'], { encoding: 'utf8' }).stdout.split(' [')[0] ?? 'wrk');
    const placement = TASKSET === undefined ? 'not pinned' : `servers on CPU ${SERVER_CPU}, ${WRK === undefined ? 'autocannon' : 'wrk'} on CPU ${LOADGEN_CPU}`;
    process.stdout.write(
      `bench:serve: ${cpus().length} CPUs, node ${process.version}, ${loadgen}, ${placement}, ${CONNECTIONS} keep-alive connections, ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s per cell, ceiling, embedded, a 2nd ceiling and bare x${ROUNDS} interleaved\n\n`,
    );
    const cells = new Map<string, Cell[]>();
    const seen = new Map<string, string>();
    for (const [rowIndex, row] of ROWS.entries()) {
      // Fresh processes for every row: what one row left in a process's JIT state does not weigh on the next.
      if (rowIndex > 0) {
        for (const t of live.filter((x) => INTERLEAVED.includes(x.key))) {
          t.child?.kill();
          await startNode(t);
        }
      }
      const base: Record<string, string> = row.acceptEncoding === undefined ? {} : { 'Accept-Encoding': row.acceptEncoding };
      const headersFor = new Map<string, Record<string, string>>();
      for (const t of live) {
        const path = t.pathFor(row);
        const headers = { ...base };
        if (row.kind === 'not-modified') {
          const first = await probe(t.url ?? '', path, base);
          if (first.etag !== undefined) headers['If-None-Match'] = first.etag;
        }
        const p = await probe(t.url ?? '', path, headers);
        seen.set(`${row.name}|${t.key}`, `${p.status}${p.encoding === undefined ? '' : ` ${p.encoding}`}${p.status === row.status ? '' : ' (!)'}`);
        headersFor.set(t.key, headers);
      }
      const run = async (t: Target): Promise<void> => {
        // nginx's work happens in its worker processes, not the master we started: no CPU figure for it.
        const key = `${row.name}|${t.key}`;
        // nginx's CPU is its worker's, a child of the master started here.
        const cell = await measure(`${t.url ?? ''}${t.pathFor(row)}`, headersFor.get(t.key) ?? {}, t.child?.pid, !cells.has(key));
        cells.set(key, [...(cells.get(key) ?? []), cell]);
      };
      const pair = live.filter((t) => INTERLEAVED.includes(t.key));
      for (let round = 0; round < ROUNDS; round += 1) {
        // Each round starts with the next server in turn, so no server always follows the same one.
        const order = [...pair.slice(round % pair.length), ...pair.slice(0, round % pair.length)];
        for (const t of round % 2 === 0 ? order : order.reverse()) await run(t);
      }
      const nginxPair = live.filter((t) => NGINX_PAIR.includes(t.key));
      for (let round = 0; round < (nginxPair.length > 1 ? ROUNDS : 1); round += 1) {
        // Each round starts with the next server in turn, as the node pair's do.
        const order = [...nginxPair.slice(round % nginxPair.length), ...nginxPair.slice(0, round % nginxPair.length)];
        for (const t of round % 2 === 0 ? order : order.reverse()) await run(t);
      }
      for (const t of live.filter((x) => !pair.includes(x) && !nginxPair.includes(x))) await run(t);
    }

    const header = ['row', 'server', 'req/s', 'p99 ms', 'x ceiling', 'cpu µs/req', 'answer', 'errors', 'note'];
    const spreads: string[] = [];
    const lines: string[][] = [];
    const ratios = new Map<string, number>();
    const noise = new Map<string, number>();
    for (const row of ROWS) {
      const ceiling = cells.get(`${row.name}|ceiling`) ?? [];
      const ceilingRps = median(ceiling.map((c) => c.rps));
      for (const t of live) {
        const list = cells.get(`${row.name}|${t.key}`);
        if (list === undefined) continue;
        const rps = median(list.map((c) => c.rps));
        // Round by round for the interleaved pair; against the median ceiling for servers measured once.
        const perRound = list.map((c, i) => c.rps / (ceiling[i]?.rps ?? Number.NaN));
        const interleaved = INTERLEAVED.includes(t.key) && t.key !== 'ceiling';
        const ratio = interleaved ? median(perRound) : rps / ceilingRps;
        if (t.key === 'embedded') ratios.set(row.name, ratio);
        if (t.key === 'ceiling-2') noise.set(row.name, ratio);
        if (interleaved) {
          spreads.push(
            `${row.name}, ${t.label}: ${perRound.length} rounds, ratio quartiles ${quantile(perRound, 0.25).toFixed(2)} / ${ratio.toFixed(2)} / ${quantile(perRound, 0.75).toFixed(2)}`,
          );
        }
        lines.push([
          row.name,
          t.label,
          Math.round(rps).toString(),
          median(list.map((c) => c.p99)).toFixed(2),
          ratio.toFixed(2),
          list.every((c) => c.cpuUs !== undefined) ? median(list.map((c) => c.cpuUs ?? 0)).toFixed(1) : '-',
          seen.get(`${row.name}|${t.key}`) ?? '?',
          String(list.reduce((s, c) => s + c.errors, 0)),
          t.note ?? '',
        ]);
      }
    }
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
    const fmt = (row: string[]): string => `| ${row.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
    process.stdout.write(`${fmt(header)}\n${fmt(widths.map((w) => '-'.repeat(w)))}\n${lines.map(fmt).join('\n')}\n`);
    process.stdout.write(`\nratio to the ceiling, round by round (quartiles / median / quartiles):\n${spreads.map((x) => `  ${x}`).join('\n')}\n`);
    for (const n of notes) process.stdout.write(`\nnote: ${n}`);
    const worst = Math.min(...ratios.values());
    const floor = ROWS.map((row) => noise.get(row.name)).filter((r): r is number => r !== undefined);
    process.stdout.write(
      `\n\nembedded server, worst row: ${worst.toFixed(2)} of the ceiling (target ${TARGET.toFixed(2)}): ${worst >= TARGET ? 'met' : 'NOT met'}\n`,
    );
    const againstBare = ROWS.map((row) => {
      const emb = cells.get(`${row.name}|embedded`);
      const bareCells = cells.get(`${row.name}|bare`);
      if (emb === undefined || bareCells === undefined) return undefined;
      return `${row.name} ${median(emb.map((c, i) => c.rps / (bareCells[i]?.rps ?? Number.NaN))).toFixed(2)}`;
    }).filter((x): x is string => x !== undefined);
    if (againstBare.length > 0)
      process.stdout.write(`embedded server against the bare server (the required headers left out), round by round: ${againstBare.join(', ')}\n`);
    const againstStock = (key: string): { row: Row; rps: number; cpu: number }[] =>
      ROWS.map((row) => {
        const ours = cells.get(`${row.name}|nginx`);
        const stock = cells.get(`${row.name}|${key}`);
        if (ours === undefined || stock === undefined) return undefined;
        const rps = median(ours.map((c, i) => c.rps / (stock[i]?.rps ?? Number.NaN)));
        const cpu = median(ours.map((c, i) => (stock[i]?.cpuUs ?? Number.NaN) / (c.cpuUs ?? Number.NaN)));
        return { row, rps, cpu };
      }).filter((x) => x !== undefined);
    for (const [key, what] of [
      ['nginx-stock', 'stock nginx'],
      ['nginx-stock-transport', "stock nginx with our nginx.conf's sendfile and open_file_cache"],
    ] as const) {
      const rows = againstStock(key);
      if (rows.length === 0) continue;
      process.stdout.write(
        `nginx (generated configuration) against ${what}, round by round, req/s (CPU per request, theirs over ours): ${rows.map((x) => `${x.row.name} ${x.rps.toFixed(2)} (${x.cpu.toFixed(2)})`).join(', ')}\n`,
      );
      if (key !== 'nginx-stock') continue;
      // The common request: an exact path, identity or a precompressed variant (a 304 and a 404 are shown, not held to it).
      const common = rows.filter((x) => x.row.kind === 'ok');
      const worstNginx = Math.min(...common.map((x) => x.rps));
      process.stdout.write(
        `nginx, worst common row (${common.map((x) => x.row.name).join(', ')}): ${worstNginx.toFixed(2)} of stock nginx (target ${NGINX_TARGET.toFixed(2)}): ${worstNginx >= NGINX_TARGET ? 'met' : 'NOT met'}\n`,
      );
    }
    if (floor.length > 0) {
      process.stdout.write(
        `noise floor: the 2nd ceiling process ranged ${Math.min(...floor).toFixed(2)}–${Math.max(...floor).toFixed(2)} of the 1st on the same rows (ideally 1.00)\n`,
      );
    }
  } finally {
    for (const t of live) {
      if (t.stop !== undefined) t.stop();
      else t.child?.kill();
    }
    rmSync(OUT, { recursive: true, force: true });
  }
}

await main();
