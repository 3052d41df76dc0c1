// Fuzz: thousands of generated requests (fixed seed) at the embedded server; no 5xx, no crash, no byte outside the route table.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import type { RouteTable } from '../../src/routes/route-table.ts';
import type { RunningServer } from '../../src/runtimes/server/listener.ts';
import { startEmbedded } from '../support/embedded.ts';
import { checkResponse, expectedFor, parseResponses, type Expected, type RawResponse } from '../support/http-suite.ts';

const SEED = 0x5eed_2026;
const REQUESTS = 3000;
const PARALLEL = 16;

/** mulberry32: small, fast and the same sequence on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Generated {
  bytes: Buffer;
  head: boolean;
  label: string;
}

function generator(table: RouteTable, host: string, seed: number): () => Generated {
  const rnd = prng(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const chance = (p: number): boolean => rnd() < p;
  const paths = [...table.routes.keys()];
  const etags = [...table.routes.values()].flatMap((r) => [r.identity, r.gzip, r.br].filter((v) => v !== undefined).map((v) => v.etag));
  const fragments = [
    '',
    '/',
    '//',
    '/.',
    '/..',
    '/./',
    '/../',
    '%2e',
    '%2E%2e',
    '%2f',
    '%2F',
    '%5c',
    '\\',
    '%00',
    '%',
    '%g1',
    '%zz',
    '%c0%af',
    '%e2%82%ac',
    '%ff',
    '~',
    ';x=1',
    '.json',
    '.gz',
    '.br',
    'index.json',
    '?',
    '?a=1',
    '?%zz',
    '#f',
    '*',
    '@',
    ':',
    'é',
    '\u00ff',
    '\x01',
    '\x7f',
    '\t',
    'A',
    'csv',
    'us-xx-nowhere',
    '-',
    '_',
    '.env',
    '.git/config',
    '..%2f',
    '%252e',
  ];
  const methods = [
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'GET',
    'HEAD',
    'HEAD',
    'HEAD',
    'HEAD',
    'POST',
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'TRACE',
    'PROPFIND',
    'PURGE',
    'FROB',
    'get',
    'X-Y',
  ];
  const codings = ['gzip', 'br', 'identity', '*', 'deflate', 'x-gzip', 'GZIP', 'compress', '', 'zstd', 'br;q=', ';', ',,'];
  const qvalue = (): string =>
    pick(['', ';q=0', ';q=1', ';q=0.5', ';q=0.001', ';q=1.000', ';q=2', ';q=-1', ';q=abc', ';Q=0.3', ' ; q=0.9', ';q=0.', ';level=1']);
  const randomText = (n: number, alphabet: string): string => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  const TOKEN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!#$%&'*+^`|~";
  const VALUE = `${TOKEN} ,;="()/:<>?@[]{}\\\t\x80\xa0\xff`;

  const mutatePath = (base: string): string => {
    let path = base;
    for (let i = int(4); i > 0; i -= 1) {
      const at = int(path.length + 1);
      const op = int(5);
      if (op === 0) path = path.slice(0, at) + pick(fragments) + path.slice(at);
      else if (op === 1) path = path.slice(0, at) + path.slice(at + 1 + int(4));
      else if (op === 2) path = path.toUpperCase();
      else if (op === 3) path = path.slice(0, at) + `%${randomText(2, '0123456789abcdefABCDEFxz')}` + path.slice(at);
      else path = path.slice(0, at) + randomText(1 + int(6), TOKEN) + path.slice(at);
    }
    return path;
  };

  return () => {
    const method = pick(methods);
    let target = chance(0.25) ? pick(paths) : mutatePath(pick([...paths, '/api/markets/', '/', '/api', '/markets/']));
    if (chance(0.02)) target = `/${'a/'.repeat(int(3000))}`;
    if (chance(0.02)) target = `http://evil.example${pick(paths)}`;
    if (chance(0.01)) target = '*';
    if (target === '') target = '/';
    const version = chance(0.95) ? 'HTTP/1.1' : pick(['HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTX/1.1', 'HTTP/1.1 extra', 'http/1.1']);
    const lines: string[] = [];
    const hosts = chance(0.95) ? 1 : pick([0, 2]);
    for (let i = 0; i < hosts; i += 1) lines.push(`Host: ${i === 0 ? host : 'evil.example'}`);
    if (chance(0.6)) lines.push(`Accept-Encoding: ${Array.from({ length: 1 + int(4) }, () => pick(codings) + qvalue()).join(pick([', ', ',', ' , ']))}`);
    if (chance(0.25))
      lines.push(`If-None-Match: ${pick([pick(etags), `W/${pick(etags)}`, '*', `"x", ${pick(etags)}`, 'garbage', '""', 'W/', pick(etags).slice(1)])}`);
    if (chance(0.15))
      lines.push(
        `If-Modified-Since: ${pick([table.lastModified, 'Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'yesterday', '', table.lastModified.toLowerCase()])}`,
      );
    if (chance(0.05)) lines.push(`Range: ${pick(['bytes=0-9', 'bytes=-5', 'bytes=9-0', 'items=1-2', 'bytes=0-0,1-1'])}`);
    if (chance(0.05)) lines.push(`Expect: ${pick(['100-continue', 'teapot', ''])}`);
    if (chance(0.1)) lines.push(`Origin: https://${randomText(1 + int(10), 'abcdefghij')}.example`);
    for (let i = int(4); i > 0; i -= 1)
      lines.push(`${chance(0.95) ? `X-${randomText(1 + int(12), TOKEN)}` : randomText(1 + int(6), `${TOKEN} :`)}: ${randomText(int(40), VALUE)}`);
    if (chance(0.02)) lines.push(`X-Big: ${'b'.repeat(17 * 1024)}`);
    let body = Buffer.alloc(0);
    const framing = int(20);
    if (framing === 0) {
      body = Buffer.from(randomText(int(64), VALUE), 'latin1');
      lines.push(`Content-Length: ${body.length}`);
    } else if (framing === 1) {
      lines.push('Transfer-Encoding: chunked');
      body = Buffer.from(chance(0.7) ? '5\r\nhello\r\n0\r\n\r\n' : 'zz\r\nbad\r\n0\r\n\r\n');
    } else if (framing === 2) {
      lines.push(
        pick([
          'Transfer-Encoding: gzip',
          'Transfer-Encoding: chunked, identity',
          'Content-Length: 1\r\nContent-Length: 2',
          'Content-Length: -1',
          'Content-Length: 0\r\nTransfer-Encoding: chunked',
        ]),
      );
      body = Buffer.from('0\r\n\r\n');
    }
    lines.push('Connection: close');
    const head = Buffer.from(`${method} ${target} ${version}\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`, 'latin1');
    return { bytes: Buffer.concat([head, body]), head: method === 'HEAD', label: `${method} ${JSON.stringify(target.slice(0, 80))} ${version}` };
  };
}

/** Sends one generated request; resolves with the first complete answer (or none, if the server closed without one). */
function once(origin: string, g: Generated): Promise<{ res: RawResponse | undefined; leftover: Buffer }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      const parsed = parseResponses(Buffer.concat(chunks), [g.head], closed);
      if (parsed.responses.length === 0 && !closed) return;
      done = true;
      clearTimeout(guard);
      socket.destroy();
      resolve({ res: parsed.responses[0], leftover: parsed.leftover });
    };
    // A hang guard only; every generated request is complete, so a conforming server answers at once.
    const guard = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(new Error(`no answer to ${g.label}`));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => socket.write(g.bytes));
  });
}

