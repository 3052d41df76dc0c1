// The seeded fuzz every engine runs in npm test: generated requests, pipelined on keep-alive connections; no 5xx, no stray byte, every 200 a route's exact bytes.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { checkResponse, parseResponses, type Expected, type Leniency, type RawResponse } from './http-suite.ts';

export const SEED = 0x5eed_2026;

/** mulberry32: small, fast and the same sequence on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One generated request: its bytes without a Connection header, and whether it may share a connection. */
export interface Generated {
  method: string;
  target: string;
  version: string;
  /** Header lines, Host included, without `Connection`. */
  lines: string[];
  body: Buffer;
  head: boolean;
  label: string;
  /**
   * Sent on a connection of its own: a body, an odd version or a header an engine may read differently could make
   * two engines disagree on where the next request starts, and an answer would be taken for another's.
   */
  alone: boolean;
}

/** The request's bytes; `close` adds `Connection: close` (the last request of a connection). */
export const bytesOf = (g: Generated, close: boolean): Buffer =>
  Buffer.concat([
    Buffer.from(
      `${g.method} ${g.target} ${g.version}\r\n${[...g.lines, ...(close ? ['Connection: close'] : [])].map((l) => `${l}\r\n`).join('')}\r\n`,
      'latin1',
    ),
    g.body,
  ]);

/** The generator: random paths, methods, versions, headers, codings and framing, the same sequence for a seed. */
export function generator(table: RouteTable, host: string, seed: number): () => Generated {
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
  // Weighted by repetition: GET twelve times as often as an unusual method, HEAD four times.
  const methods = [
    ...Array<string>(12).fill('GET'),
    ...Array<string>(4).fill('HEAD'),
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
    let odd = false;
    for (let i = int(4); i > 0; i -= 1) {
      const plain = chance(0.95);
      odd ||= !plain;
      lines.push(`${plain ? `X-${randomText(1 + int(12), TOKEN)}` : randomText(1 + int(6), `${TOKEN} :`)}: ${randomText(int(40), VALUE)}`);
    }
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
    // eslint-disable-next-line no-control-regex -- a control byte in the target is one of the shapes
    const alone = odd || framing <= 2 || version !== 'HTTP/1.1' || hosts !== 1 || /[\u0000-\u0020\u007f]/.test(target);
    return { method, target, version, lines, body, head: method === 'HEAD', label: `${method} ${JSON.stringify(target.slice(0, 80))} ${version}`, alone };
  };
}

/** What a fuzz run saw: answers by status, and the requests that got none (the connection closed first). */
export interface FuzzReport {
  sent: number;
  /** Answers a reset at the engine's close cut short, each sent again (resetsAfterRefusal only). */
  cut: number;
  statuses: Map<number, number>;
  failures: string[];
  unanswered: string[];
  /** Answers the platform's front end gave on its own (an engine may name them), by status. */
  platform: Map<number, number>;
}

/** Requests per connection when none has to go alone; the last carries `Connection: close`. */
const BATCH = 16;
/** A hang guard only: a conforming engine answers a batch in milliseconds. */
const HANG_GUARD_MS = 10_000;

export interface FuzzOptions {
  requests: number;
  connections: number;
  lenient?: Leniency;
  /** Tells an answer of the platform's own front end (not checked, counted) from the engine's. */
  platformAnswer?: (res: RawResponse) => boolean;
  /** The engine keeps connections open after `Connection: close` (workerd): read the answers expected, then close. */
  keepsConnections?: boolean;
  /**
   * The engine closes with the client's later requests unread after one it refuses (workerd), so the kernel's reset
   * may cut the answer before it short: a cut answer (it starts with a status line) is sent again on a connection of its
   * own, so no refusal follows it, up to CUT_RETRIES times.
   */
  resetsAfterRefusal?: boolean;
}

/** How often a request whose answer a reset cut is sent again. */
export const CUT_RETRIES = 3;

