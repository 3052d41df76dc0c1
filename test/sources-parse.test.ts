// The parsing helpers every adapter shares: rounding, CSV lines, where JSON array elements start.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { arrayElementLines, roundTo, splitCsvLine } from '../src/sources/parse.ts';

describe('parsing helpers', () => {
  test('roundTo rounds half away from zero without binary drift', () => {
    assert.equal(roundTo(1.005, 2), 1.01);
    assert.equal(roundTo(52.15, 1), 52.2);
    assert.equal(roundTo(-1.25, 1), -1.3);
    assert.equal(roundTo(0.04, 1), 0);
  });
  test('splitCsvLine follows RFC 4180 quotes', () => {
    assert.deepEqual(splitCsvLine('"a, b",1,,"say ""hi"""', {}), ['a, b', '1', '', 'say "hi"']);
    assert.throws(() => splitCsvLine('"open,1', {}), /unterminated/);
  });
  test('arrayElementLines finds where each top-level element starts', () => {
    assert.deepEqual(arrayElementLines('[\n["a","]"],\n["b"],\n\n["c"]\n]'), [2, 3, 5]);
  });
});
