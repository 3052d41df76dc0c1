// The parsing helpers every adapter shares: a file's UTF-8, text and number fields with their error codes, rounding, retrieval.json, CSV lines, where JSON array elements start.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FixtureError } from '../../src/contract/errors.ts';
import {
  arrayElementLines,
  claimedConfidence,
  decodeFixture,
  eachLine,
  firstInvalidUtf8,
  isCalendarDate,
  loadedSource,
  jsonErrorOffset,
  numeric,
  parseJson,
  readRetrieval,
  refuseInvisibleIn,
  roundTo,
  splitCsvLine,
  text,
  withRetrieval,
  year,
} from '../../src/sources/parse.ts';
import { prng } from '../support/fuzz.ts';
import { assertFixtureError } from '../support/refused.ts';

const place = { file: 'f.csv', line: 7 };

describe('text', () => {
  test('a present text is returned as it is', () => {
    assert.equal(text('Austin city, Texas', place, 'NAME'), 'Austin city, Texas');
    assert.equal(text('a = b', place, 'NAME'), 'a = b', 'an = inside is no formula');
  });
  test('missing or blank: missing_field, naming the file, line and column', () => {
    for (const raw of [undefined, '', '   '])
      assertFixtureError(() => text(raw, place, 'NAME'), 'missing_field', /^f\.csv:7, column NAME: required field "NAME" is missing or empty$/);
  });
  test('a leading =, +, -, @, tab or carriage return is a formula a spreadsheet would run: formula_text', () => {
    for (const raw of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=1', '\r=1']) {
      assertFixtureError(
        () => text(raw, place, 'NAME'),
        'formula_text',
        /^f\.csv:7, column NAME: text field "NAME" starts with ".+", which a spreadsheet would execute as a formula/s,
      );
    }
  });
});

describe('numeric', () => {
  test('plain decimals, signs and surrounding spaces', () => {
    assert.equal(numeric('1712', place, 'rent'), 1712);
    assert.equal(numeric('-12.5', place, 'x'), -12.5);
    assert.equal(numeric(' 42 ', place, 'x'), 42);
    assert.equal(numeric('0', place, 'x'), 0);
  });
  test('missing or blank: missing_field', () => {
    for (const raw of [undefined, '', ' '])
      assertFixtureError(() => numeric(raw, place, 'rent'), 'missing_field', /column rent: required field "rent" is missing or empty/);
  });
  test('anything else: not_numeric, quoting the text', () => {
    for (const raw of ['1,712', '1e5', 'abc', '.', '1.', '.5', '--1', '0x10', 'NaN', 'Infinity']) {
      assert.throws(
        () => numeric(raw, place, 'rent'),
        (e: unknown) =>
          e instanceof FixtureError && e.code === 'not_numeric' && e.message.endsWith(`field "rent" must be a decimal number, got ${JSON.stringify(raw)}`),
        raw,
      );
    }
  });
});

describe('roundTo', () => {
  test('rounds half away from zero without binary drift, and never writes -0', () => {
    assert.equal(roundTo(1.005, 2), 1.01);
    assert.equal(roundTo(2.675, 2), 2.68);
    assert.equal(roundTo(52.15, 1), 52.2);
    assert.equal(roundTo(-1.25, 1), -1.3);
    assert.equal(roundTo(0.04, 1), 0);
    assert.ok(Object.is(roundTo(-0.04, 1), 0), 'not -0');
    assert.equal(roundTo(25.99, 1), 26);
    assert.equal(roundTo(1234.5, 0), 1235);
  });
});

