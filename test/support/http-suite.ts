// The HTTP contract every engine must meet (embedded server, nginx over dist/, a CDN): one suite, raw sockets, route-table bytes.
//
// Use: defineHttpSuite('nginx', async () => ({ baseUrl, stop })). `baseUrl` is the BASE_URL the served bytes
// were built with; requests go to it too, unless `origin` (where to connect) is also returned. The suite builds
// the route table for that base URL itself and checks every answer against it, so no engine-specific
// knowledge lives here: status, content type, the headers docs/contract.md 4 names, the problem+json shape, and that
// no byte outside the route table is ever answered.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Route, RouteTable } from '../../src/routes/route-table.ts';
import { OWN, ROWS, ask, type EngineName } from './agreement.ts';
import { SEED, fuzz, generator, summary } from './fuzz.ts';
import { buildWorld } from '../world/world.ts';
import { pageMeant, pathHints, problemText, unknownPathProblem } from '../../src/protocol/problems.ts';

export interface StartedEngine {
  /** BASE_URL the engine's bytes were built with (links, schema ids). */
  baseUrl: string;
  /** Where to connect (http://host:port); defaults to baseUrl. */
  origin?: string;
  stop: () => Promise<void>;
}

/**
 * Differences a platform forces on an engine's route answers, each allowed only when the engine names it with its
 * reason; docs/deploy.md lists them. (What a platform decides about malformed requests is stated row by row in the
 * agreement table, test/support/agreement.ts.) Every other check stays as it is.
 *
 * - `keeps-connection-open`: the engine does not close a connection after answering `Connection: close`; the suite
 *   reads the answers it expects by their framing and closes the connection itself (bytes after them go unseen).
 * - `states-content-encoding`: answers the platform would otherwise recode name their coding: a 304 may carry the
 *   Content-Encoding of the representation it validates (identity included).
 * - `resets-after-refusal`: the engine closes a connection with the client's later pipelined requests unread after
 *   one it refuses, so the kernel's reset can cut an earlier answer short for a client that reads late; the fuzz sends
 *   a request whose answer was cut again (every complete answer is checked as usual).
 */
export type PlatformDifference = 'keeps-connection-open' | 'states-content-encoding' | 'resets-after-refusal';

export interface Allowance {
  /** Why the platform forces it. */
  reason: string;
}

export interface SuiteOptions {
  /** Which column of the agreement table the engine answers by (its platform rows). */
  engine: EngineName;
  allow?: Partial<Record<PlatformDifference, Allowance>>;
  /** Why the engine cannot close a connection after an answer of its own (the agreement table's `closes` is not checked). */
  keepsConnections?: string;
  /** Tells an answer of the platform's own front end from the engine's, in the fuzz (counted, not checked). */
  platformAnswer?: (res: RawResponse) => boolean;
  /** The engine's error log, read at the end for alerts (nginx logs a failing regex as one). */
  log?: () => string;
}

/** What checkResponse lets pass, from the engine's allowances. */
export interface Leniency {
  statedEncoding?: boolean;
}

const ID = 'us-tx-austin';
const PROFILE = `/api/markets/${ID}`;
const CSV = `/api/markets/${ID}/csv`;
const PROBLEM_TYPE = 'application/problem+json';
const HTML_TYPE = 'text/html; charset=utf-8';
/** A hang guard only: a conforming engine answers in milliseconds; this just turns a hang into a failure. */
const HANG_GUARD_MS = 10_000;
/** How many generated requests the seeded fuzz sends to every engine. */
const FUZZ_REQUESTS = 20_000;

// ---------------------------------------------------------------------------------------------------------
// A minimal HTTP/1.1 client over node:net, so request targets and header bytes go exactly as written.

export interface RawResponse {
  status: number;
  /** Header lines in order, names as sent. */
  headers: [string, string][];
  body: Buffer;
  /** Was this the answer to a HEAD? (decides whether a body follows) */
  head: boolean;
}

export interface RawExchange {
  responses: RawResponse[];
  /** Bytes after the last complete response (a conforming engine leaves none). */
  leftover: Buffer;
  /** The engine closed the connection (FIN or reset) before the hang guard. */
  closed: boolean;
}

export const header = (res: RawResponse, name: string): string | undefined => {
  const values = res.headers.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
  return values.length === 0 ? undefined : values.join(', ');
};

const headerCount = (res: RawResponse, name: string): number => res.headers.filter(([k]) => k.toLowerCase() === name.toLowerCase()).length;

function decodeChunked(buf: Buffer, start: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let pos = start;
  for (;;) {
    const eol = buf.indexOf('\r\n', pos);
    if (eol === -1) return undefined;
    const size = Number.parseInt(buf.subarray(pos, eol).toString('latin1').split(';')[0] ?? '', 16);
    if (Number.isNaN(size)) return undefined;
    pos = eol + 2;
    if (size === 0) {
      const end = buf.indexOf('\r\n\r\n', pos - 2);
      return end === -1 ? undefined : { body: Buffer.concat(parts), end: end + 4 };
    }
    if (buf.length < pos + size + 2) return undefined;
    parts.push(buf.subarray(pos, pos + size));
    pos += size + 2;
  }
}

