// The embedded server's ready answers: the 404s with every header written out, and the three bounded caches, which keep a repeated answer until they are full and then start again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Answers } from '../../src/runtimes/server/answers.ts';
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

describe('the bounded caches: a repeated miss is kept until the cache is full, then the cache starts again', () => {
  test('a repeated miss is not decoded again: the path rules decide a raw path once, until 1,024 others have come', () => {
    const answers = new Answers(table);
    const first = answers.classify('/api/markets/us-zz-%6Eowhere');
    assert.deepEqual(first, { kind: 'route', path: '/api/markets/us-zz-nowhere' });
    assert.equal(answers.classify('/api/markets/us-zz-%6Eowhere'), first);
    for (let i = 0; i < 1023; i += 1) answers.classify(`/api/nope-${i}`);
    assert.equal(answers.classify('/api/markets/us-zz-%6Eowhere'), first, 'kept beside 1,023 others');
    answers.classify('/api/nope-1023');
    const later = answers.classify('/api/markets/us-zz-%6Eowhere');
    assert.notEqual(later, first);
    assert.deepEqual(later, first);
  });

  test("a 404's answer is made once per decoded path, until 1,024 others have come", () => {
    const answers = new Answers(table);
    const first = answers.notFound('/api/markets/us-zz-cache');
    assert.equal(answers.notFound('/api/markets/us-zz-cache'), first, 'the same answer again');
    for (let i = 0; i < 1023; i += 1) answers.notFound(`/api/nope-${i}`);
    assert.equal(answers.notFound('/api/markets/us-zz-cache'), first, 'kept beside 1,023 others');
    answers.notFound('/api/nope-1023');
    const later = answers.notFound('/api/markets/us-zz-cache');
    assert.notEqual(later, first, 'made again once the cache was full');
    assert.deepEqual(later, first, 'the same bytes');
  });

  test('an Accept-Encoding value is parsed once, until 256 others have come; no header is the identity only', () => {
    const answers = new Answers(table);
    assert.deepEqual(answers.accept(undefined), { br: 0, gzip: 0, identity: 1 });
    const first = answers.accept('gzip;q=0.5, br');
    assert.deepEqual(first, { br: 1, gzip: 0.5, identity: 1 });
    for (let i = 0; i < 255; i += 1) answers.accept(`x-${i}`);
    assert.equal(answers.accept('gzip;q=0.5, br'), first, 'kept beside 255 others');
    answers.accept('x-255');
    const later = answers.accept('gzip;q=0.5, br');
    assert.notEqual(later, first);
    assert.deepEqual(later, first);
  });
});