describe('retrieval.json', () => {
  const reader = (body: string) => (path: string) => {
    assert.equal(path, 'src-x/retrieval.json');
    return body;
  };
  test('the vintage, the dates and the illustrative sentence', () => {
    assert.deepEqual(
      readRetrieval(
        reader('{"vintage":"2025","latestReleaseDate":"2026-05-01","latestRetrievedAt":"2026-05-20","illustrative":"All of it.","files":[]}'),
        'src-x',
      ),
      { vintage: '2025', latestReleaseDate: '2026-05-01', latestRetrievedAt: '2026-05-20', illustrative: 'All of it.' },
    );
    assert.deepEqual(readRetrieval(reader('{"vintage":"2025"}'), 'src-x'), { vintage: '2025' });
  });
  test('not JSON, not an object, no vintage: an error naming the file', () => {
    assertFixtureError(() => readRetrieval(reader('{'), 'src-x'), 'bad_shape', /^src-x\/retrieval\.json:1: not valid JSON at column 2/);
    for (const notAnObject of ['[]', 'null', '5', '"2025"', 'true']) {
      assertFixtureError(() => readRetrieval(reader(notAnObject), 'src-x'), 'bad_shape', /^src-x\/retrieval\.json:1: expected a JSON object$/);
    }
    assertFixtureError(() => readRetrieval(reader('{"vintage":""}'), 'src-x'), 'missing_field', /at \/vintage: required field "vintage" is missing/);
    assertFixtureError(() => readRetrieval(reader('{}'), 'src-x'), 'missing_field', /"vintage"/);
  });
  test('an impossible or malformed date is refused, with its pointer: 2026-13-45, 2026-02-30, 2026-5-20, a number', () => {
    for (const bad of ['"2026-13-45"', '"2026-02-30"', '"2025-02-29"', '"2026-5-20"', '"2026-05-20T00:00:00Z"', '20260520']) {
      assertFixtureError(
        () => readRetrieval(reader(`{"vintage":"2025","latestRetrievedAt":${bad}}`), 'src-x'),
        'bad_shape',
        /at \/latestRetrievedAt: "latestRetrievedAt" must be an ISO date \(YYYY-MM-DD\)/,
      );
    }
    assertFixtureError(() => readRetrieval(reader('{"vintage":"2025","latestReleaseDate":"2026-04-31"}'), 'src-x'), 'bad_shape', /at \/latestReleaseDate/);
  });
  test('an illustrative mark must be a sentence', () => {
    for (const bad of ['""', '" "', '1', 'true']) {
      assertFixtureError(
        () => readRetrieval(reader(`{"vintage":"2025","illustrative":${bad}}`), 'src-x'),
        'bad_shape',
        /^src-x\/retrieval\.json:1, at \/illustrative: "illustrative" must be a sentence saying which values are not published$/,
      );
    }
  });
  test('illustrativeMetrics: a list of metric ids, only beside the sentence', () => {
    assert.deepEqual(readRetrieval(reader('{"vintage":"2025","illustrative":"Some.","illustrativeMetrics":["a","b"]}'), 'src-x'), {
      vintage: '2025',
      illustrative: 'Some.',
      illustrativeMetrics: ['a', 'b'],
    });
    assertFixtureError(
      () => readRetrieval(reader('{"vintage":"2025","illustrativeMetrics":["a"]}'), 'src-x'),
      'bad_shape',
      'src-x/retrieval.json:1, at /illustrativeMetrics: "illustrativeMetrics" needs the sentence "illustrative" beside it',
    );
    for (const bad of ['"a"', '[]', '[""]', '["a",1]', '["a",null]', '{"0":"a"}']) {
      assertFixtureError(
        () => readRetrieval(reader(`{"vintage":"2025","illustrative":"Some.","illustrativeMetrics":${bad}}`), 'src-x'),
        'bad_shape',
        'src-x/retrieval.json:1, at /illustrativeMetrics: "illustrativeMetrics" must be a list of metric ids',
      );
    }
  });
  test('isCalendarDate: real days only', () => {
    for (const ok of ['2026-05-20', '2024-02-29', '2000-02-29', '1999-12-31']) assert.equal(isCalendarDate(ok), true, ok);
    for (const bad of ['2025-02-29', '1900-02-29', '2026-00-10', '2026-12-32', '26-05-20', '2026-05-20 ', '+02026-05-20', '2026-5-20', '20260520', '']) {
      assert.equal(isCalendarDate(bad), false, bad);
    }
  });
  test('withRetrieval adds only the dates it knows', () => {
    const base = {
      sourceId: 's',
      sourceName: 'S',
      agency: 'A',
      datasetName: 'D',
      sourceUrl: 'https://x',
      confidence: 'high',
      updateFrequency: 'annually',
      provenance: 'fixture',
    } as const;
    assert.deepEqual(withRetrieval(base, { vintage: '1' }), base);
    assert.deepEqual(withRetrieval(base, { vintage: '1', latestRetrievedAt: '2026-05-20' }), { ...base, latestRetrievedAt: '2026-05-20' });
  });
});

