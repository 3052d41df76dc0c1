// The methodology page's freshness bounds: the bounds it prints are the rule that runs, and the search for them always ends.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_RELEASE_AGE_DAYS, freshnessBounds } from '../../src/methodology/freshness.ts';

describe('freshnessBounds', () => {
  test('reads the rule that runs: fresh up to one interval (31, 92, 366 days), aging up to two', () => {
    assert.deepEqual(freshnessBounds('2026-05-20'), [
      { frequency: 'monthly', interval: 31, freshUpTo: 31, agingUpTo: 62 },
      { frequency: 'quarterly', interval: 92, freshUpTo: 92, agingUpTo: 184 },
      { frequency: 'annually', interval: 366, freshUpTo: 366, agingUpTo: 732 },
    ]);
  });
  test('a rule that never turns aging stops with a message instead of searching forever', () => {
    let asked = 0;
    assert.throws(
      () =>
        freshnessBounds('2026-05-20', () => {
          asked += 1;
          return 'fresh';
        }),
      /the freshness rule still says "fresh" for a monthly source released 3660 days before the snapshot/,
    );
    assert.ok(asked <= MAX_RELEASE_AGE_DAYS, `${asked} questions`);
  });
  test('a rule that never turns stale stops too', () => {
    assert.throws(
      () => freshnessBounds('2026-05-20', (source, snapshot) => (source.latestReleaseDate === snapshot ? 'fresh' : 'aging')),
      /still says "aging" for a monthly source/,
    );
  });
});
