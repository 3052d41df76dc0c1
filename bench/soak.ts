// Soak (npm run soak): the real `serve` command under sustained keep-alive load; no errors allowed, memory must stay flat.
//
// Environment: SOAK_SECONDS (measured part, default 60), SOAK_CONNECTIONS (default 100), SOAK_WARMUP_SECONDS
// (default 10; RSS is read after it, once the JIT and the allocator have settled). autocannon comes from bench/package.json,
// installed on the first run (bench/deps.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { ensureBenchPackages } from './deps.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS ?? 10);
/** Growth over the measured part that still counts as flat: allocator noise, not a leak. */
const FLAT_MB = 16;

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? Number.NaN) / 1024;
}

function etagOf(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((done, reject) => {
    request(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(String(res.headers.etag)));
    })
      .on('error', reject)
      .end();
  });
}

async function main(): Promise<void> {
  ensureBenchPackages('soak');
  const { default: autocannon } = await import('autocannon');
  const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/market-profiles.js', import.meta.url)), 'serve', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((done, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) done(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${String(code)}`)));
  });
  const pid = child.pid as number;
  try {
    const profile = '/api/markets/us-tx-austin';
    const csv = '/api/markets/us-ca-san-diego/csv';
    const etag = await etagOf(`${url}${profile}`, {});
    const gzipEtag = await etagOf(`${url}${csv}`, { 'accept-encoding': 'gzip' });
    // Every answer in this mix is a 200 or a 304; anything else is counted as unexpected.
    const requests = [
      { method: 'GET' as const, path: profile },
      { method: 'GET' as const, path: csv, headers: { 'accept-encoding': 'gzip, deflate, br' } },
      { method: 'GET' as const, path: csv, headers: { 'accept-encoding': 'gzip' } },
      { method: 'GET' as const, path: profile, headers: { 'if-none-match': etag } },
      { method: 'GET' as const, path: csv, headers: { 'accept-encoding': 'gzip', 'if-none-match': `"x", ${gzipEtag}` } },
      // No HEAD here: autocannon's parser waits for a HEAD answer's Content-Length bytes and stalls the connection.
      { method: 'GET' as const, path: '/api/markets' },
      { method: 'GET' as const, path: '/api/markets/csv?utm=soak', headers: { 'accept-encoding': 'br' } },
      { method: 'GET' as const, path: '/healthz' },
    ];
    const run = (duration: number) => autocannon({ url, connections: CONNECTIONS, duration, requests });

    process.stdout.write(`soak: ${url}, server pid ${pid}, ${CONNECTIONS} keep-alive connections, ${WARMUP} s warm-up, then ${SECONDS} s\n`);
    const warm = await run(WARMUP);
    const start = rssMb(pid);
    const samples: string[] = [];
    const sampler = setInterval(() => samples.push(rssMb(pid).toFixed(1)), 10_000);
    const result = await run(SECONDS);
    clearInterval(sampler);
    const end = rssMb(pid);

    const errors = result.errors + result.timeouts + warm.errors + warm.timeouts;
    const unexpected = result['1xx'] + result['4xx'] + result['5xx'] + warm['1xx'] + warm['4xx'] + warm['5xx'];
    const flat = end - start <= FLAT_MB;
    process.stdout.write(
      [
        `requests:             ${result.requests.total} in ${SECONDS} s (${Math.round(result.requests.average)}/s), p99 ${result.latency.p99} ms`,
        `answers:              2xx ${result['2xx']}, 3xx (304) ${result['3xx']}`,
        `errors:               ${errors}`,
        `non-2xx/304 answers:  ${unexpected}`,
        `RSS after warm-up:    ${start.toFixed(1)} MB`,
        `RSS every 10 s:       ${samples.join(', ')} MB`,
        `RSS at end:           ${end.toFixed(1)} MB (${end - start >= 0 ? '+' : ''}${(end - start).toFixed(1)} MB; flat means within ${FLAT_MB} MB)`,
        `verdict:              ${errors === 0 && unexpected === 0 && flat ? 'pass' : 'FAIL'}`,
        '',
      ].join('\n'),
    );
    if (errors !== 0 || unexpected !== 0 || !flat) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
