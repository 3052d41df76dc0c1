// The embedded server's own rules beyond the shared contract: limits and timeouts, parser rejections, methods, preflight, negotiation order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { LIMITS } from '../../src/protocol/limits.ts';
import type { RunningServer } from '../../src/runtimes/server/listener.ts';
import { startEmbedded } from '../support/embedded.ts';
import { checkProblem, exchange, header, request, type RawExchange, type RawResponse } from '../support/http-suite.ts';

let running: RunningServer;
let table: RouteTable;
const PROFILE = '/api/markets/us-tx-austin';

before(async () => {
  ({ running, table } = await startEmbedded());
});
after(async () => {
  await running.close();
});

const host = (): string => new URL(running.url).host;
const send = (bytes: string, heads: boolean[] = []): Promise<RawExchange> => exchange(running.url, bytes, heads);
const one = async (bytes: string, head = false): Promise<RawResponse> => {
  const ex = await send(bytes, [head]);
  assert.equal(ex.responses.length, 1, `one answer to ${JSON.stringify(bytes.slice(0, 60))}`);
  assert.equal(ex.leftover.length, 0);
  return ex.responses[0] as RawResponse;
};
const problemOf = (res: RawResponse): Record<string, unknown> => checkProblem(res);

describe('limits and timeouts', () => {
  test('the server runs with the limits the README documents, as literal numbers (asserted, never waited for)', () => {
    const { server } = running;
    // README "Server limits": headers 16 KiB, headers within 10 s, the whole request within 15 s, idle keep-alive 5 s.
    assert.equal((server as typeof server & { maxHeaderSize?: number }).maxHeaderSize, 16_384);
    assert.equal(server.headersTimeout, 10_000);
    assert.equal(server.requestTimeout, 15_000);
    assert.equal(server.keepAliveTimeout, 5_000);
    // Stalled writes are cut by a periodic check instead of a per-socket timer (see sweepStalled below): 15 to 30 s.
    assert.equal(server.timeout, 0);
    assert.equal(LIMITS.stalledWriteCheckMs, 15_000);
    // A shutdown drains requests in flight for up to 10 s.
    assert.equal(LIMITS.drainTimeoutMs, 10_000);
    // A closing connection reads what the client still sends for up to 30 s, less once the client is silent for 5 s.
    assert.equal(LIMITS.lingeringTimeMs, 30_000);
    assert.equal(LIMITS.lingeringTimeoutMs, 5_000);
    // node checks both timeouts on this interval, so it bounds how late a slow-loris socket is cut: at most half the header timeout.
    assert.ok(LIMITS.timeoutCheckIntervalMs <= 5_000, 'LIMITS.timeoutCheckIntervalMs <= 5_000');
  });

  test('headers larger than 16 KiB: 431, problem+json, connection closed', async () => {
    const ex = await send(`GET ${PROFILE} HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'a'.repeat(16_384)}\r\n\r\n`);
    assert.equal(ex.responses.length, 1);
    const res = ex.responses[0] as RawResponse;
    assert.equal(res.status, 431);
    assert.equal(header(res, 'content-type'), 'application/problem+json');
    assert.equal(problemOf(res).code, 'headers_too_large');
    assert.equal(header(res, 'access-control-allow-origin'), '*');
    assert.ok(ex.closed, 'ex.closed');
  });

  test('many small headers over the limit also get 431', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `X-H${i}: ${'b'.repeat(100)}\r\n`).join('');
    const res = await one(`GET ${PROFILE} HTTP/1.1\r\nHost: ${host()}\r\n${lines}Connection: close\r\n\r\n`);
    assert.equal(res.status, 431);
  });

  test('headers just under 16 KiB are served', async () => {
    const res = await one(request(running.url, 'GET', PROFILE, { 'X-Fill': 'c'.repeat(16_384 - 512) }));
    assert.equal(res.status, 200);
  });

  test('a path longer than the limit is a 404, never decoded', async () => {
    // 683 × "%41" plus the prefix is 2,062 characters, over the 2,048 limit (a literal, not the constant).
    const res = await one(request(running.url, 'GET', `/api/markets/${'%41'.repeat(683)}`));
    assert.equal(res.status, 404);
    assert.equal(problemOf(res).instance, undefined, 'an overlong path is not echoed');
  });
});