describe('splitCsvLine', () => {
  test('follows RFC 4180 quotes', () => {
    assert.deepEqual(splitCsvLine('"a, b",1,,"say ""hi"""', {}), ['a, b', '1', '', 'say "hi"']);
    assert.deepEqual(splitCsvLine('', {}), ['']);
    assert.deepEqual(splitCsvLine('a,', {}), ['a', '']);
    assert.deepEqual(splitCsvLine('""', {}), ['']);
  });
  test('an unterminated quote, or text after a closing quote, is bad_shape with its position', () => {
    assertFixtureError(() => splitCsvLine('"open,1', place), 'bad_shape', /^f\.csv:7: unterminated quoted field$/);
    assertFixtureError(() => splitCsvLine('"a"b,1', place), 'bad_shape', /^f\.csv:7: unexpected character after a quoted field at position 4$/);
    assertFixtureError(() => splitCsvLine('1,"a" ,2', place), 'bad_shape', /at position 6/);
  });
});

describe('eachLine', () => {
  test('visits every non-blank line with its 1-based number, whatever the terminator, without the CR', () => {
    const seen: [string, number][] = [];
    eachLine('a\r\nb\n\n  \nc\r\n\r\nd', (raw, line) => seen.push([raw, line]));
    assert.deepEqual(seen, [
      ['a', 1],
      ['b', 2],
      ['c', 5],
      ['d', 7],
    ]);
  });
  test('an empty text or one of blank lines visits nothing', () => {
    for (const text of ['', '\n', '\r\n \r\n']) eachLine(text, () => assert.fail(`visited ${JSON.stringify(text)}`));
  });
});

describe('arrayElementLines', () => {
  test('finds where each top-level element starts, ignoring brackets and escaped quotes inside strings', () => {
    assert.deepEqual(arrayElementLines('[\n["a","]"],\n["b"],\n\n["c"]\n]'), [2, 3, 5]);
    assert.deepEqual(arrayElementLines('[["x\\"],["],\n["y"]]'), [1, 2]);
    assert.deepEqual(arrayElementLines('[{"a":[1,2]},\n{"b":"}"}]'), [1, 2]);
    assert.deepEqual(arrayElementLines('[]'), []);
    assert.deepEqual(arrayElementLines('[12,\n345, 6]'), [1, 2, 2], 'a number of several digits is one element');
    assert.deepEqual(arrayElementLines('[\n[\n1],\n[\n2]\n]'), [2, 4], 'an element starts at its opening bracket, not at its first value');
  });
});

