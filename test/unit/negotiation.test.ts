// Accept-Encoding negotiation and conditional requests over generated headers: the highest acceptable q wins, ties go to the smaller coding, q=0 is never sent, nothing throws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ifNoneMatchHits, notModified } from '../../src/protocol/conditional.ts';
import { NO_HEADER, chooseEncoding, parseAcceptEncoding, type Acceptable, type Encoding } from '../../src/protocol/negotiation.ts';

const RUNS = { numRuns: 1000, seed: 20261124 };
const CODINGS = ['br', 'gzip', 'identity', '*', 'x-gzip', 'deflate', 'compress', 'zstd'] as const;
const qvalue = fc.oneof(
  fc.constantFrom('0', '1', '0.5', '0.001', '1.000', '0.000', '0.9'),
  fc.integer({ min: 0, max: 1000 }).map((n) => (n / 1000).toString()),
);
/** A well-formed Accept-Encoding header: codings in any case, some with a q-value, with optional whitespace. */
const header = fc
  .array(fc.tuple(fc.constantFrom(...CODINGS), fc.option(qvalue, { nil: undefined }), fc.boolean()), { maxLength: 6 })
  .map((parts) => parts.map(([coding, q, upper]) => `${upper ? coding.toUpperCase() : coding}${q === undefined ? '' : ` ; q=${q}`}`).join(', '));

const all = { identity: 'identity' as Encoding, gzip: 'gzip' as Encoding, br: 'br' as Encoding };
const RANK: Record<Encoding, number> = { br: 0, gzip: 1, identity: 2 };