/** Splits a byte stream into responses; `heads[i]` says whether the i-th request was a HEAD. */
export function parseResponses(buf: Buffer, heads: readonly boolean[], closed: boolean): { responses: RawResponse[]; leftover: Buffer } {
  const responses: RawResponse[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const end = buf.indexOf('\r\n\r\n', pos);
    if (end === -1) break;
    const lines = buf.subarray(pos, end).toString('latin1').split('\r\n');
    const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
    if (statusLine === null) break;
    const status = Number(statusLine[1]);
    const headers = lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      pos = bodyStart; // interim response (100 Continue): the final one follows
      continue;
    }
    const head = heads[responses.length] ?? false;
    const res: RawResponse = { status, headers, body: Buffer.alloc(0), head };
    const te = header(res, 'transfer-encoding');
    const cl = header(res, 'content-length');
    if (head || status === 204 || status === 304) {
      pos = bodyStart;
    } else if (te !== undefined && /chunked/i.test(te)) {
      const chunked = decodeChunked(buf, bodyStart);
      if (chunked === undefined) break;
      res.body = chunked.body;
      pos = chunked.end;
    } else if (cl !== undefined && /^\d+$/.test(cl)) {
      const length = Number(cl);
      if (buf.length < bodyStart + length) break;
      res.body = buf.subarray(bodyStart, bodyStart + length);
      pos = bodyStart + length;
    } else if (closed) {
      res.body = buf.subarray(bodyStart);
      pos = buf.length;
    } else break;
    responses.push(res);
  }
  return { responses, leftover: buf.subarray(pos) };
}

/**
 * Writes `payload` on a fresh connection and reads until the engine closes it. Requests built with `get()`
 * carry `Connection: close`, so a conforming engine closes after its answer; shapes that must make the engine
 * close by itself (smuggling) simply leave that header out.
 */
export function exchange(
  origin: string,
  payload: string | Buffer | readonly (string | Buffer)[],
  heads: readonly boolean[] = [],
  options: { answers?: number } = {},
): Promise<RawExchange> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      socket.destroy();
      const buf = Buffer.concat(chunks);
      const parsed = parseResponses(buf, heads, closed);
      resolve({ ...parsed, closed });
    };
    const guard = setTimeout(() => finish(false), HANG_GUARD_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // For an engine that keeps the connection open after `Connection: close`: done once the answers expected are complete.
      if (options.answers !== undefined && parseResponses(Buffer.concat(chunks), heads, false).responses.length >= options.answers) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer is a close too; a refused connection is a real failure.
      if (chunks.length > 0 || error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true);
      else if (!settled) {
        settled = true;
        clearTimeout(guard);
        reject(error);
      }
    });
    socket.on('connect', () => {
      const parts = Array.isArray(payload) ? payload : [payload];
      for (const part of parts) socket.write(part);
    });
  });
}