describe("a fixture file's UTF-8", () => {
  const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
  test('each lead byte with the narrowest and widest second byte it allows, and one past them', () => {
    // [bytes, offset of the first byte that is not UTF-8, or -1]
    const cases: [Uint8Array, number][] = [
      [bytes(0x41, 0x7f), -1],
      [bytes(0x80), 0], // a continuation byte alone
      [bytes(0xc0, 0x80), 0], // C0 and C1 only ever start overlong forms
      [bytes(0xc1, 0xbf), 0],
      [bytes(0xc0, 0x80, 0x80, 0x80), 0], // no lead below F0 starts four bytes
      [bytes(0x80, 0x80, 0x80, 0x80), 0],
      [bytes(0xc2, 0x80), -1],
      [bytes(0xdf, 0xbf), -1],
      [bytes(0xc2, 0x7f), 0],
      [bytes(0xc2, 0xc0), 0],
      [bytes(0xe0, 0xa0, 0x80), -1], // U+0800, the first three-byte code point
      [bytes(0xe0, 0x9f, 0xbf), 0], // overlong
      [bytes(0xe1, 0x80, 0x80), -1],
      [bytes(0xed, 0x9f, 0xbf), -1], // U+D7FF
      [bytes(0xed, 0xa0, 0x80), 0], // U+D800, a surrogate
      [bytes(0xef, 0xbf, 0xbf), -1],
      [bytes(0xe1, 0x80, 0x7f), 0], // a third byte out of range
      [bytes(0xe1, 0x80, 0xc0), 0],
      [bytes(0xf0, 0x90, 0x80, 0x80), -1], // U+10000
      [bytes(0xf0, 0x8f, 0xbf, 0xbf), 0], // overlong
      [bytes(0xf4, 0x8f, 0xbf, 0xbf), -1], // U+10FFFF, the last code point
      [bytes(0xf4, 0x90, 0x80, 0x80), 0], // past it
      [bytes(0xf5, 0x80, 0x80, 0x80), 0],
      [bytes(0xff), 0],
      [bytes(0xf1, 0x80, 0x80, 0x7f), 0], // a fourth byte out of range
      [bytes(0x41, 0xe1, 0x80), 1], // cut short at the end
      [bytes(0x41, 0xf1, 0x80, 0x80), 1],
      [bytes(0x41, 0x42, 0xc3, 0xa9, 0xff), 4], // after a valid é
    ];
    for (const [input, offset] of cases) assert.equal(firstInvalidUtf8(input), offset, Buffer.from(input).toString('hex'));
  });
  test('agrees with the platform decoder on 20,000 seeded byte strings: the same verdict, and the same place', () => {
    const rnd = prng(0x07f8);
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
    // Whole sequences at the edges of the ranges above, and now and then one byte of the pool (a lead without its
    // continuation, a stray continuation, a byte no sequence has), so both verdicts come often.
    const valid = ['41', '7f', 'c280', 'dfbf', 'e0a080', 'e0bfbf', 'e18080', 'ed9fbf', 'ee8080', 'efbfbf', 'f0908080', 'f3bfbfbf', 'f48fbfbf'];
    const pool = [0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff];
    const piece = (): Buffer =>
      rnd() < 0.8 ? Buffer.from(valid[Math.floor(rnd() * valid.length)] as string, 'hex') : Buffer.from([pool[Math.floor(rnd() * pool.length)] as number]);
    let invalid = 0;
    for (let n = 0; n < 20_000; n += 1) {
      const input = new Uint8Array(Buffer.concat(Array.from({ length: 1 + Math.floor(rnd() * 4) }, piece)));
      const at = firstInvalidUtf8(input);
      let decoded: string | undefined;
      try {
        decoded = fatal.decode(input);
      } catch {
        decoded = undefined;
      }
      const label = Buffer.from(input).toString('hex');
      assert.equal(at === -1, decoded !== undefined, label);
      if (at === -1) continue;
      invalid += 1;
      // Everything before the offset is valid, and the decoder's first replacement comes right after it.
      const before = fatal.decode(input.subarray(0, at));
      assert.ok(lenient.decode(input).startsWith(`${before}\uFFFD`), label);
    }
    assert.ok(invalid > 5_000 && invalid < 19_000, `${invalid} of 20,000 invalid: the mix tests both verdicts`);
  });
  test('decodeFixture: text as it is; a byte-order mark or a byte that is not UTF-8 refused with its line and column', () => {
    assert.equal(decodeFixture(Buffer.from('a,b\r\nÉ,1\n'), 'x.csv'), 'a,b\r\nÉ,1\n');
    // Text that shares one or two of the mark's three bytes is text: EF BB 80, EF BE BF, E1 BB BF.
    for (const text of ['\uFEC0', '\uFFBF', '\u1EFF']) assert.equal(decodeFixture(Buffer.from(text), 'x.csv'), text, Buffer.from(text).toString('hex'));
    assertFixtureError(
      () => decodeFixture(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), 'x.csv'),
      'bad_encoding',
      "x.csv:1: starts with a UTF-8 byte-order mark (EF BB BF), which the agency's files do not have; remove it",
    );
    assertFixtureError(
      () => decodeFixture(Buffer.concat([Buffer.from('ab\ncd\nef'), Buffer.from([0xe9]), Buffer.from('g\n')]), 'x.csv'),
      'bad_encoding',
      'x.csv:3: not valid UTF-8: byte 0xE9 at column 3 (byte 9 of the file)',
    );
    assertFixtureError(
      () => decodeFixture(Buffer.from([0x0a, 0x0a, 0xc0, 0x80]), 'x.csv'),
      'bad_encoding',
      /^x\.csv:3: not valid UTF-8: byte 0xC0 at column 1 /,
    );
  });
});