describe('parseAcceptEncoding', () => {
  test('any header, even malformed, parses to q-values between 0 and 1 without throwing', () => {
    fc.assert(
      fc.property(fc.oneof(header, fc.string({ maxLength: 60 })), (h) => {
        const a = parseAcceptEncoding(h);
        for (const q of [a.br, a.gzip, a.identity]) assert.ok(q >= 0 && q <= 1, `${h} → ${JSON.stringify(a)}`);
      }),
      RUNS,
    );
  });
  test('by hand: explicit codings, the wildcard, x-gzip, case, the best of repeated codings, malformed q as a refusal', () => {
    assert.deepEqual(parseAcceptEncoding(undefined), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(NO_HEADER, { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(parseAcceptEncoding(''), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('gzip'), { br: 0, gzip: 1, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('br;q=0.5, gzip;q=0.8'), { br: 0.5, gzip: 0.8, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('*;q=0.3'), { br: 0.3, gzip: 0.3, identity: 0.3 });
    assert.deepEqual(parseAcceptEncoding('*;q=0.3, br'), { br: 1, gzip: 0.3, identity: 0.3 });
    assert.deepEqual(parseAcceptEncoding('X-GZIP;Q=0.7'), { br: 0, gzip: 0.7, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('gzip;q=0.2, gzip;q=0.6'), { br: 0, gzip: 0.6, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('gzip;q=1.5'), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('gzip;q=0.1234'), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('gzip;level=9;q=0.4'), { br: 0, gzip: 0.4, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('identity;q=0, br'), { br: 1, gzip: 0, identity: 0 });
    assert.deepEqual(parseAcceptEncoding(' , ;q=1'), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('gzip;q=0'), { br: 0, gzip: 0, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('*'), { br: 1, gzip: 1, identity: 1 });
    assert.deepEqual(parseAcceptEncoding('*;q=0'), { br: 0, gzip: 0, identity: 0 });
    assert.deepEqual(parseAcceptEncoding('gzip;q=2, br;q=abc'), { br: 0, gzip: 0, identity: 1 });
  });
  test('q-values as RFC 9110 writes them: 0 to 1 with at most three decimals; anything else refuses the coding', () => {
    const q = (value: string): number => parseAcceptEncoding(`gzip;q=${value}`).gzip;
    for (const [value, expected] of [
      ['1', 1],
      ['1.', 1],
      ['1.0', 1],
      ['1.00', 1],
      ['1.000', 1],
      ['0', 0],
      ['0.', 0],
      ['0.5', 0.5],
      ['0.25', 0.25],
      ['0.125', 0.125],
      ['0.001', 0.001],
    ] as const)
      assert.equal(q(value), expected, value);
    for (const value of ['1.0001', '1.5', '1.01', '2', '20', '01', '0.1234', '.5', '-0.5', '0,5', 'abc', '']) assert.equal(q(value), 0, value);
  });
  test('parameters: spaces around them, the name q in any case, other parameters ignored wherever they stand', () => {
    assert.equal(parseAcceptEncoding('gzip; q=0.5').gzip, 0.5);
    assert.equal(parseAcceptEncoding('gzip ; Q=0.5').gzip, 0.5);
    assert.equal(parseAcceptEncoding('gzip;q=0.5 , br;q=0.2').gzip, 0.5);
    assert.equal(parseAcceptEncoding('gzip;q=0.4;level=9').gzip, 0.4);
    assert.equal(parseAcceptEncoding('gzip;level=9;q=0.4').gzip, 0.4);
    assert.equal(parseAcceptEncoding('gzip;qq=0.3').gzip, 1, 'qq is not q');
    assert.equal(parseAcceptEncoding('gzip;q').gzip, 1, 'a q without a value is ignored');
    assert.equal(parseAcceptEncoding('gzip;qx').gzip, 1, 'a parameter without "=" is ignored, whatever its name begins with');
  });
});

describe('chooseEncoding', () => {
  test('never sends a coding the request gave q=0, and picks the highest q, the smaller coding on a tie', () => {
    fc.assert(
      fc.property(header, fc.boolean(), fc.boolean(), (h, hasGzip, hasBr) => {
        const accept = parseAcceptEncoding(h);
        const available = { identity: all.identity, gzip: hasGzip ? all.gzip : undefined, br: hasBr ? all.br : undefined };
        const chosen = chooseEncoding(available, accept);
        const offered = (['br', 'gzip', 'identity'] as const).filter((e) => available[e] !== undefined);
        const acceptable = offered.filter((e) => accept[e] > 0);
        if (acceptable.length === 0) {
          assert.equal(chosen, 'identity', 'nothing acceptable: identity is still sent');
          return;
        }
        const best = Math.max(...acceptable.map((e) => accept[e]));
        const expected = acceptable.filter((e) => accept[e] === best).sort((a, b) => RANK[a] - RANK[b])[0];
        assert.equal(chosen, expected, `${h} (gzip ${hasGzip}, br ${hasBr}) → ${JSON.stringify(accept)}`);
        assert.ok(accept[chosen] > 0, 'accept[chosen] > 0');
      }),
      RUNS,
    );
  });
  test('by hand', () => {
    const q = (br: number, gzip: number, identity: number): Acceptable => ({ br, gzip, identity });
    assert.equal(chooseEncoding(all, NO_HEADER), 'identity');
    assert.equal(chooseEncoding(all, q(1, 1, 1)), 'br');
    assert.equal(chooseEncoding(all, q(0, 1, 1)), 'gzip');
    assert.equal(chooseEncoding(all, q(0.5, 0.8, 1)), 'identity');
    assert.equal(chooseEncoding(all, q(0.5, 0.8, 0.1)), 'gzip');
    assert.equal(chooseEncoding({ ...all, br: undefined }, q(1, 0, 1)), 'identity');
    assert.equal(chooseEncoding({ ...all, gzip: undefined }, q(0, 1, 1)), 'identity');
    assert.equal(chooseEncoding(all, q(0, 0, 0)), 'identity');
  });
});

describe('If-None-Match', () => {
  const etag = fc.string({ unit: fc.constantFrom(...'abcdefABCDEF0123456789-_'), minLength: 1, maxLength: 27 }).map((s) => `"${s}"`);
  test('a list hits when any entry matches by weak comparison, or is *', () => {
    fc.assert(
      fc.property(etag, fc.array(etag, { maxLength: 4 }), fc.boolean(), fc.nat(4), (current, others, weak, at) => {
        const list = [...others];
        list.splice(Math.min(at, list.length), 0, weak ? `W/${current}` : current);
        assert.equal(ifNoneMatchHits(list.join(', '), current), true);
        assert.equal(ifNoneMatchHits(others.filter((o) => o !== current).join(', '), current), false);
        assert.equal(ifNoneMatchHits('*', current), true);
      }),
      RUNS,
    );
  });
  test('weak comparison works from either side: a weak current tag matches its strong spelling, and the reverse', () => {
    assert.equal(ifNoneMatchHits('"a"', 'W/"a"'), true);
    assert.equal(ifNoneMatchHits('"x", "a"', 'W/"a"'), true);
    assert.equal(ifNoneMatchHits('W/"a"', '"a"'), true);
    assert.equal(ifNoneMatchHits('"W/"', 'W/"a"'), false);
    assert.equal(ifNoneMatchHits('"b"', 'W/"a"'), false);
    assert.equal(ifNoneMatchHits('"x" ,  "a"', '"a"'), true);
    assert.equal(ifNoneMatchHits('"ab"', '"a"'), false);
    assert.equal(ifNoneMatchHits('a', '"a"'), false, 'an unquoted tag is not the tag');
    assert.equal(ifNoneMatchHits('', '"a"'), false);
  });
  test('If-None-Match wins over If-Modified-Since; an invalid or repeated If-Modified-Since is ignored', () => {
    const lastModified = Date.parse('2026-05-20T00:00:00Z');
    const at = (ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, imsInvalid = false): boolean =>
      notModified({ ifNoneMatch, ifModifiedSince, imsInvalid }, '"abc"', lastModified);
    assert.equal(at('"other"', 'Wed, 20 May 2026 00:00:00 GMT'), false);
    assert.equal(at(undefined, 'Wed, 20 May 2026 00:00:00 GMT'), true, 'equal dates: not modified');
    assert.equal(at(undefined, 'Tue, 19 May 2026 23:59:59 GMT'), false);
    assert.equal(at(undefined, 'not a date'), false);
    assert.equal(at(undefined, 'Wed, 20 May 2026 00:00:00 GMT', true), false);
    assert.equal(at(undefined, undefined), false);
  });
});