/** One request, `Connection: close`, headers exactly as given (name → value, or raw lines). */
export function request(origin: string, method: string, target: string, headers: Record<string, string> | readonly string[] = {}): string {
  const host = new URL(origin).host;
  const lines = Array.isArray(headers) ? headers : Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`;
}

// ---------------------------------------------------------------------------------------------------------
// What the engine must have answered: the route table for its base URL.

export interface Expected {
  table: RouteTable;
  origin: string;
  baseUrl: string;
  /** sha256 of every variant body of every route → where it comes from. */
  known: Map<string, { path: string; encoding: string }>;
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

export function expectedFor(baseUrl: string, origin: string = baseUrl): Expected {
  const table = buildWorld({ baseUrl });
  const known = new Map<string, { path: string; encoding: string }>();
  for (const route of table.routes.values()) {
    for (const v of [route.identity, route.gzip, route.br]) if (v !== undefined) known.set(sha(v.body), { path: route.path, encoding: v.encoding });
  }
  return { table, origin, baseUrl, known };
}

const routeOf = (x: Expected, path: string): Route => {
  const route = x.table.routes.get(path);
  assert.ok(route, `the route table has no ${path}`);
  return route;
};

const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;
const tokens = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');

export function decode(res: RawResponse): Buffer {
  const encoding = (header(res, 'content-encoding') ?? 'identity').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(res.body);
  if (encoding === 'br') return brotliDecompressSync(res.body);
  assert.equal(encoding, 'identity', `unexpected Content-Encoding ${encoding}`);
  return res.body;
}

export type BodyKind = 'route' | 'problem' | 'page' | 'error' | 'any';

/**
 * Checks that hold for every answer of every engine: never a 5xx or a redirect, the common headers, a right
 * Content-Length, and a body that is either a route's bytes, a problem+json document or the HTML 404 page.
 * Returns what the body was.
 */
export function checkResponse(x: Expected, res: RawResponse, label: string, lenient: Leniency = {}): 'route' | 'problem' | 'page' | 'empty' {
  const at = `${label}: ${res.status}`;
  assert.ok(res.status < 300 || res.status === 304 || res.status >= 400, `${at}: never a redirect (Location ${header(res, 'location') ?? '-'})`);
  assert.equal(header(res, 'location'), undefined, `${at}: no Location header`);
  assert.equal(header(res, 'access-control-allow-origin'), '*', `${at}: Access-Control-Allow-Origin`);
  assert.equal(header(res, 'x-content-type-options'), 'nosniff', `${at}: X-Content-Type-Options`);
  assert.ok((header(res, 'cache-control') ?? '') !== '', `${at}: Cache-Control present`);
  assert.ok(headerCount(res, 'content-length') <= 1, `${at}: one Content-Length at most`);
  const cl = header(res, 'content-length');
  if (!res.head && res.status !== 304 && res.status !== 204 && cl !== undefined) {
    assert.equal(Number(cl), res.body.length, `${at}: Content-Length equals the body length`);
  }
  if (res.head || res.status === 304 || res.status === 204) {
    assert.equal(res.body.length, 0, `${at}: no body`);
  }
  if (res.status === 304) {
    assert.match(header(res, 'etag') ?? '', STRONG_ETAG, `${at}: a 304 carries the strong ETag`);
    for (const name of ['content-type', 'content-encoding', 'content-disposition']) {
      if (name === 'content-encoding' && lenient.statedEncoding === true && header(res, name) !== undefined) {
        const from = [...x.table.routes.values()].flatMap((r) => [r.identity, r.gzip, r.br]).find((v) => v?.etag === header(res, 'etag'));
        assert.equal(header(res, name), from?.encoding, `${at}: a 304's Content-Encoding is the coding of the representation it validates`);
        continue;
      }
      assert.equal(header(res, name), undefined, `${at}: a 304 carries no ${name}`);
    }
    assert.ok(tokens(header(res, 'vary')).includes('accept-encoding'), `${at}: a 304 keeps Vary: Accept-Encoding`);
    return 'empty';
  }
  if (res.status === 200 || res.status === 206) {
    assert.match(header(res, 'etag') ?? '', STRONG_ETAG, `${at}: ETag present and strong`);
    assert.ok(tokens(header(res, 'vary')).includes('accept-encoding'), `${at}: Vary: Accept-Encoding`);
    if (res.head || res.status === 206) return res.head ? 'empty' : 'route';
    const coding = (header(res, 'content-encoding') ?? 'identity').toLowerCase();
    const from = x.known.get(sha(res.body));
    assert.ok(
      from,
      `${at}: the body is a route's exact bytes (${res.body.length} bytes, starts ${JSON.stringify(res.body.subarray(0, 60).toString('latin1'))})`,
    );
    assert.equal(coding, from.encoding, `${at}: Content-Encoding matches the variant sent`);
    assert.equal(header(res, 'content-type'), routeOf(x, from.path).contentType, `${at}: Content-Type of ${from.path}`);
    return 'route';
  }
  if (res.status === 204) return 'empty';
  assert.ok(res.status >= 400, `${at}: unexpected status`);
  const type = header(res, 'content-type');
  if (res.head) return 'empty';
  if (type === HTML_TYPE) {
    assert.equal(res.status, 404, `${at}: the HTML page is only the 404 answer`);
    assert.ok(isNotFoundPage(x.table, res.body), `${at}: HTML error body is the 404 page or one naming the page meant`);
    return 'page';
  }
  assert.equal(type, PROBLEM_TYPE, `${at}: error content type (body ${JSON.stringify(res.body.subarray(0, 80).toString('latin1'))})`);
  checkProblem(res, at);
  return 'problem';
}

/** The HTML 404 page, or one of those that name the page a path means first (problems.ts, pageMeant). */
const isNotFoundPage = (table: RouteTable, body: Buffer): boolean =>
  body.equals(table.notFoundPage) || [...table.hintPages.values()].some((p) => p.equals(body));

/** RFC 9457 shape as docs/contract.md 7 fixes it: type, title, status, detail, code; instance only if present. */
export function checkProblem(res: RawResponse, at = `${res.status}`): Record<string, unknown> {
  let doc: unknown;
  assert.doesNotThrow(() => {
    doc = JSON.parse(res.body.toString('utf8'));
  }, `${at}: problem body is JSON`);
  assert.ok(typeof doc === 'object' && doc !== null && !Array.isArray(doc), `${at}: problem body is an object`);
  const p = doc as Record<string, unknown>;
  assert.equal(typeof p.type, 'string', `${at}: problem.type`);
  assert.doesNotThrow(() => new URL(p.type as string), `${at}: problem.type is a URI`);
  assert.equal(typeof p.title, 'string', `${at}: problem.title`);
  assert.equal(p.status, res.status, `${at}: problem.status equals the status`);
  assert.equal(typeof p.detail, 'string', `${at}: problem.detail`);
  assert.match(String(p.code), /^[a-z][a-z_]*$/, `${at}: problem.code`);
  if ('instance' in p) assert.equal(typeof p.instance, 'string', `${at}: problem.instance`);
  return p;
}

// ---------------------------------------------------------------------------------------------------------

