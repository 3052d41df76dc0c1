// The parsing helpers every adapter shares: text and number fields with their error codes, rounding, retrieval.json, CSV lines, where JSON array elements start.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FixtureError } from '../../src/contract/errors.ts';
import { arrayElementLines, eachLine, isCalendarDate, numeric, readRetrieval, roundTo, splitCsvLine, text, withRetrieval } from '../../src/sources/parse.ts';
import { assertFixtureError } from '../support/fixture-error.ts';

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
    assertFixtureError(() => readRetrieval(reader('{'), 'src-x'), 'bad_shape', /^src-x\/retrieval\.json: not valid JSON/);
    for (const notAnObject of ['[]', 'null', '5', '"2025"', 'true']) {
      assertFixtureError(() => readRetrieval(reader(notAnObject), 'src-x'), 'bad_shape', /^src-x\/retrieval\.json: expected a JSON object$/);
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
        /^src-x\/retrieval\.json, at \/illustrative: "illustrative" must be a sentence saying which values are not published$/,
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