describe('request smuggling shapes are rejected by the parser: 400, one answer, connection closed', () => {
  const smuggled = (h: string): string => `GET /api/markets HTTP/1.1\r\nHost: ${h}\r\n\r\n`;
  const shapes: [string, (h: string) => string][] = [
    ['two Content-Lengths', (h) => `POST ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\n${smuggled(h)}`],
    ['two equal Content-Lengths in one field', (h) => `POST ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nContent-Length: 5, 5\r\n\r\nhello${smuggled(h)}`],
    [
      'Transfer-Encoding with Content-Length',
      (h) => `POST ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled(h)}`,
    ],
    [
      'Content-Length with Transfer-Encoding (reversed)',
      (h) => `GET ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n${smuggled(h)}`,
    ],
    ['unknown Transfer-Encoding', (h) => `POST ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n${smuggled(h)}`],
    [
      'Transfer-Encoding not ending in chunked',
      (h) => `GET ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n${smuggled(h)}`,
    ],
    ['obfuscated Transfer-Encoding name', (h) => `GET ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n${smuggled(h)}`],
    ['negative Content-Length', (h) => `GET ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nContent-Length: -1\r\n\r\n${smuggled(h)}`],
    ['bare LF inside a header line', (h) => `GET ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\nX-A: 1\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled(h)}`],
  ];
  for (const [name, build] of shapes) {
    test(name, async () => {
      const ex = await send(build(host()));
      assert.equal(ex.responses.length, 1, 'the smuggled request is never answered');
      const res = ex.responses[0] as RawResponse;
      assert.equal(res.status, 400);
      assert.equal(problemOf(res).code, 'bad_request');
      assert.ok(ex.closed, 'the connection is closed');
    });
  }
});

describe('methods', () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'FROB', 'MKCOL', 'SEARCH']) {
    test(`${method}: 405 with Allow: GET, HEAD`, async () => {
      const res = await one(request(running.url, method, PROFILE, { 'Content-Length': '0' }));
      assert.equal(res.status, 405);
      assert.equal(header(res, 'allow'), 'GET, HEAD');
      assert.equal(problemOf(res).code, 'method_not_allowed');
    });
  }

  test('HEAD of a 405 has the same headers and no body', async () => {
    const res = await one(request(running.url, 'HEAD', '/api/nope'), true);
    assert.equal(res.status, 404);
    assert.equal(res.body.length, 0);
  });

  test('OPTIONS answers a CORS preflight with the allowed methods and headers', async () => {
    const res = await one(
      request(running.url, 'OPTIONS', PROFILE, {
        Origin: 'https://example.org',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'If-None-Match',
      }),
    );
    assert.equal(res.status, 204);
    assert.equal(header(res, 'allow'), 'GET, HEAD');
    assert.equal(header(res, 'access-control-allow-origin'), '*');
    assert.equal(header(res, 'access-control-allow-methods'), 'GET, HEAD');
    assert.match(header(res, 'access-control-allow-headers') ?? '', /If-None-Match/);
    assert.equal(header(res, 'access-control-max-age'), '86400');
    assert.equal(header(res, 'x-content-type-options'), 'nosniff');
  });

  test('OPTIONS * answers for the whole server; OPTIONS on an unknown path is a 404', async () => {
    assert.equal((await one(request(running.url, 'OPTIONS', '*'))).status, 204);
    assert.equal((await one(request(running.url, 'OPTIONS', '/api/nope'))).status, 404);
  });
});