/** Sends a batch on one connection; resolves with its answers in order and whether the engine closed after them. */
function batch(origin: string, requests: readonly Generated[], keeps: boolean): Promise<{ responses: RawResponse[]; stray: Buffer; closed: boolean }> {
  const url = new URL(origin);
  const heads = requests.map((g) => g.head);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      socket.destroy();
      const parsed = parseResponses(Buffer.concat(chunks), heads, closed);
      resolve({ responses: parsed.responses, stray: parsed.leftover, closed });
    };
    const guard = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(new Error(`no answer within ${HANG_GUARD_MS} ms to ${requests.map((g) => g.label).join(' | ')}`));
    }, HANG_GUARD_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (keeps && parseResponses(Buffer.concat(chunks), heads, false).responses.length >= requests.length) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => socket.write(Buffer.concat(requests.map((g, i) => bytesOf(g, i === requests.length - 1)))));
  });
}

/**
 * Sends `requests` generated requests to the engine, pipelined on `connections` connections at a time (a request
 * that must go alone gets a connection of its own). When the engine closes a connection before answering every request
 * on it, the unanswered ones are sent again on the next; a request first on its connection that gets no answer is
 * recorded as unanswered. Every answer is checked as every engine's answers are (checkResponse): never a 5xx, the
 * common headers, Content-Length equal to the body, a 200 only with a route's exact bytes.
 */
