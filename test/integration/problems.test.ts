// The error catalogue: every code listed once here, and the answers of each engine (embedded server, nginx's generated error bodies, CDN problem files) checked against it.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { artifactFiles } from '../../src/artifact/write.ts';
import { NGINX_SERVER_CONF } from '../../src/artifact/nginx.ts';
import { ENGINE_STATUSES, PROBLEM_CATALOGUE, PROBLEM_CODES, problemType, type ProblemCode } from '../../src/protocol/problems.ts';
import { PROBLEMS_DIR, SITE_DIR } from '../../src/artifact/manifest.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { createHandler } from '../../src/runtimes/server/handler.ts';
import type { RunningServer } from '../../src/runtimes/server/listener.ts';
import { startEmbedded } from '../support/embedded.ts';
import { exchange, header, request, type RawResponse } from '../support/http-suite.ts';
import { buildWorld } from '../world/world.ts';

/** Every code of the catalogue with its status, written out once. */
const CODES: Record<string, number> = {
  bad_request: 400,
  not_found: 404,
  market_not_found: 404,
  method_not_allowed: 405,
  headers_too_large: 431,
  request_timeout: 408,
  forbidden: 403,
  length_required: 411,
  precondition_failed: 412,
  content_too_large: 413,
  uri_too_long: 414,
  range_not_satisfiable: 416,
  expectation_failed: 417,
  internal_server_error: 500,
  not_implemented: 501,
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
  http_version_not_supported: 505,
};

/** A problem body agrees with the catalogue: its code is listed, status, title and type are the code's, a fixed detail is the code's. */
function assertCatalogued(body: Record<string, unknown>, baseUrl: string, where: string): ProblemCode {
  const code = body.code as ProblemCode;
  assert.ok(PROBLEM_CODES.includes(code), `${where}: code ${String(body.code)} is not in the catalogue`);
  const entry: { status: number; title: string; detail?: string } = PROBLEM_CATALOGUE[code];
  assert.equal(body.status, entry.status, `${where}: status`);
  assert.equal(body.title, entry.title, `${where}: title`);
  assert.equal(body.type, problemType(baseUrl, code), `${where}: type`);
  if (entry.detail !== undefined && code !== 'bad_request') assert.equal(body.detail, entry.detail, `${where}: detail`);
  assert.equal(typeof body.detail, 'string');
  return code;
}

describe('error catalogue', () => {
  it('lists every code once, with its status', () => {
    assert.deepEqual(Object.fromEntries(PROBLEM_CODES.map((c) => [c, PROBLEM_CATALOGUE[c].status])), CODES);
    assert.equal(new Set(PROBLEM_CODES).size, PROBLEM_CODES.length);
  });

  it('gives every status an engine can produce on its own exactly one code', () => {
    assert.deepEqual([...ENGINE_STATUSES], [400, 403, 405, 408, 411, 412, 413, 414, 416, 417, 431, 500, 501, 502, 503, 504, 505]);
  });

  it('types the request-level codes with a link to their data-catalog entry, the connection-level ones about:blank', () => {
    assert.equal(problemType('https://x.example', 'market_not_found'), 'https://x.example/data-catalog#problem-market-not-found');
    assert.equal(problemType('https://x.example', 'headers_too_large'), 'about:blank');
    assert.equal(problemType('https://x.example', 'internal_server_error'), 'about:blank');
  });
});

