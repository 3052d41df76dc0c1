// What a tool takes from a server it does not trust: a ceiling for every kind of answer, JSON nesting checked before parsing, control characters escaped for a terminal.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ENDPOINTS } from '../../src/contract/endpoints.ts';
import { ANSWER_KINDS, answerCeiling, ceilingWords, documentForTerminal, forTerminal, nestsDeeperThan } from '../../src/contract/untrusted.ts';

describe('answer ceilings', () => {
  test('every endpoint record has one, and a page and an error body do', () => {
    assert.deepEqual([...ANSWER_KINDS].sort(), [...Object.keys(ENDPOINTS), 'page', 'problem'].sort());
  });

  test('a kind that grows with the markets grows by its part per market; a market document does not', () => {
    // The bulk series CSV: 64 KiB and 1 MiB a market.
    assert.equal(answerCeiling('bulkSeriesCsv', 16), 64 * 1024 + 16 * 1024 * 1024);
    assert.equal(answerCeiling('profile', 16), answerCeiling('profile', 5000));
    assert.equal(ceilingWords('profile', 16), "more than a market's profile can be (262144 bytes)");
    assert.equal(ceilingWords('bulkCsv', 16), 'more than the bulk CSV can be (1114112 bytes at 16 markets)');
  });
});

describe('nestsDeeperThan', () => {
  test('counts arrays and objects outside strings, up to the limit', () => {
    assert.equal(nestsDeeperThan('[[[]]]', 3), false);
    assert.equal(nestsDeeperThan('[[[[]]]]', 3), true);
    assert.equal(nestsDeeperThan('{"a":{"b":[1]}}', 3), false);
    assert.equal(nestsDeeperThan('["[[[[", "\\"[[[["]', 1), false, 'brackets in strings, an escaped quote among them, do not count');
    assert.equal(nestsDeeperThan(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), true);
  });
});

describe('text for a terminal', () => {
  test('every control character escaped, line ends included, so a message stays one line', () => {
    assert.equal(forTerminal('a\u001b[2Jb\u0007c\u009bd\ne\u007f'), 'a\\u001b[2Jb\\u0007c\\u009bd\\u000ae\\u007f');
    assert.equal(forTerminal('plain, ünïcode'), 'plain, ünïcode');
  });

  test('a document printed whole keeps its line ends and tabs; a lone CR, which could overwrite a line, is escaped', () => {
    assert.equal(documentForTerminal('a,b\r\nc\td\u001b[31m\ne\rf'), 'a,b\r\nc\td\\u001b[31m\ne\\u000df');
  });
});
