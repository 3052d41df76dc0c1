// The embedded server's ready answers: the 404s and the preflight with every header written out, and the three bounded caches, which keep a repeated answer until they are full and then start again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Answers, PREFLIGHT } from '../../src/runtimes/server/answers.ts';
import { buildTable } from '../support/data.ts';

const table = buildTable();

const COMMON = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', 'ETag, Link, Content-Disposition', 'X-Content-Type-Options', 'nosniff'];

describe('the 404 answers', () => {
  test('a path under /api/: problem+json, a short Cache-Control, the common headers and its length, nothing else', () => {
    const answer = new Answers(table).notFound('/api/nothing');
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.head, [
      'Content-Type',
      'application/problem+json',
      'Cache-Control',
      'public, max-age=60',
      ...COMMON,
      'Content-Length',
      String(answer.body.length),
    ]);
    const problem = JSON.parse(answer.body.toString('utf8')) as { code: string; instance: string };
    assert.equal(problem.code, 'not_found');
    assert.equal(problem.instance, '/api/nothing');
  });

  test('an unknown market id: market_not_found, with the same headers', () => {
    const answer = new Answers(table).notFound('/api/markets/us-xx-nowhere');
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.head.slice(0, 10), ['Content-Type', 'application/problem+json', 'Cache-Control', 'public, max-age=60', ...COMMON]);
    assert.equal(answer.head.length, 12, 'Content-Length last, and nothing more');
    assert.equal((JSON.parse(answer.body.toString('utf8')) as { code: string }).code, 'market_not_found');
  });

  test("a path outside /api/: the HTML page, with the pages' headers", () => {
    const answer = new Answers(table).notFound('/nowhere');
    assert.equal(answer.status, 404);
    assert.equal(answer.body, table.notFoundPage);
    assert.deepEqual(answer.head, [
      'Content-Type',
      'text/html; charset=utf-8',
      'Cache-Control',
      'public, max-age=60',
      ...COMMON,
      'Content-Security-Policy',
      "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'Referrer-Policy',
      'no-referrer',
      'Content-Length',
      String(table.notFoundPage.length),
    ]);
  });
});

describe('the preflight', () => {
  test('Allow, the methods and the request headers a page may send, cached for a day, and the common headers', () => {
    assert.deepEqual(PREFLIGHT, [
      'Allow',
      'GET, HEAD',
      'Access-Control-Allow-Methods',
      'GET, HEAD',
      // The conditional headers are not CORS-safelisted: a page that revalidates needs them granted.
      'Access-Control-Allow-Headers',
      'Accept, Accept-Encoding, If-None-Match, If-Modified-Since',
      'Access-Control-Max-Age',
      '86400',
      'Cache-Control',
      'public, max-age=300',
      ...COMMON,
    ]);
  });
});

/**
 * A bounded cache, read through `read`: `key` is answered by the same object again, still beside `limit - 1` other keys,
 * and anew (an equal value) once one more has filled the cache.
 */
function keptUntilFull<T>(read: (key: string) => T, key: string, other: (i: number) => string, limit: number): void {
  const first = read(key);
  assert.equal(read(key), first, 'the same answer again');
  for (let i = 0; i < limit - 1; i += 1) read(other(i));
  assert.equal(read(key), first, `kept beside ${limit - 1} others`);
  read(other(limit - 1));
  const later = read(key);
  assert.notEqual(later, first, 'made again once the cache was full');
  assert.deepEqual(later, first, 'an equal value');
}

describe('the bounded caches: a repeated miss is kept until the cache is full, then the cache starts again', () => {
  test('a repeated miss is not decoded again: the path rules decide a raw path once, until 1,024 others have come', () => {
    const answers = new Answers(table);
    assert.deepEqual(answers.classify('/api/markets/us-zz-%6Eowhere'), { kind: 'route', path: '/api/markets/us-zz-nowhere' });
    keptUntilFull(answers.classify, '/api/markets/us-zz-%6Eowhere', (i) => `/api/nope-${i}`, 1024);
  });

  test("a 404's answer is made once per decoded path, until 1,024 others have come", () => {
    const answers = new Answers(table);
    keptUntilFull(
      (path) => answers.notFound(path),
      '/api/markets/us-zz-cache',
      (i) => `/api/nope-${i}`,
      1024,
    );
  });

  test('an Accept-Encoding value is parsed once, until 256 others have come; no header is the identity only', () => {
    const answers = new Answers(table);
    assert.deepEqual(answers.accept(undefined), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(answers.accept('gzip;q=0.5, br'), { br: 1, gzip: 0.5, identity: 1 });
    keptUntilFull(
      (value) => answers.accept(value),
      'gzip;q=0.5, br',
      (i) => `x-${i}`,
      256,
    );
  });
});