describe('the embedded server answers from the catalogue', () => {
  let running: RunningServer;
  let table: RouteTable;
  before(async () => {
    ({ running, table } = await startEmbedded());
  });
  after(async () => {
    await running.close();
  });

  const answer = async (bytes: string): Promise<RawResponse> => {
    const ex = await exchange(running.url, bytes);
    assert.equal(ex.responses.length, 1);
    return ex.responses[0] as RawResponse;
  };
  const cases: [ProblemCode, (url: string) => string][] = [
    ['bad_request', (url) => request(url, 'GET', '/api/%zz')],
    ['not_found', (url) => request(url, 'GET', '/api/nope')],
    ['market_not_found', (url) => request(url, 'GET', '/api/markets/us-zz-nowhere')],
    ['method_not_allowed', (url) => request(url, 'DELETE', '/api/markets')],
    ['headers_too_large', (url) => request(url, 'GET', '/api/markets', { 'X-Padding': 'a'.repeat(20_000) })],
  ];
  for (const [code, bytes] of cases) {
    it(`${code}: ${CODES[code]}, problem+json, as catalogued`, async () => {
      const res = await answer(bytes(running.url));
      assert.equal(res.status, CODES[code]);
      assert.equal(header(res, 'content-type'), 'application/problem+json');
      assert.equal(assertCatalogued(JSON.parse(res.body.toString()) as Record<string, unknown>, table.baseUrl, code), code);
    });
  }

  it('internal_server_error: a bug in the handler answers 500 with the catalogue body, not an empty one', () => {
    const broken = createHandler(table);
    const written: { status?: number; head?: string[]; body?: Buffer } = {};
    const req = {
      url: '/api/markets',
      method: 'GET',
      httpVersionMinor: 1,
      get rawHeaders(): string[] {
        throw new Error('a deliberate bug');
      },
    } as unknown as IncomingMessage;
    const res = {
      headersSent: false,
      shouldKeepAlive: true,
      writeHead(status: number, head: string[]) {
        written.status = status;
        written.head = head;
      },
      end(body?: Buffer) {
        written.body = body;
      },
    } as unknown as ServerResponse;
    const stderr = process.stderr.write.bind(process.stderr);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      broken(req, res);
    } finally {
      process.stderr.write = stderr;
    }
    assert.equal(written.status, 500);
    const head = written.head ?? [];
    assert.equal(head[head.indexOf('Content-Type') + 1], 'application/problem+json');
    assert.equal(head[head.indexOf('Content-Length') + 1], String(written.body?.length));
    assert.equal(assertCatalogued(JSON.parse(String(written.body)) as Record<string, unknown>, table.baseUrl, '500'), 'internal_server_error');
  });
});

describe('the generated engine files answer from the catalogue', () => {
  let table: RouteTable;
  let files: Map<string, Buffer>;
  before(() => {
    table = buildWorld({ baseUrl: 'https://data.example.org' });
    files = artifactFiles(table);
  });

  it("nginx: every status it can produce on its own returns the catalogue's body", () => {
    const conf = String(files.get(NGINX_SERVER_CONF));
    const bodies = [...conf.matchAll(/location = \/__mp\/e\/(\d+) \{[^}]*?return \1 "((?:[^"\\]|\\.)*)";/g)];
    assert.deepEqual(
      bodies.map((m) => Number(m[1])).sort((a, b) => a - b),
      // 414 answers 431, 501 and 505 answer 400 (an HTTP version other than 1.0 and 1.1 is a bad request, never a 5xx).
      ENGINE_STATUSES.filter((s) => s !== 414 && s !== 501 && s !== 505),
    );
    for (const [, status, quoted] of bodies) {
      const body = JSON.parse((quoted as string).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c)) as Record<string, unknown>;
      assert.equal(body.status, Number(status));
      assertCatalogued(body, table.baseUrl, `nginx ${status}`);
    }
  });

  it('CDN: every problem file is a catalogued 404', () => {
    const problems = [...files].filter(([name]) => name.startsWith(`${SITE_DIR}/${PROBLEMS_DIR}/`));
    assert.deepEqual(problems.map(([name]) => name).sort(), [
      `${SITE_DIR}/${PROBLEMS_DIR}/market-not-found.json`,
      `${SITE_DIR}/${PROBLEMS_DIR}/not-found.json`,
    ]);
    for (const [name, body] of problems) {
      assert.equal(
        assertCatalogued(JSON.parse(body.toString()) as Record<string, unknown>, table.baseUrl, name).replaceAll('_', '-'),
        name.split('/').pop()?.replace('.json', ''),
      );
    }
  });
});
