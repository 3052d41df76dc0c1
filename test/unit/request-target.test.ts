// The request-target rules over generated paths: canonical paths reach a route unchanged, encodings of unreserved characters are equivalent, bad bytes never pass, nothing throws; the length limit at its literal edges.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  BAD_TARGET_REASONS,
  HOST_COUNT_REASON,
  HOST_VALUE_REASON,
  ORIGIN_FORM_REASON,
  classifyPath,
  echoablePath,
  echoableSegment,
  isApiPath,
  marketIdOf,
  MAX_PATH_LENGTH,
  validHost,
} from '../../src/protocol/request-target.ts';

const RUNS = { numRuns: 1000, seed: 20261124 };
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
/** A path segment of unreserved characters that is not a dot segment. */
const segment = fc.string({ unit: fc.constantFrom(...UNRESERVED), minLength: 1, maxLength: 12 }).filter((s) => s !== '.' && s !== '..');
const canonicalPath = fc.array(segment, { minLength: 0, maxLength: 6 }).map((segments) => `/${segments.join('/')}`);

describe('classifyPath', () => {
  test('a canonical path of unreserved characters reaches the route table unchanged', () => {
    fc.assert(
      fc.property(canonicalPath, (path) => {
        assert.deepEqual(classifyPath(path), { kind: 'route', path });
      }),
      RUNS,
    );
  });
  test('percent-encoding an unreserved character is the same path (RFC 3986 6.2.2.2)', () => {
    fc.assert(
      fc.property(canonicalPath, fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), (path, which) => {
        const encoded = [...path]
          .map((ch, i) => (ch !== '/' && which[i % which.length] === true ? `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : ch))
          .join('');
        assert.deepEqual(classifyPath(encoded), { kind: 'route', path });
      }),
      RUNS,
    );
  });
  test('any string at all is classified, never thrown on, and never yields a route holding a control byte, a backslash or a dot segment', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (raw) => {
        const verdict = classifyPath(`/${raw}`);
        if (verdict.kind !== 'route') return;
        // eslint-disable-next-line no-control-regex -- the property is about control bytes
        assert.ok(!/[\u0000-\u001f\u007f\\]/.test(verdict.path), JSON.stringify(raw));
        assert.ok(!verdict.path.split('/').some((s) => s === '.' || s === '..'), JSON.stringify(raw));
        assert.ok(!verdict.path.includes('//'), JSON.stringify(raw));
      }),
      RUNS,
    );
  });
  test('a control byte anywhere, raw or encoded, is a bad request', () => {
    fc.assert(
      fc.property(
        canonicalPath,
        fc.integer({ min: 0, max: 0x1f }).chain((c) => fc.constantFrom(c, 0x7f)),
        fc.boolean(),
        (path, code, encode) => {
          const ch = encode ? `%${code.toString(16).padStart(2, '0')}` : String.fromCharCode(code);
          const verdict = classifyPath(`${path}${ch}x`);
          assert.equal(verdict.kind, 'bad_request');
        },
      ),
      RUNS,
    );
  });
  test('each rule answers its own reason, in the words the 400 problem carries', () => {
    const reasonOf = (raw: string): string | undefined => {
      const v = classifyPath(raw);
      return v.kind === 'bad_request' ? v.reason : undefined;
    };
    const CONTROL = 'The request target contains a control character.';
    const BACKSLASH = 'The request target contains a backslash.';
    const ENCODING = 'The request target has malformed percent-encoding, an encoded slash, backslash or NUL.';
    const UTF8 = 'The request target is not valid percent-encoded UTF-8.';
    const ENCODED_CONTROL = 'The request target contains an encoded control character.';
    const DOT = 'The request target contains a dot segment.';
    assert.deepEqual(BAD_TARGET_REASONS, { control: CONTROL, backslash: BACKSLASH, encoding: ENCODING, utf8: UTF8, encodedControl: ENCODED_CONTROL, dot: DOT });
    assert.equal(reasonOf('/a\u0001b'), CONTROL);
    assert.equal(reasonOf('/a\\b'), BACKSLASH);
    for (const raw of ['/a%zz', '/a%', '/a%4', '/a%4g', '/a%2Fb', '/a%5Cb', '/a%00']) assert.equal(reasonOf(raw), ENCODING, raw);
    assert.equal(reasonOf('/a%c0%af'), UTF8);
    assert.equal(reasonOf('/a%e2%82'), UTF8, 'a truncated sequence');
    assert.equal(reasonOf('/a%0a'), ENCODED_CONTROL);
    assert.equal(reasonOf('/a%7F'), ENCODED_CONTROL);
    assert.equal(reasonOf('/a/../b'), DOT);
    assert.equal(reasonOf('/a/%2e%2E/b'), DOT);
    assert.equal(reasonOf('/a/./b'), DOT);
    assert.equal(reasonOf('/a/..b'), undefined, 'a segment that only starts with dots is a name');
    assert.equal(ORIGIN_FORM_REASON, 'The request target must be a path beginning with "/" (origin form).');
  });
  test('a doubled slash is never a route, however it is spelled', () => {
    assert.deepEqual(classifyPath('//api/markets'), { kind: 'not_found', path: '//api/markets' });
    assert.deepEqual(classifyPath('/api//markets'), { kind: 'not_found', path: '/api//markets' });
    assert.deepEqual(classifyPath('/api/%2Fmarkets').kind, 'bad_request');
  });
  test('an encoded unreserved character in a real route is the route', () => {
    assert.deepEqual(classifyPath('/api/markets/us%2Dtx-austin'), { kind: 'route', path: '/api/markets/us-tx-austin' });
  });
  test('decodes once: %252e is a literal "%2e", not a dot', () => {
    assert.deepEqual(classifyPath('/a%252e%252e'), { kind: 'route', path: '/a%2e%2e' });
  });
});

describe('the path length limit, at its literal edges', () => {
  test('the limit is 2,048 characters', () => {
    assert.equal(MAX_PATH_LENGTH, 2048);
  });
  test('2,048 characters may be a route; 2,049 is not found, once the path rules have passed it', () => {
    const at = `/${'a'.repeat(2047)}`;
    assert.equal(at.length, 2048);
    assert.deepEqual(classifyPath(at), { kind: 'route', path: at });
    const over = `/${'a'.repeat(2048)}`;
    assert.equal(over.length, 2049);
    assert.deepEqual(classifyPath(over), { kind: 'not_found', path: over });
    // The rules hold at any length, as nginx's parser holds them: a bad byte beyond the limit is a bad request.
    const overWithNul = `/${'a'.repeat(2047)}\u0000`;
    assert.deepEqual(classifyPath(overWithNul), { kind: 'bad_request', reason: 'The request target contains a control character.' });
    assert.deepEqual(classifyPath(`/api/${'%00'.repeat(2700)}`), {
      kind: 'bad_request',
      reason: 'The request target has malformed percent-encoding, an encoded slash, backslash or NUL.',
    });
    assert.deepEqual(classifyPath(`/api/markets/${'../'.repeat(700)}`), { kind: 'bad_request', reason: 'The request target contains a dot segment.' });
  });
});

describe('what a path is', () => {
  test('API paths answer problem+json; every other unknown path the HTML 404 page', () => {
    for (const p of ['/api', '/api/', '/api/x', '/api/markets/nope', '/healthz']) assert.equal(isApiPath(p), true, p);
    for (const p of ['/', '/apix', '/markets/x', '/healthz/', '/API/markets', '/methodology']) assert.equal(isApiPath(p), false, p);
  });
  test('the market id of a market path, and none for the bulk CSV or anything deeper', () => {
    assert.equal(marketIdOf('/api/markets/us-tx-austin'), 'us-tx-austin');
    assert.equal(marketIdOf('/api/markets/us-tx-austin/csv'), 'us-tx-austin');
    assert.equal(marketIdOf('/api/markets/csv'), undefined);
    assert.equal(marketIdOf('/api/markets/csv/csv'), undefined, '"csv" is never a market id');
    assert.equal(marketIdOf('/api/markets/a/b'), undefined);
    assert.equal(marketIdOf('/api/markets/'), undefined);
    assert.equal(marketIdOf('/api/markets/x/csvx'), undefined);
    assert.equal(marketIdOf('/api/marketsx/x'), undefined);
  });
  test('only unreserved characters and slashes are echoed, up to 256 characters; segments up to 128', () => {
    fc.assert(
      fc.property(canonicalPath, (path) => {
        assert.equal(echoablePath(path), path.length <= 256);
      }),
      RUNS,
    );
    assert.equal(echoablePath(`/${'a'.repeat(255)}`), true);
    assert.equal(echoablePath(`/${'a'.repeat(256)}`), false);
    for (const p of ['/a b', '/a"b', '/a<b', '/a%20b', 'a/b', '/a?b', '/é']) assert.equal(echoablePath(p), false, p);
    assert.equal(echoableSegment('a'.repeat(128)), true);
    assert.equal(echoableSegment('a'.repeat(129)), false);
    assert.equal(echoableSegment(''), false);
    assert.equal(echoableSegment('a/b'), false);
  });
});

describe('the Host value (RFC 9112 3.2: uri-host with an optional port)', () => {
  test('a name, an IPv4 address or a bracketed IPv6 literal, each with or without a port', () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      'example.org',
      'a-b.example.org:',
      '127.0.0.1:8080',
      '[::1]',
      '[::1]:3000',
      'xn--bcher-kva.example',
      '%41.example',
    ])
      assert.equal(validHost(host), true, host);
  });
  test('empty, with a space, a slash, an @, an empty label, a second colon or an open bracket: refused', () => {
    for (const host of ['', ' ', 'a b', 'a/b', 'user@example.org', 'a..b', 'example.org:80:80', 'example.org:8o', '[::1', '::1', 'a\tb', 'é.example'])
      assert.equal(validHost(host), false, JSON.stringify(host));
  });
  test("the 400's reasons say which rule was broken", () => {
    assert.equal(HOST_COUNT_REASON, 'An HTTP/1.1 request carries exactly one Host header.');
    assert.match(HOST_VALUE_REASON, /^The Host header is not a host name or address with an optional port \(RFC 9112 3\.2\)\.$/);
  });
});