describe("a source's load: what it may claim", () => {
  test('confidence: its own where every value is published, at most medium where some are illustrative, low where all are', () => {
    const some = [{}, { illustrative: true as const }];
    for (const own of ['high', 'medium', 'low'] as const) {
      assert.equal(claimedConfidence(own, [{}, {}]), own, `${own}, none illustrative`);
      assert.equal(claimedConfidence(own, [{ illustrative: true }, { illustrative: true }]), 'low', `${own}, all illustrative`);
    }
    assert.equal(claimedConfidence('high', some), 'medium');
    assert.equal(claimedConfidence('medium', some), 'medium');
    assert.equal(claimedConfidence('low', some), 'low', 'never raised');
    assert.equal(claimedConfidence('high', []), 'high', 'no values: nothing illustrative');
  });
  test('an illustrativeMetrics id the source does not define is refused, naming the ids it does', () => {
    const module = {
      sourceId: 'src-x',
      attribution: {
        sourceName: 'X',
        agency: 'A',
        sourceUrl: 'https://example.org/',
        confidence: 'high',
        updateFrequency: 'annually',
        provenance: 'fixture',
      },
      licence: { id: 'public-domain', terms: 'Public domain.' },
      metrics: [{ id: 'rent' }, { id: 'price' }],
    } as unknown as Parameters<typeof loadedSource>[0];
    const parts = { observations: [], series: [], notes: [], missing: [], skipped: 0 } as unknown as Parameters<typeof loadedSource>[3];
    assertFixtureError(
      () => loadedSource(module, 'D', { vintage: '1', illustrative: 'Some.', illustrativeMetrics: ['rent', 'rents', 'prices'] }, parts),
      'bad_shape',
      'src-x/retrieval.json, at /illustrativeMetrics: "rents", "prices" are not metrics of src-x (rent, price)',
    );
    assertFixtureError(
      () => loadedSource(module, 'D', { vintage: '1', illustrative: 'Some.', illustrativeMetrics: ['rents'] }, parts),
      'bad_shape',
      'src-x/retrieval.json, at /illustrativeMetrics: "rents" is not a metric of src-x (rent, price)',
    );
    assert.equal(loadedSource(module, 'D', { vintage: '1', illustrative: 'Some.', illustrativeMetrics: ['price'] }, parts).illustrative, 'Some.');
  });
});

