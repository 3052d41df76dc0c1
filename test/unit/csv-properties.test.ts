// Properties of the CSV writer over generated inputs: any finite number round-trips as a plain decimal, any label survives an independent RFC 4180 reader, any order comes out sorted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { CsvSyntaxError, csvField, parseCsv, plainDecimal } from '../../src/contract/csv-format.ts';
import { renderBulkCsv, renderMarketCsv } from '../../src/render/csv-documents.ts';
import { buildTable, servedProfiles } from '../support/data.ts';

const RUNS = { numRuns: 500, seed: 20261124 };
const read = (text: string): string[][] => parse(text, { record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false }) as string[][];
const PLAIN = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

describe('plainDecimal', () => {
  test('any finite double is written without exponent or separator and reads back as the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = plainDecimal(x);
        assert.match(text, PLAIN, `${x} → ${text}`);
        assert.equal(Number(text), x === 0 ? 0 : x);
      }),
      RUNS,
    );
  });
  test('the edges of the exponent range, written out in full', () => {
    assert.equal(plainDecimal(Number.MIN_VALUE), `0.${'0'.repeat(323)}5`);
    assert.equal(plainDecimal(1e21), `1${'0'.repeat(21)}`);
    assert.equal(plainDecimal(1e-7), '0.0000001');
    assert.equal(plainDecimal(123e-9), '0.000000123');
    assert.equal(plainDecimal(-1.5e22), `-15${'0'.repeat(21)}`);
    assert.equal(plainDecimal(9.87654321e21), '9876543210000000000000');
    assert.equal(plainDecimal(0.1), '0.1');
    assert.equal(plainDecimal(-0), '0');
  });
  test('NaN and the infinities are refused, never written', () => {
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.throws(() => plainDecimal(x), /cannot write .* as a CSV decimal/);
  });
});

describe('csvField', () => {
  test('any text survives an independent RFC 4180 reader, quoted only when it must be', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { minLength: 1, maxLength: 5 }), (fields) => {
        const line = `${fields.map(csvField).join(',')}\r\n`;
        assert.deepEqual(read(line), [fields.length === 1 && fields[0] === '' ? [''] : fields]);
        for (const f of fields) assert.equal(csvField(f).startsWith('"'), /[",\r\n]/.test(f), JSON.stringify(f));
      }),
      RUNS,
    );
  });
  test('labels with commas, quotes and line breaks, by hand', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\r\nlines'), '"two\r\nlines"');
    assert.equal(csvField('cr\ronly'), '"cr\ronly"');
    assert.equal(csvField('lf\nonly'), '"lf\nonly"');
    assert.equal(csvField(''), '');
  });
});

describe('parseCsv, the strict reader the build and verify use', () => {
  test('an empty text is no record; an empty line is one empty field', () => {
    assert.deepEqual(parseCsv(''), []);
    assert.deepEqual(parseCsv('\r\n'), [['']]);
    assert.deepEqual(parseCsv('"",\r\n'), [['', '']]);
  });
  test('reads back whatever csvField writes, CRLF after every record', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ maxLength: 12 }), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }), (records) => {
        const text = records.map((r) => `${r.map(csvField).join(',')}\r\n`).join('');
        assert.deepEqual(parseCsv(text), records);
      }),
      RUNS,
    );
  });
  const refusals: [string, string, RegExp][] = [
    ['text after a closing quote', '"a"b\r\n', /line 1: unexpected "b" after a closing quote/],
    ['a quote inside an unquoted field', 'a"b\r\n', /line 1: a quote inside an unquoted field/],
    ['a bare LF', 'a,b\nc\r\n', /line 1: a bare LF line end/],
    ['a CR without LF', 'a\rb\r\n', /line 1: a CR not followed by LF/],
    ['a quoted field never closed', 'x\r\n"open,\r\n', /line 2: a quoted field opened here is never closed/],
    ['a last record without CRLF', 'a,b\r\nc,d', /line 2: the last record does not end with CRLF/],
    ['a last quoted field without CRLF', '"a"', /line 1: the last record does not end with CRLF/],
    ['a last empty quoted field without CRLF', 'x\r\n""', /line 2: the last record does not end with CRLF/],
    ['a last record ending in a comma without CRLF', 'a,', /line 1: the last record does not end with CRLF/],
    ['a lone field without CRLF', 'a', /line 1: the last record does not end with CRLF/],
    ['a quote error after a quoted field that spans lines, on its own line', '"multi\nline"\r\nbad"quote\r\n', /line 3: a quote inside an unquoted field/],
  ];
  for (const [name, text, message] of refusals) {
    test(`refuses ${name}, naming the line`, () => {
      assert.throws(
        () => parseCsv(text),
        (e: unknown) => e instanceof CsvSyntaxError && message.test(e.message),
      );
    });
  }
});

describe('the CSV documents', () => {
  const profiles = servedProfiles(buildTable());
  const shuffled = <T>(items: readonly T[], seed: number): T[] => {
    const out = [...items];
    let s = seed;
    for (let i = out.length - 1; i > 0; i -= 1) {
      s = (s * 1103515245 + 12345) % 2147483648;
      const j = s % (i + 1);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  };
  /** A profile with its metrics object in another key order. */
  const reordered = (p: MarketProfile, seed: number): MarketProfile => ({
    ...p,
    profile: { ...p.profile, metrics: Object.fromEntries(shuffled(Object.entries(p.profile.metrics), seed)) },
  });
  test('shuffled profiles and metrics always come out sorted by market_id, then metric_id, byte for byte the same', () => {
    const reference = renderBulkCsv(profiles);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
        const text = renderBulkCsv(shuffled(profiles, seed).map((p, i) => reordered(p, seed + i)));
        assert.equal(text, reference);
      }),
      { numRuns: 100, seed: 7 },
    );
    const keys = read(reference)
      .slice(1)
      .map((r) => `${r[0]}\u0000${r[2]}`);
    assert.deepEqual(keys, [...keys].sort());
  });
  test('any label, unit or market name is quoted so every row still has eleven fields and reads back as written', () => {
    const [first] = profiles;
    assert.ok(first, 'first');
    const metric = Object.values(first.profile.metrics)[0];
    assert.ok(metric, 'metric');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.string({ minLength: 1, maxLength: 10 }), (label, unit) => {
        const p: MarketProfile = { ...first, profile: { ...first.profile, metrics: { [metric.id]: { ...metric, label, unit } } } };
        const rows = read(renderMarketCsv(p));
        assert.equal(rows.length, 2);
        assert.equal(rows[1]?.length, 11);
        assert.equal(rows[1]?.[3], label);
        assert.equal(rows[1]?.[5], unit);
      }),
      RUNS,
    );
  });
});