/** Registers the whole suite against an engine `start` brings up (once) and `stop` takes down. */
export function defineHttpSuite(name: string, start: () => Promise<StartedEngine>, options: SuiteOptions): void {
  const allowed = (difference: PlatformDifference): boolean => options.allow?.[difference] !== undefined;
  /** How many answers to read before closing, for an engine that would keep the connection open. */
  const readUntil = (answers: number): { answers?: number } => (allowed('keeps-connection-open') ? { answers } : {});
  const lenient: Leniency = { statedEncoding: allowed('states-content-encoding') };
  describe(`HTTP contract: ${name}`, () => {
    let engine: StartedEngine | undefined;
    let x: Expected;
    const fetchRaw = async (method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> => {
      const ex = await exchange(x.origin, request(x.origin, method, path, headers), [method === 'HEAD'], readUntil(1));
      assert.equal(ex.responses.length, 1, `${method} ${path}: one answer`);
      assert.equal(ex.leftover.length, 0, `${method} ${path}: no bytes after the answer`);
      const res = ex.responses[0] as RawResponse;
      checkResponse(x, res, `${method} ${path} ${JSON.stringify(headers)}`, lenient);
      return res;
    };

    before(async () => {
      engine = await start();
      x = expectedFor(engine.baseUrl, engine.origin ?? engine.baseUrl);
    });
    after(async () => {
      await engine?.stop();
    });

    describe('every route', () => {
      test('answers its exact bytes and every header of the route table', async () => {
        for (const route of x.table.routes.values()) {
          const res = await fetchRaw('GET', route.path);
          assert.equal(res.status, 200, route.path);
          assert.ok(res.body.equals(route.identity.body), `${route.path}: identity bytes without Accept-Encoding`);
          assert.equal(header(res, 'content-encoding'), undefined, `${route.path}: no Content-Encoding`);
          for (const [k, v] of route.headers) {
            if (k.toLowerCase() === 'vary') assert.ok(tokens(header(res, k)).includes(v.toLowerCase()), `${route.path}: Vary has ${v}`);
            else assert.equal(header(res, k), v, `${route.path}: ${k}`);
          }
        }
      });

      test("HEAD answers GET's status and headers without a body", async () => {
        const compared = [
          'content-type',
          'content-length',
          'content-encoding',
          'etag',
          'cache-control',
          'last-modified',
          'vary',
          'content-disposition',
          'link',
          'access-control-allow-origin',
          'access-control-expose-headers',
          'x-content-type-options',
          'content-security-policy',
          'referrer-policy',
          'allow',
        ];
        const paths = [...x.table.routes.keys(), '/api/nope', '/api/markets/us-xx-nowhere', '/no-such-page'];
        for (const path of paths) {
          for (const ae of [undefined, 'gzip', 'br']) {
            const headers: Record<string, string> = ae === undefined ? {} : { 'Accept-Encoding': ae };
            const g = await fetchRaw('GET', path, headers);
            const h = await fetchRaw('HEAD', path, headers);
            assert.equal(h.status, g.status, `HEAD ${path} status`);
            assert.equal(h.body.length, 0, `HEAD ${path} has no body`);
            for (const name of compared) {
              assert.equal(header(h, name), header(g, name), `HEAD ${path} (${ae ?? 'no Accept-Encoding'}): ${name}`);
            }
          }
        }
      });

      test('query strings change neither bytes nor ETag', async () => {
        for (const path of [PROFILE, CSV, '/api/markets', '/']) {
          const plain = await fetchRaw('GET', path, { 'Accept-Encoding': 'gzip' });
          const queried = await fetchRaw('GET', `${path}?utm_source=x&_=${Date.now()}`, { 'Accept-Encoding': 'gzip' });
          assert.ok(queried.body.equals(plain.body), path);
          assert.equal(header(queried, 'etag'), header(plain, 'etag'), path);
        }
      });

      test('every ETag names its bytes: distinct per content encoding, shared only by paths that serve the very same bytes', async () => {
        // A vintage not yet archived serves the current documents' bytes at its own addresses, under the same ETag.
        const seen = new Map<string, { where: string; body: Buffer }>();
        for (const route of x.table.routes.values()) {
          for (const ae of ['identity', 'gzip', 'br'] as const) {
            if (ae !== 'identity' && route[ae] === undefined) continue;
            const res = await fetchRaw('GET', route.path, { 'Accept-Encoding': ae });
            const etag = header(res, 'etag') ?? '';
            const where = `${route.path} ${ae}`;
            const before = seen.get(etag);
            assert.ok(before === undefined || before.body.equals(res.body), `${where} reuses the ETag of ${before?.where ?? ''} for other bytes`);
            seen.set(etag, { where, body: res.body });
          }
        }
        const variants = [...x.table.routes.values()].flatMap((r) => [r.identity, r.gzip, r.br].flatMap((v) => (v === undefined ? [] : [v])));
        for (const v of variants) assert.equal(new Set(variants.filter((w) => w.etag === v.etag).map((w) => w.encoding)).size, 1, `${v.etag}: one encoding`);
      });

      if (options.log !== undefined) {
        test('every route in every encoding, and its 304, leaves no warning or error in the log', async () => {
          for (const route of x.table.routes.values()) {
            for (const ae of ['identity', 'gzip', 'br'] as const) {
              if (ae !== 'identity' && route[ae] === undefined) continue;
              const res = await fetchRaw('GET', route.path, { 'Accept-Encoding': ae });
              assert.equal(res.status, 200, `${route.path} ${ae}`);
              const again = await fetchRaw('GET', route.path, { 'Accept-Encoding': ae, 'If-None-Match': header(res, 'etag') ?? '' });
              assert.equal(again.status, 304, `${route.path} ${ae} 304`);
            }
          }
          const logged = (options.log?.() ?? '').split('\n').filter((l) => /\[(?:warn|error|crit|alert|emerg)\]/.test(l));
          assert.deepEqual(logged, []);
        });
      }
    });

    describe('the agreement table: one answer per malformed or hostile request shape', () => {
      const tally = { rows: 0, asRow: 0, platform: 0 };
      for (const row of ROWS) {
        test(row.name, async () => {
          tally.rows += 1;
          const platform = options.engine === undefined ? undefined : row.platform?.[options.engine];
          const label = row.name;
          if (platform?.expect === 'own') {
            // The platform decides before any of this service's code runs: whatever it answers, no request bytes.
            tally.platform += 1;
            const o = await ask(
              x.origin,
              { ...row, send: (h) => Buffer.concat([Buffer.from(row.send(h)), Buffer.from(row.then ?? '')]), then: undefined },
              OWN,
              false,
            );
            for (const res of o.responses) {
              assert.ok(!res.body.includes('do-not-echo'), `${label}: no request bytes echoed`);
              if (res.status === 200) checkResponse(x, res, label, lenient);
            }
            return;
          }
          const expected = platform?.expect ?? row.expect;
          const o = await ask(x.origin, row, expected);
          assert.equal(o.stray.length, 0, `${label}: no bytes that are not an answer (${JSON.stringify(o.stray.subarray(0, 80).toString('latin1'))})`);
          if (expected.status === 'none') {
            assert.equal(o.responses.length, 0, `${label}: no answer`);
            assert.ok(o.closed, `${label}: the connection is closed`);
          } else {
            assert.equal(o.responses.length, expected.answers ?? 1, `${label}: number of answers`);
            const first = o.responses[0] as RawResponse;
            assert.equal(first.status, expected.status, `${label}: status`);
            for (const res of o.responses) checkResponse(x, res, label, lenient);
            const body = expected.body;
            if (body === 'page' && !first.head) assert.ok(isNotFoundPage(x.table, first.body), `${label}: the HTML 404 page`);
            if (typeof body === 'object' && 'route' in body)
              assert.ok(first.body.equals(routeOf(x, body.route).identity.body), `${label}: the bytes of ${body.route}`);
            if (typeof body === 'object' && 'code' in body) {
              assert.equal(header(first, 'content-type'), PROBLEM_TYPE, `${label}: a problem`);
              if (!first.head) assert.equal(checkProblem(first, label).code, body.code, `${label}: problem code`);
            }
            if (options.keepsConnections === undefined)
              assert.equal(o.closed, expected.closes, `${label}: the connection ${expected.closes ? 'is closed' : 'stays open'}`);
          }
          for (const res of o.responses) assert.ok(!res.body.includes('do-not-echo'), `${label}: no request bytes echoed`);
          if (platform === undefined) tally.asRow += 1;
          else tally.platform += 1;
        });
      }

      test('the table: at least 100 shapes, every status and problem code a request alone can cause', (t) => {
        assert.ok(ROWS.length >= 100, `${ROWS.length} rows`);
        const statuses = new Set(ROWS.map((r) => r.expect.status));
        for (const status of [200, 204, 400, 404, 405, 431, 'none'] as const) assert.ok(statuses.has(status), `no row answers ${status}`);
        const codes = new Set(ROWS.flatMap((r) => (typeof r.expect.body === 'object' && 'code' in r.expect.body ? [r.expect.body.code] : [])));
        for (const code of ['bad_request', 'not_found', 'market_not_found', 'method_not_allowed', 'headers_too_large'])
          assert.ok(codes.has(code as never), `no row expects ${code}`);
        t.diagnostic(
          `agreement on ${name}: ${tally.rows} rows; ${tally.asRow} answered as the row says, ${tally.platform} by a named platform rule, ${tally.rows - tally.asRow - tally.platform} disagreements`,
        );
      });
    });

    describe(`the seeded fuzz: ${FUZZ_REQUESTS.toLocaleString('en-US')} generated requests`, () => {
      test(`seed ${SEED.toString(16)}: no 5xx, Content-Length equal to the body, no 200 outside the route table, no stray byte`, async (t) => {
        const report = await fuzz(x.origin, x, generator(x.table, new URL(x.origin).host, SEED), {
          requests: FUZZ_REQUESTS,
          connections: 8,
          lenient,
          keepsConnections: allowed('keeps-connection-open'),
          resetsAfterRefusal: allowed('resets-after-refusal'),
          ...(options.platformAnswer === undefined ? {} : { platformAnswer: options.platformAnswer }),
        });
        t.diagnostic(`statuses: ${summary(report.statuses)}${report.platform.size > 0 ? `; the platform's own answers: ${summary(report.platform)}` : ''}`);
        if (report.cut > 0) t.diagnostic(`answers a reset at the platform's close cut short, sent again: ${report.cut}`);
        t.diagnostic(
          `closed without an answer: ${report.unanswered.length}${report.unanswered.length > 0 ? ` (${report.unanswered.slice(0, 3).join(' | ')})` : ''}`,
        );
        assert.deepEqual(report.failures.slice(0, 10), [], `${report.failures.length} bad answers`);
        assert.deepEqual(report.unanswered, [], 'every generated request is answered');
        // The mix must reach every kind of answer, or the fuzz tests less than it claims.
        for (const status of [200, 304, 400, 404, 405]) assert.ok((report.statuses.get(status) ?? 0) > 0, `some ${status}`);
      });
    });

    if (options.log !== undefined) {
      test("after all of it, nothing the engine's log calls an alert", () => {
        const alerts = (options.log?.() ?? '').split('\n').filter((l) => /\[(?:alert|crit|emerg)\]/.test(l));
        assert.deepEqual(alerts, []);
      });
    }

    describe('methods', () => {
      test('405 names the allowed methods on every kind of path', async () => {
        for (const path of [PROFILE, CSV, '/api/markets', '/', '/assets/site.css', '/healthz']) {
          for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
            const res = await fetchRaw(method, path, { 'Content-Length': '0' });
            assert.equal(res.status, 405, `${method} ${path}`);
            assert.equal(header(res, 'allow'), 'GET, HEAD', `${method} ${path}: Allow`);
            assert.equal(checkProblem(res).code, 'method_not_allowed');
          }
        }
      });

      test('a 404 points the way: the published path a path differs from only by case or a trailing slash, the snapshot dates there are', async () => {
        const hints = pathHints(x.table.routes.keys());
        const known = new Set(x.table.marketIds);
        const id = x.table.marketIds[0] ?? assert.fail('no market');
        const dates = hints.snapshotDates;
        assert.ok(dates.length > 0, 'the table has vintages');
        const cases: [string, string, Record<string, unknown>][] = [
          [`/api/markets/${id.toUpperCase()}`, 'market_not_found', { canonicalPath: `/api/markets/${id}` }],
          [`/api/markets/${id}/`, 'not_found', { canonicalPath: `/api/markets/${id}` }],
          [`/api/markets/${id}/CSV//`, 'not_found', { canonicalPath: `/api/markets/${id}/csv` }],
          ['/api/Markets', 'not_found', { canonicalPath: '/api/markets' }],
          ['/api/vintages/1999-01-01/markets', 'not_found', { knownSnapshotDates: dates }],
          [`/api/vintages/${dates[0] ?? ''}/Markets`, 'not_found', { canonicalPath: `/api/vintages/${dates[0] ?? ''}/markets` }],
          ['/api/markets/nowhere/csv/', 'not_found', {}],
        ];
        for (const [path, code, fields] of cases) {
          const res = await fetchRaw('GET', path);
          assert.equal(res.status, 404, path);
          const got = checkProblem(res, path);
          assert.equal(got.code, code, path);
          for (const [key, value] of Object.entries(fields)) assert.deepEqual(got[key], value, `${path}: ${key}`);
          if (!('canonicalPath' in fields)) assert.equal(got['canonicalPath'], undefined, `${path}: no canonical path`);
          const expected = unknownPathProblem(x.table.baseUrl, path, known, x.table.marketIds, hints) ?? assert.fail(path);
          assert.equal(res.body.toString('utf8'), problemText(expected), `${path}: the very body every engine answers`);
        }
        assert.match(String(checkProblem(await fetchRaw('GET', `/api/markets/${id}/`)).detail), new RegExp(`Did you mean /api/markets/${id}\\?`));
        assert.match(String(checkProblem(await fetchRaw('GET', '/api/vintages/1999-01-01/markets')).detail), /There is no snapshot of 1999-01-01\./);
      });

      test('an HTML 404 names first the page a path means: a page in other case or with a trailing slash, a market by its slug or city name', async () => {
        const hints = pathHints(x.table.routes.keys(), x.table.pageHints);
        const id = x.table.marketIds[0] ?? assert.fail('no market');
        const market = `/markets/${id}`;
        const slug = id.split('-').slice(2).join('-');
        const state = id.split('-')[1] ?? '';
        const cases: [string, string | undefined][] = [
          [`/markets/${slug}`, market],
          [`/${slug.toUpperCase()}`, market],
          [`/markets/${slug.replaceAll('-', '%20')}%2C%20${state.toUpperCase()}`, market],
          [`${market.toUpperCase()}/`, market],
          ['/Methodology', '/methodology'],
          ['/data-status/', '/data-status'],
          ['/no-such-page', undefined],
        ];
        for (const [path, meant] of cases) {
          assert.equal(pageMeant(decodeURIComponent(path), hints), meant, `${path}: the page the hints name`);
          const expected = meant === undefined ? x.table.notFoundPage : (x.table.hintPages.get(meant) ?? assert.fail(`no 404 page names ${meant}`));
          for (const method of ['GET', 'HEAD']) {
            const res = await fetchRaw(method, path);
            assert.equal(res.status, 404, `${method} ${path}`);
            assert.equal(header(res, 'content-type'), HTML_TYPE, `${method} ${path}`);
            assert.equal(header(res, 'content-length'), String(expected.length), `${method} ${path}: Content-Length`);
            if (method === 'GET') assert.ok(res.body.equals(expected), `${path}: the 404 page naming ${meant ?? 'nothing'}`);
          }
        }
        assert.match((await fetchRaw('GET', `/markets/${slug}`)).body.toString('utf8'), new RegExp(`Did you mean <a href="${market}">`));
      });

      test('OPTIONS answers a CORS preflight', async () => {
        for (const path of [PROFILE, CSV, '/api/markets']) {
          const res = await fetchRaw('OPTIONS', path, {
            Origin: 'https://example.org',
            'Access-Control-Request-Method': 'GET',
            'Access-Control-Request-Headers': 'if-none-match',
          });
          assert.equal(res.status, 204, path);
          assert.equal(header(res, 'access-control-allow-origin'), '*');
          const methods = tokens(header(res, 'access-control-allow-methods'));
          assert.ok(methods.includes('get') && methods.includes('head'), `${path}: Access-Control-Allow-Methods`);
          assert.equal(res.body.length, 0);
        }
      });
    });

    describe('conditional requests', () => {
      const validators = async (path: string, ae?: string): Promise<{ etag: string; lastModified: string }> => {
        const res = await fetchRaw('GET', path, ae === undefined ? {} : { 'Accept-Encoding': ae });
        assert.equal(res.status, 200);
        return { etag: header(res, 'etag') ?? '', lastModified: header(res, 'last-modified') ?? '' };
      };
      const expect304 = async (path: string, headers: Record<string, string>, method = 'GET'): Promise<RawResponse> => {
        const res = await fetchRaw(method, path, headers);
        assert.equal(res.status, 304, `${method} ${path} ${JSON.stringify(headers)}`);
        return res;
      };
      const expect200 = async (path: string, headers: Record<string, string>): Promise<RawResponse> => {
        const res = await fetchRaw('GET', path, headers);
        assert.equal(res.status, 200, `${path} ${JSON.stringify(headers)}`);
        assert.ok(decode(res).equals(routeOf(x, path).identity.body), `${path}: full bytes`);
        return res;
      };

      test('If-None-Match with the current ETag gives 304 with the same validators and no body', async () => {
        for (const path of [PROFILE, CSV, '/', '/assets/site.css']) {
          const { etag } = await validators(path);
          const res = await expect304(path, { 'If-None-Match': etag });
          assert.equal(header(res, 'etag'), etag);
          assert.equal(header(res, 'cache-control'), routeOf(x, path).headers.find(([k]) => k === 'Cache-Control')?.[1]);
        }
      });

      test('If-None-Match lists, weak comparison and *', async () => {
        const { etag } = await validators(PROFILE);
        await expect304(PROFILE, { 'If-None-Match': `"nope", ${etag}` });
        await expect304(PROFILE, { 'If-None-Match': `"a",${etag},"b"` });
        await expect304(PROFILE, { 'If-None-Match': `W/${etag}` });
        await expect304(PROFILE, { 'If-None-Match': `"nope", W/${etag}` });
        await expect304(PROFILE, { 'If-None-Match': '*' });
        await expect200(PROFILE, { 'If-None-Match': '"nope", W/"nope"' });
        await expect200(PROFILE, { 'If-None-Match': etag.slice(1, -1) });
      });

      test('HEAD revalidates too', async () => {
        const { etag } = await validators(PROFILE);
        await expect304(PROFILE, { 'If-None-Match': etag }, 'HEAD');
      });

      test('a validator matches only its own representation (ETag per content encoding)', async () => {
        const identity = await validators(PROFILE);
        const gzip = await validators(PROFILE, 'gzip');
        assert.notEqual(identity.etag, gzip.etag);
        const res = await expect304(PROFILE, { 'If-None-Match': gzip.etag, 'Accept-Encoding': 'gzip' });
        assert.equal(header(res, 'etag'), gzip.etag);
        assert.ok(tokens(header(res, 'vary')).includes('accept-encoding'), "tokens(header(res, 'vary')).includes('accept-encoding')");
        await expect200(PROFILE, { 'If-None-Match': identity.etag, 'Accept-Encoding': 'gzip' });
        await expect200(PROFILE, { 'If-None-Match': gzip.etag });
      });

      test('If-Modified-Since against Last-Modified', async () => {
        const { lastModified } = await validators(CSV);
        const lm = Date.parse(lastModified);
        assert.ok(!Number.isNaN(lm), 'Last-Modified is an HTTP date');
        await expect304(CSV, { 'If-Modified-Since': lastModified });
        await expect304(CSV, { 'If-Modified-Since': new Date(lm + 86_400_000).toUTCString() });
        await expect200(CSV, { 'If-Modified-Since': new Date(lm - 1000).toUTCString() });
        await expect200(CSV, { 'If-Modified-Since': 'not a date' });
      });

      test('If-None-Match takes precedence over If-Modified-Since', async () => {
        const { etag, lastModified } = await validators(PROFILE);
        const lm = Date.parse(lastModified);
        // An ETag that does not match wins over a date that would.
        await expect200(PROFILE, { 'If-None-Match': '"nope"', 'If-Modified-Since': lastModified });
        // An ETag that matches wins over a date that would not (RFC 9110 13.2.2: If-Modified-Since is not evaluated).
        await expect304(PROFILE, { 'If-None-Match': etag, 'If-Modified-Since': new Date(lm - 86_400_000).toUTCString() });
      });

      test('conditions never turn an error into a 304', async () => {
        const res = await fetchRaw('GET', '/api/nope', { 'If-None-Match': '*' });
        assert.equal(res.status, 404);
        const post = await fetchRaw('POST', PROFILE, { 'If-None-Match': '*', 'Content-Length': '0' });
        assert.equal(post.status, 405);
      });
    });

    describe('compression negotiation', () => {
      const acceptable = (ae: string, coding: string): boolean => {
        // Reference reading of RFC 9110 12.5.3, independent of any engine's parser.
        const q = new Map<string, number>();
        for (const part of ae.split(',')) {
          const [name = '', ...params] = part.split(';').map((s) => s.trim());
          if (name === '') continue;
          const qp = params.find((p) => /^q=/i.test(p));
          const value = qp === undefined ? 1 : Number(qp.slice(2));
          q.set(name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase(), Number.isNaN(value) ? 0 : value);
        }
        const v = q.get(coding) ?? q.get('*') ?? (coding === 'identity' ? 1 : 0);
        return v > 0;
      };
      const CASES_AE: readonly [string, ...string[]][] = [
        // [Accept-Encoding, codings a conforming engine may answer with for a route that has every variant]
        ['gzip', 'gzip'],
        ['br', 'br'],
        ['gzip, br', 'gzip', 'br'],
        ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br', 'gzip'],
        ['gzip;q=0', 'identity'],
        ['gzip;q=0, br;q=0', 'identity'],
        ['gzip;q=0, br', 'br', 'identity'],
        ['br;q=0, gzip', 'gzip', 'identity'],
        ['gzip; q=0.001', 'gzip', 'identity'],
        ['identity', 'identity'],
        ['identity;q=1, *;q=0', 'identity'],
        ['*', 'br', 'gzip', 'identity'],
        ['*;q=0.5', 'br', 'gzip', 'identity'],
        ['identity;q=0, gzip', 'gzip'],
        ['GZIP', 'gzip', 'identity'],
        ['x-gzip', 'gzip', 'identity'],
        ['deflate', 'identity'],
        ['compress, deflate;q=0.5', 'identity'],
        ['', 'identity'],
      ];

      for (const [ae, ...allowed] of CASES_AE) {
        test(`Accept-Encoding: ${JSON.stringify(ae)}`, async () => {
          for (const path of [PROFILE, CSV, '/api/markets/csv', '/']) {
            const route = routeOf(x, path);
            const res = await fetchRaw('GET', path, { 'Accept-Encoding': ae });
            assert.equal(res.status, 200);
            const coding = (header(res, 'content-encoding') ?? 'identity').toLowerCase().replace('x-gzip', 'gzip');
            const available = allowed.filter((c) => c === 'identity' || route[c as 'gzip' | 'br'] !== undefined);
            assert.ok(available.includes(coding), `${path} with ${JSON.stringify(ae)}: answered ${coding}, expected one of ${available.join(', ')}`);
            assert.ok(coding === 'identity' || acceptable(ae, coding), `${path}: ${coding} was not acceptable`);
            assert.ok(decode(res).equals(route.identity.body), `${path}: decompressed bytes equal the identity bytes`);
            assert.ok(tokens(header(res, 'vary')).includes('accept-encoding'), `${path}: Vary: Accept-Encoding`);
            const head = await fetchRaw('HEAD', path, { 'Accept-Encoding': ae });
            assert.equal(header(head, 'content-length'), header(res, 'content-length'), `${path}: HEAD Content-Length`);
            assert.equal(header(head, 'content-encoding'), header(res, 'content-encoding'), `${path}: HEAD Content-Encoding`);
          }
        });
      }

      test('every precompressed variant decompresses to the identity bytes', async () => {
        for (const route of x.table.routes.values()) {
          for (const coding of ['gzip', 'br'] as const) {
            if (route[coding] === undefined) continue;
            const res = await fetchRaw('GET', route.path, { 'Accept-Encoding': coding });
            assert.equal(header(res, 'content-encoding'), coding, `${route.path} ${coding}`);
            assert.equal(Number(header(res, 'content-length')), res.body.length);
            assert.ok(decode(res).equals(route.identity.body), `${route.path} ${coding}`);
          }
        }
      });
    });
  });
}