describe('what the load refuses before it is data', () => {
  const reader = (json: string) => (path: string) => (path === 'src-x/retrieval.json' ? json : '');
  test('a retrieval or release date a zip cannot record (before 1980, after 2107) is refused at load, with the file, line and field', () => {
    for (const [key, date] of [
      ['latestRetrievedAt', '1979-12-31'],
      ['latestRetrievedAt', '2108-01-01'],
      ['latestReleaseDate', '1970-01-01'],
    ]) {
      assertFixtureError(
        () => readRetrieval(reader(`{"vintage":"2025",\n"${key}":"${date}"}`), 'src-x'),
        'out_of_range',
        `src-x/retrieval.json:2, at /${key}: "${key}" is ${date}, outside 1980-01-01 to 2107-12-31: the dates a zip file can record, and the download's entries are dated by the snapshot`,
      );
    }
    assert.deepEqual(readRetrieval(reader('{"vintage":"2025","latestRetrievedAt":"2107-12-31"}'), 'src-x'), {
      vintage: '2025',
      latestRetrievedAt: '2107-12-31',
    });
  });
  test('a release after the retrieval is refused', () => {
    assertFixtureError(
      () => readRetrieval(reader('{"vintage":"2025","latestReleaseDate":"2099-01-01","latestRetrievedAt":"2026-11-29"}'), 'src-x'),
      'out_of_range',
      'src-x/retrieval.json:1, at /latestReleaseDate: "latestReleaseDate" 2099-01-01 is after "latestRetrievedAt" 2026-11-29: a release cannot be retrieved before it is published',
    );
  });
  test('an unknown field (a misspelt key would drop its date without a word) is refused', () => {
    assertFixtureError(
      () => readRetrieval(reader('{"vintage":"2025",\n"latestReleseDate":"2026-01-01"}'), 'src-x'),
      'bad_shape',
      'src-x/retrieval.json:2, at /latestReleseDate: unknown field "latestReleseDate"; retrieval.json holds "vintage", "latestReleaseDate", "latestReleaseDateBasis", "latestRetrievedAt", "readFrom", "illustrative", "illustrativeMetrics", "files"',
    );
  });
  test('a number past 2^53 − 1 is refused before anything is sized or rounded by it', () => {
    assert.equal(numeric('9007199254740991', { file: 'f', line: 3 }, 'n'), 9_007_199_254_740_991);
    assertFixtureError(
      () => numeric('9007199254740993', { file: 'f', line: 3 }, 'n'),
      'out_of_range',
      'f:3, column n: field "n" is 9007199254740993, larger than any count or measure (at most 2^53 − 1)',
    );
  });
  test('a year is four digits within its span: 2205, 0999, -2019, 99999 and 2025.5 are refused with the reason', () => {
    const span = { first: 1975, last: 2026, says: 'the reason' };
    assert.equal(year(' 2026 ', { file: 'f', line: 1 }, 'year', span), 2026);
    for (const bad of ['2205', '0999', '-2019', '99999', '2025.5', '1974']) {
      assertFixtureError(
        () => year(bad, { file: 'f', line: 1 }, 'year', span),
        'out_of_range',
        `f:1, column year: year "${bad}" is not a year from 1975 to 2026: the reason`,
      );
    }
  });
  test('an invisible character inside a text or number field is refused, naming it', () => {
    assertFixtureError(
      () => text('Austin\u00a0city', { file: 'f', line: 2 }, 'NAME'),
      'bad_encoding',
      'f:2, column NAME: field "NAME" holds the invisible character U+00A0 at position 7, which the agency\'s files do not have; remove it',
    );
    assertFixtureError(
      () => numeric('17\u200b29', { file: 'f', line: 2 }, 'B25064_001E'),
      'bad_encoding',
      'f:2, column B25064_001E: field "B25064_001E" holds the invisible character U+200B at position 3, which the agency\'s files do not have; remove it',
    );
  });
  test("a file's invisible character is named with its line and column; a line's CRLF is not one, a lone CR is", () => {
    assert.doesNotThrow(() => refuseInvisibleIn('a,b\r\nc,d\r\n', 'f'));
    assertFixtureError(() => refuseInvisibleIn('a,b\nc,\rd\n', 'f'), 'bad_encoding', /^f:2: the invisible character U\+000D at column 3, /);
    assertFixtureError(() => refuseInvisibleIn('a\nb\n\tc', 'f'), 'bad_encoding', /^f:3: the invisible character U\+0009 at column 1, /);
  });
  test('JSON that does not parse is refused with the line and column where it stops being JSON', () => {
    assert.equal(jsonErrorOffset('[["a","b"],\n["c","d"]]'), -1);
    assert.equal(jsonErrorOffset('[1,]'), 3);
    assert.equal(jsonErrorOffset('[["a"],\n["b"]'), 13);
    assertFixtureError(() => parseJson('[["a","b"],\n["c" "d"]]', 'f.json'), 'bad_shape', /^f\.json:2: not valid JSON at column 6: /);
    assertFixtureError(
      () => parseJson('[["a"],\n["b"]', 'f.json'),
      'bad_shape',
      "f.json:2: not valid JSON at column 6: Expected ',' or ']' after array element",
    );
  });
});