describe('answers specific to this server', () => {
  test('an unknown market id is echoed, with the known ids and the index', async () => {
    const res = await one(request(running.url, 'GET', '/api/markets/us-xx-nowhere/csv'));
    const p = problemOf(res);
    assert.equal(res.status, 404);
    assert.equal(p.code, 'market_not_found');
    assert.equal(p.marketId, 'us-xx-nowhere');
    assert.deepEqual(p.knownMarketIds, table.marketIds);
    assert.equal(p.index, `${table.baseUrl}/api/markets`);
    assert.equal(p.instance, '/api/markets/us-xx-nowhere/csv');
    assert.equal(header(res, 'cache-control'), 'public, max-age=60');
  });

  test('an id that is not safe to echo is left out, not escaped', async () => {
    const res = await one(request(running.url, 'GET', '/api/markets/%3Cscript%3E'));
    const p = problemOf(res);
    assert.equal(p.code, 'market_not_found');
    assert.equal(p.marketId, undefined);
    assert.equal(p.instance, undefined);
    assert.ok(!res.body.includes('<script>'), "!res.body.includes('<script>')");
  });

  test('repeated misses answer the same bytes (the bounded cache changes nothing visible)', async () => {
    const first = await one(request(running.url, 'GET', '/api/markets/us-zz-cache'));
    for (let i = 0; i < 1100; i += 1) await one(request(running.url, 'GET', `/api/nope-${i}`));
    const again = await one(request(running.url, 'GET', '/api/markets/us-zz-cache'));
    assert.ok(first.body.equals(again.body), 'first.body.equals(again.body)');
  });

  test('the highest q-value wins; on a tie, brotli before gzip before identity', async () => {
    const coding = async (ae: string): Promise<string> =>
      header(await one(request(running.url, 'GET', PROFILE, { 'Accept-Encoding': ae })), 'content-encoding') ?? 'identity';
    assert.equal(await coding('gzip, br'), 'br');
    assert.equal(await coding('br;q=0.5, gzip'), 'gzip');
    assert.equal(await coding('br;q=0.5, gzip;q=0.5, identity;q=0.5'), 'br');
    assert.equal(await coding('gzip;q=0.5, identity'), 'identity');
    assert.equal(await coding('*'), 'br');
    assert.equal(await coding('*;q=0.2, br;q=0'), 'gzip');
    assert.equal(await coding('gzip;q=0, br;q=0, identity;q=0'), 'identity');
  });

  test('two If-Modified-Since fields are a 400, as on nginx, which takes the field once', async () => {
    const res = await one(request(running.url, 'GET', PROFILE, [`If-Modified-Since: ${table.lastModified}`, `If-Modified-Since: ${table.lastModified}`]));
    assert.equal(res.status, 400);
  });

  test('the 304 carries no Last-Modified: the ETag is the validator', async () => {
    const etag = table.routes.get(PROFILE)?.identity.etag ?? '';
    const res = await one(request(running.url, 'GET', PROFILE, { 'If-None-Match': etag }));
    assert.equal(res.status, 304);
    assert.equal(header(res, 'etag'), etag);
    assert.equal(header(res, 'last-modified'), undefined);
  });

  test('a persistent HTTP/1.1 connection is implied, not announced; a closing one says Connection: close', async () => {
    const h = host();
    const ex = await send(`GET ${PROFILE} HTTP/1.1\r\nHost: ${h}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: ${h}\r\nConnection: close\r\n\r\n`);
    assert.equal(ex.responses.length, 2);
    const [kept, closing] = ex.responses as [RawResponse, RawResponse];
    assert.equal(header(kept, 'connection'), undefined);
    assert.equal(header(kept, 'keep-alive'), undefined);
    assert.equal(header(closing, 'connection'), 'close');
    assert.ok(ex.closed, 'ex.closed');
  });

  test('an HTTP/1.0 client asking for keep-alive is told so', async () => {
    const ex = await send(`GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /healthz HTTP/1.0\r\n\r\n`);
    assert.equal(ex.responses.length, 2);
    assert.equal(header(ex.responses[0] as RawResponse, 'connection'), 'keep-alive');
    assert.ok(ex.closed, 'ex.closed');
  });

  test('HTTP/1.1 without Host, or with two, is a 400 problem and the connection closes', async () => {
    for (const bytes of [`GET ${PROFILE} HTTP/1.1\r\n\r\n`, `GET ${PROFILE} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`]) {
      const ex = await send(bytes);
      assert.equal(ex.responses[0]?.status, 400);
      assert.ok(ex.closed, 'ex.closed');
    }
  });
});