let running: RunningServer;
let x: Expected;
let table: RouteTable;
const internalErrors: string[] = [];
const realStderrWrite = process.stderr.write.bind(process.stderr);

before(async () => {
  const started = await startEmbedded();
  running = started.running;
  table = started.table;
  x = expectedFor(started.baseUrl);
  // The server's last-resort handler reports bugs on stderr; any such line fails the run.
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    if (text.includes('internal error')) internalErrors.push(text);
    return (realStderrWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});

after(async () => {
  process.stderr.write = realStderrWrite;
  await running.close();
});

test(`${REQUESTS} generated requests (seed ${SEED.toString(16)}): no 5xx, every answer well-formed and from the route table`, async (t) => {
  const next = generator(table, new URL(running.url).host, SEED);
  const statuses = new Map<number, number>();
  let unanswered = 0;
  const failures: string[] = [];
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < REQUESTS) {
      sent += 1;
      const g = next();
      const { res, leftover } = await once(running.url, g);
      if (res === undefined) {
        unanswered += 1;
        failures.push(`${g.label}: closed without an answer`);
        continue;
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      try {
        assert.ok(res.status < 500, 'no 5xx');
        assert.equal(leftover.length, 0, 'no bytes after the answer');
        checkResponse(x, res, g.label);
      } catch (error) {
        failures.push(`${g.label}: ${(error as Error).message.split('\n')[0] ?? ''}`);
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const summary = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  t.diagnostic(`statuses: ${summary}`);
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} bad answers (statuses ${summary})`);
  assert.equal(unanswered, 0);
  assert.deepEqual(internalErrors, []);
  // The mix must actually reach every kind of answer, or the fuzz tests less than it claims.
  for (const status of [200, 304, 400, 404, 405]) assert.ok((statuses.get(status) ?? 0) > 0, `some ${status} in ${summary}`);
});

test('the server still answers normally afterwards', async () => {
  const res = await fetch(`${running.url}/api/markets/us-tx-austin`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(res.status, 200);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), table.routes.get('/api/markets/us-tx-austin')?.identity.body);
});