export async function fuzz(origin: string, x: Expected, next: () => Generated, o: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { sent: 0, cut: 0, statuses: new Map(), failures: [], unanswered: [], platform: new Map() };
  const tries = new Map<Generated, number>();
  const queue: Generated[] = [];
  let generated = 0;
  const take = (): Generated[] => {
    const out: Generated[] = [];
    while (out.length < BATCH) {
      if (queue.length === 0) {
        if (generated >= o.requests) break;
        generated += 1;
        queue.push(next());
      }
      const g = queue[0] as Generated;
      if (g.alone && out.length > 0) break;
      queue.shift();
      out.push(g);
      if (g.alone) break;
    }
    return out;
  };
  const count = (map: Map<number, number>, status: number): void => void map.set(status, (map.get(status) ?? 0) + 1);
  const worker = async (): Promise<void> => {
    for (let requests = take(); requests.length > 0; requests = take()) {
      const { responses, stray, closed } = await batch(origin, requests, o.keepsConnections === true);
      report.sent += responses.length;
      responses.forEach((res, i) => {
        const g = requests[i] as Generated;
        if (o.platformAnswer?.(res) === true) {
          count(report.platform, res.status);
          return;
        }
        count(report.statuses, res.status);
        try {
          assert.ok(res.status < 500, 'no 5xx');
          checkResponse(x, res, g.label, o.lenient);
        } catch (error) {
          report.failures.push(`${g.label}: ${(error as Error).message.split('\n')[0] ?? ''}`);
        }
      });
      const rest = requests.slice(responses.length);
      // The request whose answer the stray bytes begin.
      const strayOf = rest[0];
      const tried = strayOf === undefined ? 0 : (tries.get(strayOf) ?? 0);
      const cutShort =
        strayOf !== undefined &&
        stray.length > 0 &&
        closed &&
        o.resetsAfterRefusal === true &&
        stray.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ' &&
        tried < CUT_RETRIES;
      if (cutShort) {
        report.cut += 1;
        // Sent again alone: a later request the engine refuses behind it on the same connection would cut it again.
        const again = { ...strayOf, alone: true };
        tries.set(again, tried + 1);
        rest[0] = again;
      } else if (stray.length > 0 && closed)
        report.failures.push(`${strayOf?.label ?? '?'}: bytes that are no answer: ${JSON.stringify(stray.subarray(0, 60).toString('latin1'))}`);
      if (rest.length === 0) continue;
      if (responses.length === 0 && !cutShort) {
        report.unanswered.push((rest[0] as Generated).label);
        rest.shift();
      }
      queue.unshift(...rest);
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  return report;
}

export const summary = (statuses: Map<number, number>): string =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');

// ---------------------------------------------------------------------------------------------------------
// The malformed corpus: requests each broken in one to three ways, sent alone to two engines whose answers are
// compared (test/integration/corpus.test.ts); the differences allowed are named in CORPUS_DIFFERENCES
// (test/support/corpus.ts).

export const CORPUS_SEED = 0x0bad_2026;
/** How many malformed requests the corpus holds. */
export const CORPUS_SIZE = 2_000;

/** One malformed request: its bytes, and the mutations that made it (what a difference is named by). */
export interface Malformed {
  label: string;
  /** The mutations applied, each a short name (`dup:if-none-match`, `te:gzip, chunked`, `path:%00x700`). */
  mutations: string[];
  bytes: Buffer;
  head: boolean;
}

/** The corpus for an engine's Host (`host:port`): the same requests for a seed, whatever the host. */
export function malformedCorpus(table: RouteTable, host: string, seed = CORPUS_SEED, size = CORPUS_SIZE, most = 3): Malformed[] {
  const rnd = prng(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const paths = [...table.routes.keys()].filter((p) => !p.startsWith('/assets/')).slice(0, 40);
  const etag = [...table.routes.values()][0]?.identity.etag ?? '"x"';
  const bases = ['/', '/healthz', '/api/markets', '/api/markets/us-tx-austin', '/api/markets/us-tx-austin/csv', '/api/nope', '/no-such-page', ...paths];
  const repeats = ['%00', '../', '..%2f', '%2e%2e/', './', 'a/', '%41', '\\', '%c0%af', '%ff', '%zz', '//', '%25', '~', '%2F', ';'];
  const rawBytes = ['\x01', '\x7f', '\x80', '\xff', '\t', '"', '<', '{', '|', '^', '`'];
  const duplicable = [
    'Host',
    'If-None-Match',
    'If-Modified-Since',
    'If-Match',
    'If-Unmodified-Since',
    'If-Range',
    'Range',
    'Accept-Encoding',
    'Content-Length',
    'Transfer-Encoding',
    'Expect',
    'Authorization',
    'User-Agent',
    'Connection',
    'TE',
    'Upgrade',
    'Content-Type',
    'Content-Range',
    'Origin',
    'Cookie',
    'Keep-Alive',
  ];
  const valueOf = (name: string): string =>
    ({
      Host: host,
      'If-None-Match': pick([etag, '*', '"x"', `W/${etag}`]),
      'If-Modified-Since': pick([table.lastModified, 'Thu, 01 Jan 1970 00:00:00 GMT']),
      'If-Match': pick(['*', etag]),
      'If-Unmodified-Since': table.lastModified,
      'If-Range': etag,
      Range: 'bytes=0-1',
      'Accept-Encoding': pick(['gzip', 'br', 'identity']),
      'Content-Length': pick(['0', '1']),
      'Transfer-Encoding': 'chunked',
      Expect: '100-continue',
      Authorization: 'Basic dTpw',
      'User-Agent': 'corpus',
      Connection: pick(['keep-alive', 'close']),
      TE: 'trailers',
      Upgrade: 'websocket',
      'Content-Type': 'text/plain',
      'Content-Range': 'bytes 0-1/2',
      Origin: 'https://example.org',
      Cookie: 'a=1',
      'Keep-Alive': 'timeout=5',
    })[name] ?? 'x';

  interface Draft {
    method: string;
    target: string;
    /** The request line's tail: ` HTTP/1.1`, or anything else. */
    version: string;
    sep1: string;
    lines: string[];
    eol: string;
    body: string;
    /** Bytes cut from the end: the client ends its side before the request is whole. */
    cut: number;
    mutations: string[];
  }
  const mutators: ((d: Draft) => void)[] = [
    (d) => {
      d.cut = pick([1, 2, 3, 10]);
      d.mutations.push(`cut:${d.cut}`);
    },
    (d) => {
      d.method = pick(['get', 'Get', 'G ET', 'GET\t', 'FROB', 'F0O', 'A'.repeat(33), 'TRACE', 'CONNECT', 'PRI', 'HEAD', 'OPTIONS', 'POST', '', 'GET/']);
      d.mutations.push(`method:${d.method.slice(0, 12)}`);
    },
    (d) => {
      d.version = pick([
        '',
        ' ',
        ' HTTP/1.2',
        ' HTTP/2.0',
        ' HTTP/0.9',
        ' http/1.1',
        ' HTTP/1',
        ' HTTP/1.1 ',
        ' HTTP/1.1x',
        ' HTTP/01.1',
        ' HTTPS/1.1',
        ' HTTP/1.0',
      ]);
      d.mutations.push(`version:${JSON.stringify(d.version.trim())}`);
    },
    (d) => {
      d.sep1 = pick(['  ', '\t', ' \t']);
      d.mutations.push('request-line-spacing');
    },
    (d) => {
      const r = pick(repeats);
      const n = pick([1, 2, 10, 100, 700, 2700]);
      const target = `${pick(['/', '/api/markets/', '/api/'])}${r.repeat(n)}`.slice(0, 8192);
      d.target = target;
      d.mutations.push(`path:${r}x${n}`);
    },
    (d) => {
      const b = pick(rawBytes);
      const at = 1 + int(d.target.length);
      d.target = d.target.slice(0, at) + b + d.target.slice(at);
      d.mutations.push(`path-byte:${b.charCodeAt(0).toString(16)}`);
    },
    (d) => {
      d.target = pick([
        `http://${host}/healthz`,
        'http://evil.example/',
        '*',
        '',
        'healthz',
        `//${host}/`,
        '/#',
        '/?#',
        `/${'a'.repeat(2049)}`,
        '\\healthz',
        '%2Fhealthz',
      ]);
      d.mutations.push(`target:${d.target.slice(0, 20)}`);
    },
    (d) => {
      const name = pick(duplicable);
      const spelling = pick([name, name.toLowerCase(), name.toUpperCase()]);
      if (!d.lines.some((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))) d.lines.push(`${name}: ${valueOf(name)}`);
      d.lines.push(`${spelling}: ${valueOf(name)}`);
      d.mutations.push(`dup:${name.toLowerCase()}`);
    },
    (d) => {
      const te = pick(['gzip, chunked', 'chunked, gzip', 'trailers', 'deflate', 'chunked', 'gzip;q=0.5, chunked', '']);
      d.lines.push(`TE: ${te}`);
      d.mutations.push(`te:${te}`);
    },
    (d) => {
      const te = pick(['chunked', 'identity', 'gzip, chunked', 'Chunked', ' chunked', 'chunked;x=1', 'chunked, chunked', 'xchunked', '']);
      d.lines.push(`Transfer-Encoding: ${te}`);
      const body = pick([
        ['0\r\n\r\n', 'empty'],
        ['5\r\nhello\r\n0\r\n\r\n', 'chunk'],
        ['zz\r\n', 'malformed'],
        ['1;ext=1\r\nx\r\n0\r\n\r\n', 'extension'],
        ['', 'none'],
      ] as const);
      d.body = body[0];
      d.mutations.push(`transfer-encoding:${te}`, `chunked-body:${body[1]}`);
    },
    (d) => {
      const cl = pick(['', 'abc', '-1', '+5', '1 2', '99999999999999999999', '0x10', '00', '5, 5', '3']);
      d.lines.push(`Content-Length: ${cl}`);
      d.body = pick(['', 'abc', 'hello']);
      d.mutations.push(`content-length:${cl}`);
    },
    (d) => {
      const e = pick(['100-continue', '100-Continue', 'teapot', '', '100-continue, foo']);
      d.lines.push(`Expect: ${e}`);
      d.mutations.push(`expect:${e}`);
    },
    (d) => {
      const c = pick(['close, upgrade', 'keep-alive, TE', 'Upgrade', 'foo', '', 'close, close']);
      d.lines.push(`Connection: ${c}`);
      d.mutations.push(`connection:${c}`);
    },
    (d) => {
      const h = pick([
        '',
        ' ',
        'a b',
        'a/b',
        'a..b',
        'u@h',
        'a:b',
        '[::1]',
        'xn--a.example',
        'A'.repeat(300),
        `${host}.`,
        '-a',
        'a_b',
        'a,b',
        '\xe9.example',
        'a\x7fb',
      ]);
      d.lines = d.lines.filter((l) => !l.startsWith('Host:'));
      d.lines.unshift(`Host: ${h}`);
      d.mutations.push(`host:${h.slice(0, 12)}`);
    },
    (d) => {
      d.lines = d.lines.filter((l) => !l.startsWith('Host:'));
      d.mutations.push('no-host');
    },
    (d) => {
      const line = pick([
        'X-No-Colon',
        'X-A : b',
        ' X-Lead: b',
        'X A: b',
        ': empty-name',
        'X-Ctl: a\x01b',
        'X-Del: a\x7fb',
        'X-Nul: a\x00b',
        'X-Hi: \xe9\xff',
        'X-\xe9: b',
        'X-Fold: a\r\n b',
        'X-Tab:\tb\t',
        'X-CR: a\rb',
      ]);
      d.lines.push(line);
      d.mutations.push(`header-syntax:${JSON.stringify(line.slice(0, 8))}`);
    },
    (d) => {
      d.eol = pick(['\n', '\r\r\n']);
      d.mutations.push(`eol:${JSON.stringify(d.eol)}`);
    },
    (d) => {
      const n = pick([100, 1000, 3000]);
      const w = pick([1, 10, 100]);
      for (let i = 0; i < n; i += 1) d.lines.push(`X-H${i}: ${'b'.repeat(w)}`);
      d.mutations.push(`headers:${n}x${w}`);
    },
    (d) => {
      const w = pick([8000, 15000, 16500, 20000]);
      d.lines.push(`X-Big: ${'b'.repeat(w)}`);
      d.mutations.push(`header-size:${w}`);
    },
    (d) => {
      const name = pick(['If-None-Match', 'If-Modified-Since', 'Accept-Encoding', 'Range', 'If-Range']);
      const v = pick(['', ',', 'W/', '"', 'garbage', `${etag}, , ,`, 'Sun, 99 Foo 9999', 'gzip;q=', 'bytes=', 'bytes=1-0']);
      d.lines.push(`${name}: ${v}`);
      d.mutations.push(`value:${name.toLowerCase()}`);
    },
  ];

  const corpus: Malformed[] = [];
  for (let i = 0; i < size; i += 1) {
    const d: Draft = {
      method: pick(['GET', 'GET', 'GET', 'HEAD']),
      target: pick(bases),
      version: ' HTTP/1.1',
      sep1: ' ',
      lines: [`Host: ${host}`],
      eol: '\r\n',
      body: '',
      cut: 0,
      mutations: [],
    };
    const count = 1 + int(most);
    for (let k = 0; k < count; k += 1) pick(mutators)(d);
    const head = `${d.method}${d.sep1}${d.target}${d.version}`;
    const whole = `${[head, ...d.lines].join(d.eol)}${d.eol}${d.eol}${d.body}`;
    const text = whole.slice(0, whole.length - d.cut);
    corpus.push({
      label: `#${i} ${d.mutations.join(' ')}`,
      mutations: d.mutations,
      bytes: Buffer.from(text, 'latin1'),
      head: d.method === 'HEAD',
    });
  }
  return corpus;
}
