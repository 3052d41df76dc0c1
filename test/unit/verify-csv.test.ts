// The RFC 4180 reader `verify` uses on served CSVs: what it accepts, and the line it names when it refuses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CsvSyntaxError, parseCsv } from '../../src/contract/csv-format.ts';

test('reads quoted fields with commas, doubled quotes and line breaks; every record ends with CRLF', () => {
  const text = 'a,b,c\r\n"Austin, TX","say ""hi""","two\r\nlines"\r\n,,\r\n';
  assert.deepEqual(parseCsv(text), [
    ['a', 'b', 'c'],
    ['Austin, TX', 'say "hi"', 'two\r\nlines'],
    ['', '', ''],
  ]);
  // The same reading as an independent parser.
  assert.deepEqual(parseCsv(text), parse(text, { relaxQuotes: false, recordDelimiter: '\r\n' }) as string[][]);
});

test('an empty document has no records', () => {
  assert.deepEqual(parseCsv(''), []);
});

for (const [name, text, line, reason] of [
  ['a bare LF', 'a,b\nc,d\r\n', 1, /bare LF/],
  ['a CR alone', 'a,b\rc\r\n', 1, /CR not followed by LF/],
  ['no CRLF after the last record', 'a,b\r\nc,d', 2, /does not end with CRLF/],
  ['an unclosed quote', 'a\r\n"b,c\r\n', 2, /never closed/],
  ['text after a closing quote', '"a"b,c\r\n', 1, /after a closing quote/],
  ['a quote inside an unquoted field', 'a"b,c\r\n', 1, /quote inside an unquoted field/],
] as const) {
  test(`refuses ${name}, naming the line`, () => {
    assert.throws(
      () => parseCsv(text),
      (error: unknown) => error instanceof CsvSyntaxError && error.line === line && reason.test(error.message),
    );
  });
}
