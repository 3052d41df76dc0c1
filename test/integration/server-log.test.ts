// Access log: off by default; when on, exactly one JSON line per request with the documented fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAD_TARGET_REASONS } from '../../src/protocol/request-target.ts';
import { UNPARSABLE_REASON, badRequestProblem, marketProblem, methodProblem, problemText, type ProblemDetails } from '../../src/protocol/problems.ts';
import type { AccessLogEntry } from '../../src/runtimes/server/listener.ts';
import { startEmbedded } from '../support/embedded.ts';
import { exchange, request } from '../support/http-suite.ts';

const FIELDS = ['time', 'method', 'path', 'status', 'bytes', 'encoding', 'ms'];

test('LOG on: one line per request, with time, method, path (no query), status, body bytes, encoding and ms', async () => {
  const lines: string[] = [];
  const { running, table } = await startEmbedded({ log: true, logLine: (line) => lines.push(line) });
  const o = running.url;
  const profile = table.routes.get('/api/markets/us-tx-austin');
  assert.ok(profile?.gzip, 'profile?.gzip');
  const sent: [string, boolean][] = [
    [request(o, 'GET', '/api/markets/us-tx-austin?secret=1'), false],
    [request(o, 'GET', '/api/markets/us-tx-austin', { 'Accept-Encoding': 'gzip' }), false],
    [request(o, 'HEAD', '/api/markets/us-tx-austin'), true],
    [request(o, 'GET', '/api/markets/us-tx-austin', { 'If-None-Match': profile.identity.etag }), false],
    [request(o, 'GET', '/api/markets/us-xx-nowhere'), false],
    [request(o, 'POST', '/api/markets', { 'Content-Length': '0' }), false],
    [request(o, 'GET', '/api/markets/%zz'), false],
    // Rejected by the HTTP parser: it never reaches the handler, and still gets its one line.
    [`GET /api/markets HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`, false],
  ];
  for (const [bytes, head] of sent) await exchange(o, bytes, [head]);
  // Closing waits for every answer to finish, so every line has been written.
  await running.close();

  assert.equal(lines.length, sent.length, lines.join('\n'));
  const entries = lines.map((line) => JSON.parse(line) as AccessLogEntry & { error?: string });
  for (const e of entries) {
    for (const f of FIELDS) assert.ok(f in e, `field ${f} in ${JSON.stringify(e)}`);
    assert.ok(!Number.isNaN(Date.parse(e.time)) && e.time.endsWith('Z'), 'ISO time');
    assert.equal(typeof e.ms, 'number');
    assert.ok(e.ms >= 0, 'e.ms >= 0');
  }
  const brief = entries.map((e) => [e.method, e.path, e.status, e.bytes, e.encoding]);
  // The error bodies' sizes, from the error catalogue the server answers with.
  const size = (p: ProblemDetails): number => Buffer.byteLength(problemText(p));
  const base = table.baseUrl;
  assert.deepEqual(brief, [
    ['GET', '/api/markets/us-tx-austin', 200, profile.identity.body.length, 'identity'],
    ['GET', '/api/markets/us-tx-austin', 200, profile.gzip.body.length, 'gzip'],
    ['HEAD', '/api/markets/us-tx-austin', 200, 0, 'identity'],
    ['GET', '/api/markets/us-tx-austin', 304, 0, 'identity'],
    ['GET', '/api/markets/us-xx-nowhere', 404, size(marketProblem(base, 'us-xx-nowhere', '/api/markets/us-xx-nowhere', table.marketIds)), 'identity'],
    ['POST', '/api/markets', 405, size(methodProblem(base, 'POST', '/api/markets')), 'identity'],
    ['GET', '/api/markets/%zz', 400, size(badRequestProblem(base, BAD_TARGET_REASONS.encoding)), 'identity'],
    ['GET', '-', 400, size(badRequestProblem(base, UNPARSABLE_REASON)), 'identity'],
  ]);
  assert.equal(entries[7]?.error, 'HPE_UNEXPECTED_CONTENT_LENGTH');
  assert.ok(!lines.join('\n').includes('secret'), 'query strings are not logged');
});

test('LOG off (the default): no line at all', async () => {
  const lines: string[] = [];
  const { running } = await startEmbedded({ logLine: (line) => lines.push(line) });
  await exchange(running.url, request(running.url, 'GET', '/api/markets'));
  await exchange(running.url, 'BROKEN\r\n\r\n');
  await running.close();
  assert.deepEqual(lines, []);
});

test("a request the parser refuses is logged under its first word when that is a method token of at most 32 characters, else under '-'", async () => {
  const lines: string[] = [];
  const { running } = await startEmbedded({ log: true, logLine: (line) => lines.push(line) });
  const o = running.url;
  const sent: [string, string][] = [
    // A lower-case token is still a token: node's parser refuses it as a method, the log names it.
    ['get /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 'get'],
    ['HEAD /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 'HEAD'],
    [`${'A'.repeat(32)} /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, 'A'.repeat(32)],
    // Longer than any method a client sends: not echoed into the log, nor a prefix of it.
    [`${'A'.repeat(33)} /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, '-'],
    // Not a token at the start of the line: a token further on is not the method.
    [' GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '-'],
    ['G\u0001T /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '-'],
  ];
  for (const [bytes, method] of sent) await exchange(o, bytes, [method === 'HEAD']);
  await running.close();
  const entries = lines.map((line) => JSON.parse(line) as AccessLogEntry & { error?: string });
  assert.deepEqual(
    entries.map((e) => e.method),
    sent.map(([, method]) => method),
  );
  for (const e of entries) {
    assert.equal(e.path, '-', JSON.stringify(e));
    assert.equal(typeof e.error, 'string', JSON.stringify(e));
  }
  assert.equal(entries[1]?.bytes, 0, 'a refused HEAD is logged with the body it did not get');
});
